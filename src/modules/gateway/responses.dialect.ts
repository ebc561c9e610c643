import { errors, openaiBody, type DomainError } from '../../errors/index.js';
import type { ChatMessage, ToolDef } from '../models/index.js';
import { hashRequest } from '../proofs/index.js';
import type { GatewayAnswer, GatewayCall, PreparedCall } from './gateway-call.js';
import { ResponsesRequestSchema, type ResponsesInputItem, type ResponsesRequest, type ResponsesText } from './gateway.schemas.js';
import { applyToolChoice, generationOf, parseWire, requireUserMessage, responseFormatOf, sseText, textOf, type SseFrame } from './wire.js';
import { randomText } from '../../lib/ids.js';

export const RESPONSES_ROUTE = 'POST /v1/responses';

export interface ResponsesParsed {
  call: GatewayCall;
  stream: boolean;
  /** The request's settings echoed in the response object, as the API does. */
  echo: ResponseEcho;
}

/** What a `response` object repeats from its request. */
export interface ResponseEcho {
  instructions: string | null;
  max_output_tokens: number | null;
  parallel_tool_calls: boolean;
  temperature: number | null;
  top_p: number | null;
  text: { format: Record<string, unknown> };
  tool_choice: unknown;
  tools: unknown[];
  metadata: Record<string, string>;
  user: string | null;
}

/**
 * OpenAI Responses request → gateway call. `instructions` and `system` / `developer` items become
 * system messages; `input` is a user message when it is a string, else items: messages (text parts
 * only), `function_call` (an assistant tool call; consecutive ones join one assistant message) and
 * `function_call_output` (a tool message); `reasoning` items carry nothing this gateway can pass on
 * and are dropped. This gateway stores no responses: `previous_response_id` and `item_reference`
 * are refused (400 naming the field), the caller sends the whole conversation instead.
 */
export function fromResponses(body: unknown, conversationId?: string): ResponsesParsed {
  const req = parseWire(ResponsesRequestSchema, body);
  if (req.previous_response_id) {
    throw errors.validation(
      'previous_response_id',
      'previous_response_id is not supported: this gateway stores no responses. Send the whole conversation in input (with store: false), and name a conversation with the x-svc-conversation header to group the calls',
    );
  }
  const items: ResponsesInputItem[] = typeof req.input === 'string' ? [{ type: 'message', role: 'user', content: req.input }] : req.input;
  const messages = [
    ...(req.instructions ? [{ role: 'system' as const, content: req.instructions }] : []),
    ...toChatMessages(items),
  ];
  requireUserMessage(messages);
  const systems = messages.filter((m) => m.role === 'system');
  const rest = messages.filter((m) => m.role !== 'system');
  const choice = req.tool_choice;
  const { tools, toolChoice } = applyToolChoice(
    choice == null || typeof choice === 'string'
      ? (choice ?? undefined)
      : choice.type === 'allowed_tools'
        ? { allowed: choice.tools.flatMap((t) => (t.name ? [t.name] : [])), mode: choice.mode }
        : { name: choice.name },
    (req.tools ?? []).map(
      (t): ToolDef => ({ name: t.name, description: t.description ?? '', parameters: t.parameters ?? { type: 'object', properties: {} } }),
    ),
  );
  const format = req.text?.format;
  const generation = generationOf({
    responseFormat: responseFormatOf(format && { ...format, description: format.type === 'json_schema' ? (format.description ?? undefined) : undefined }, 'text.format'),
    topP: req.top_p,
    parallelToolCalls: req.parallel_tool_calls,
    user: req.user,
    reasoningEffort: req.reasoning?.effort,
    verbosity: req.text?.verbosity,
  });
  return {
    call: {
      dialect: 'responses',
      route: RESPONSES_ROUTE,
      address: req.model,
      messages: [...systems, ...rest],
      tools,
      ...(toolChoice ? { toolChoice } : {}),
      temperature: req.temperature ?? undefined,
      maxTokens: req.max_output_tokens ?? undefined,
      ...(generation ? { generation, formatField: 'text.format' } : {}),
      requestHash: hashRequest(body),
      conversationId,
    },
    stream: req.stream === true,
    echo: echoOf(req),
  };
}

function echoOf(req: ResponsesRequest): ResponseEcho {
  return {
    instructions: req.instructions ?? null,
    max_output_tokens: req.max_output_tokens ?? null,
    parallel_tool_calls: req.parallel_tool_calls ?? true,
    temperature: req.temperature ?? null,
    top_p: req.top_p ?? null,
    text: { format: (req.text?.format as Record<string, unknown> | undefined) ?? { type: 'text' } },
    tool_choice: req.tool_choice ?? 'auto',
    tools: req.tools ?? [],
    metadata: req.metadata ?? {},
    user: req.user ?? null,
  };
}

function toChatMessages(items: ResponsesInputItem[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  items.forEach((item, index) => {
    switch (item.type) {
      case 'message': {
        const role = item.role === 'developer' ? 'system' : item.role;
        out.push({ role, content: partsText(item.content) });
        return;
      }
      case 'function_call': {
        const call = { id: item.call_id, name: item.name, arguments: item.arguments };
        const last = out.at(-1);
        if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
        else out.push({ role: 'assistant', content: '', toolCalls: [call] });
        return;
      }
      case 'function_call_output':
        out.push({ role: 'tool', content: partsText(item.output), toolCallId: item.call_id });
        return;
      case 'item_reference':
        throw errors.validation(
          `input[${index}]`,
          'item_reference is not supported: this gateway stores no responses. Send the item itself (with the AI SDK: providerOptions.openai.store = false)',
        );
      case 'reasoning':
        return;
    }
  });
  return out;
}

/** A string, or content parts: text parts by their text, a refusal part by its refusal. */
const partsText = (content: string | ResponsesText[]): string =>
  textOf(typeof content === 'string' ? content : content.map((p) => ({ text: p.type === 'refusal' ? p.refusal : p.text })));

const token = (): string => randomText(12);
export const responseId = (): string => `resp_${token()}`;

type OutputItem = Record<string, unknown>;

const messageItem = (id: string, text: string, status: 'in_progress' | 'completed'): OutputItem => ({
  id,
  type: 'message',
  status,
  role: 'assistant',
  content: status === 'completed' ? [outputText(text)] : [],
});

const outputText = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });

const functionCallItem = (id: string, c: GatewayAnswer['toolCalls'][number], status: 'in_progress' | 'completed'): OutputItem => ({
  id,
  type: 'function_call',
  status,
  call_id: c.id,
  name: c.name,
  arguments: status === 'completed' ? c.arguments : '',
});

const usageOf = (a: Pick<GatewayAnswer, 'usage'>) => ({
  input_tokens: a.usage.promptTokens,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: a.usage.completionTokens,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: a.usage.totalTokens,
});

interface ResponseHead {
  id: string;
  createdAt: number;
  model: string;
  echo: ResponseEcho;
}

/** A `response` object; `answer` absent while it is in progress. */
function responseObject(head: ResponseHead, output: OutputItem[], answer?: GatewayAnswer): Record<string, unknown> {
  const truncated = answer?.finishReason === 'length';
  return {
    id: head.id,
    object: 'response',
    created_at: head.createdAt,
    status: !answer ? 'in_progress' : truncated ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: truncated ? { reason: 'max_output_tokens' } : null,
    model: answer?.model ?? head.model,
    output,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    truncation: 'disabled',
    usage: answer ? usageOf(answer) : null,
    ...head.echo,
  };
}

/** The output items of an answer: its text as one message (unless it only calls tools), then one `function_call` per tool call. */
function outputItems(answer: GatewayAnswer, messageId = `msg_${token()}`): OutputItem[] {
  const items: OutputItem[] = [];
  if (answer.content || answer.toolCalls.length === 0) items.push(messageItem(messageId, answer.content, 'completed'));
  for (const c of answer.toolCalls) items.push(functionCallItem(`fc_${token()}`, c, 'completed'));
  return items;
}

/** A `response` object for a plain call (the SDKs compute `output_text` from `output` themselves). */
export function responsesResponse(answer: GatewayAnswer, head: Omit<ResponseHead, 'model'>): Record<string, unknown> {
  return responseObject({ ...head, model: answer.model }, outputItems(answer), answer);
}

/**
 * The named events of a streamed response, each with its `sequence_number`: `response.created` and
 * `response.in_progress`; at the first text, the message item and its `output_text` part
 * (`response.output_item.added`, `response.content_part.added`), then `response.output_text.delta`
 * per piece; at the end `response.output_text.done`, `response.content_part.done`,
 * `response.output_item.done`, one `function_call` item per tool call (added, its arguments as one
 * `response.function_call_arguments.delta`, `.done`, item done), then `response.completed` (or
 * `response.incomplete` when cut at `max_output_tokens`) with the whole response. A failure after
 * the stream opened is an `error` event, then `response.failed`.
 */
export class ResponsesStream {
  private seq = 0;
  private readonly head: ResponseHead;
  private readonly messageId = `msg_${token()}`;
  private messageOpen = false;
  private text = '';
  private itemIdJson?: string;

  constructor(prepared: PreparedCall, createdAt: number, echo: ResponseEcho) {
    this.head = { id: responseId(), createdAt, model: prepared.model, echo };
  }

  private event(type: string, data: Record<string, unknown>): SseFrame {
    return { event: type, data: { type, sequence_number: this.seq++, ...data } };
  }

  start(): SseFrame[] {
    const response = responseObject(this.head, []);
    return [this.event('response.created', { response }), this.event('response.in_progress', { response })];
  }

  private openMessage(): SseFrame[] {
    if (this.messageOpen) return [];
    this.messageOpen = true;
    return [
      this.event('response.output_item.added', { output_index: 0, item: messageItem(this.messageId, '', 'in_progress') }),
      this.event('response.content_part.added', {
        item_id: this.messageId,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      }),
    ];
  }

  /**
   * A text delta, written directly: the bytes `this.event('response.output_text.delta', { item_id,
   * output_index: 0, content_index: 0, delta, logprobs: [] })` serialises to (issue 28: per-chunk work;
   * test/gateway/stream-frames.test.ts). The item's events, when this delta opens it, take their numbers first.
   */
  delta(text: string): SseFrame[] {
    this.text += text;
    const opened = this.openMessage();
    const frame: SseFrame = {
      event: 'response.output_text.delta',
      json: `{"type":"response.output_text.delta","sequence_number":${this.seq++},"item_id":${(this.itemIdJson ??= JSON.stringify(this.messageId))},"output_index":0,"content_index":0,"delta":${JSON.stringify(text)},"logprobs":[]}`,
    };
    return opened.length === 0 ? [frame] : [...opened, frame];
  }

  /** `delta(text)` as wire text. */
  deltaText(text: string): string {
    const frames = this.delta(text);
    return frames.length === 1 ? sseText(frames[0]!) : frames.map(sseText).join('');
  }

  finish(answer: GatewayAnswer): SseFrame[] {
    const frames: SseFrame[] = [];
    if (!this.messageOpen && answer.toolCalls.length === 0) frames.push(...this.openMessage());
    const output: OutputItem[] = [];
    if (this.messageOpen) {
      const done = messageItem(this.messageId, this.text, 'completed');
      frames.push(
        this.event('response.output_text.done', { item_id: this.messageId, output_index: 0, content_index: 0, text: this.text, logprobs: [] }),
        this.event('response.content_part.done', { item_id: this.messageId, output_index: 0, content_index: 0, part: outputText(this.text) }),
        this.event('response.output_item.done', { output_index: 0, item: done }),
      );
      output.push(done);
    }
    for (const c of answer.toolCalls) {
      const id = `fc_${token()}`;
      const output_index = output.length;
      const done = functionCallItem(id, c, 'completed');
      frames.push(
        this.event('response.output_item.added', { output_index, item: functionCallItem(id, c, 'in_progress') }),
        this.event('response.function_call_arguments.delta', { item_id: id, output_index, delta: c.arguments }),
        this.event('response.function_call_arguments.done', { item_id: id, output_index, name: c.name, arguments: c.arguments }),
        this.event('response.output_item.done', { output_index, item: done }),
      );
      output.push(done);
    }
    const response = responseObject(this.head, output, answer);
    frames.push(this.event(answer.finishReason === 'length' ? 'response.incomplete' : 'response.completed', { response }));
    return frames;
  }

  /** A failure after the stream opened: the `error` event (OpenAI's code, message, param), then `response.failed`. */
  error(e: DomainError): SseFrame[] {
    const { error } = openaiBody(e) as { error: { code: string | null; message: string; param: string | null } };
    const response = { ...responseObject(this.head, []), status: 'failed', error: { code: error.code ?? 'server_error', message: error.message } };
    return [
      this.event('error', { code: error.code, message: error.message, param: error.param }),
      this.event('response.failed', { response }),
    ];
  }
}
