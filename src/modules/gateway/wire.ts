import type { z } from 'zod';
import { errors } from '../../errors/index.js';
import type { GenerationOptions, ResponseFormat, ToolChoice, ToolDef } from '../models/index.js';
import { checkResponseFormat } from '../models/index.js';

/** `messages[2].content` from a zod path. */
function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), '');
}

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/** zod's own wording, which names no field the reader can act on. */
const generic = (message: string): boolean => /^Invalid (input|option)/.test(message);

/**
 * The most telling problem of an issue: a value that matches no member of a union (a string or a list
 * of parts, say) is reported by the deepest problem a member found, when that one says what is
 * supported (e.g. `messages[0].content[0].type: only text ... are supported`), else by the union's own.
 */
function telling(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return issue;
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0] && telling(branch[0]);
    if (first && first.path.length > 0 && !generic(first.message) && (!best || first.path.length > best.path.length)) best = first;
  }
  return best ? { ...best, path: [...issue.path, ...best.path] } : issue;
}

/** Parses a dialect body; the first problem becomes 400 `invalid_request_error` naming the field in `param`. */
export function parseWire<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0] as Issue | undefined;
  const issue = first && telling(first);
  const param = issue ? pathText(issue.path) : '';
  const message = issue?.message ?? 'Invalid request body';
  throw errors.validation(param || null, param && !message.startsWith(param) ? `${param}: ${message}` : message);
}

/** SPEC: a call without any `user` message is a 400 in both dialects. */
export function requireUserMessage(messages: readonly { role: string }[]): void {
  if (!messages.some((m) => m.role === 'user')) {
    throw errors.validation('messages', 'messages must contain at least one user message');
  }
}

/** OpenAI's `allowed_tools` choice: only these of the tools are offered; `required` makes the model call one. */
export interface AllowedTools {
  allowed: string[];
  mode: 'auto' | 'required';
}

/**
 * The caller's tool choice, dialect-neutral (`allowed_tools` keeps the tools it names, then is its mode): `none` withholds the tools (the model cannot call one);
 * `required` and a named tool need tools to choose from, and the name must be one of them (else 400
 * `invalid_request_error`, param `tool_choice`). `auto`, the default, is not carried.
 */
export function applyToolChoice(
  choice: 'none' | ToolChoice | AllowedTools | undefined,
  tools: ToolDef[],
): { tools: ToolDef[]; toolChoice?: Exclude<ToolChoice, 'auto'> } {
  if (choice === undefined || choice === 'auto') return { tools };
  if (typeof choice === 'object' && 'allowed' in choice) {
    const allowed = new Set(choice.allowed);
    return applyToolChoice(choice.mode, tools.filter((t) => allowed.has(t.name)));
  }
  if (choice === 'none') return { tools: [] };
  if (choice === 'required') {
    if (tools.length === 0) throw errors.validation('tool_choice', 'tool_choice requires tools');
    return { tools, toolChoice: 'required' };
  }
  if (!tools.some((t) => t.name === choice.name)) {
    throw errors.validation('tool_choice', `tool_choice names the tool ${JSON.stringify(choice.name)}, which is not among tools`);
  }
  return { tools, toolChoice: { name: choice.name } };
}

/** What keeps the text parts of one content apart (textOf). */
export const PART_SEPARATOR = '\n\n';

/**
 * Text of an `{ type: "text", text }[]` content, or of a plain string. The parts are separate pieces
 * (an Anthropic `system` split into a cached prefix and an instruction, several text parts of one
 * message): they are kept apart by a blank line, as the gateway joins caller instructions, never run
 * together ("Be brief.Answer in French."); empty parts add nothing.
 */
export function textOf(content: string | readonly { text: string }[] | null | undefined): string {
  if (content == null) return '';
  return typeof content === 'string' ? content : content.map((p) => p.text).filter((t) => t !== '').join(PART_SEPARATOR);
}

/** Tool-call arguments as an object, for dialects that carry them parsed. */
export function argumentsObject(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return {};
  }
}

/**
 * One server-sent event: `data` is JSON-encoded unless it is the literal `[DONE]`; or `json`, data already
 * encoded (a text delta made from its stream's template, `OpenAIStream`).
 */
export type SseFrame = { event?: string; data: unknown } | { event?: string; json: string };

/** A frame as written on the wire: its `event:` line when named, its `data:` line, a blank line. */
export const sseText = (f: SseFrame): string =>
  `${f.event ? `event: ${f.event}\n` : ''}data: ${'json' in f ? f.json : f.data === '[DONE]' ? '[DONE]' : JSON.stringify(f.data)}\n\n`;

/** An OpenAI-style format (`response_format`, the Responses API's flattened `text.format`) as the provider-neutral one. */
export function responseFormatOf(
  wire: { type: string; name?: string; schema?: Record<string, unknown>; strict?: boolean | null; description?: string } | null | undefined,
  field: string,
): ResponseFormat | undefined {
  if (!wire || wire.type === 'text') return undefined;
  if (wire.type === 'json_object') return { type: 'json_object' };
  const format: ResponseFormat = {
    type: 'json_schema',
    name: wire.name ?? 'response',
    schema: wire.schema ?? {},
    ...(wire.strict != null ? { strict: wire.strict } : {}),
    ...(wire.description !== undefined ? { description: wire.description } : {}),
  };
  checkResponseFormat(format, field);
  return format;
}

/** The settings actually given (undefined and null left out), or undefined when none is. */
export function generationOf(options: { [K in keyof GenerationOptions]: GenerationOptions[K] | null | undefined }): GenerationOptions | undefined {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined && v !== null));
  return Object.keys(given).length > 0 ? (given as GenerationOptions) : undefined;
}

/** `stop` as a list: OpenAI sends a string or a list. */
export const stopList = (stop: string | string[] | null | undefined): string[] | undefined =>
  stop == null ? undefined : typeof stop === 'string' ? [stop] : stop.length ? stop : undefined;
