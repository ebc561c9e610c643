import type { ChatMessage } from '../models/index.js';
import { hashRequest } from '../proofs/index.js';
import type { GatewayAnswer, GatewayCall, PreparedCall } from './gateway-call.js';
import { OpenAIChatRequestSchema, type OpenAIContentPart, type OpenAIMessage } from './gateway.schemas.js';
import { applyToolChoice, generationOf, parseWire, requireUserMessage, responseFormatOf, stopList, textOf, type SseFrame } from './wire.js';
import { randomText } from '../../lib/ids.js';

export const OPENAI_ROUTE = 'POST /v1/chat/completions';

export interface OpenAIParsed {
  call: GatewayCall;
  stream: boolean;
  includeUsage: boolean;
}

/**
 * OpenAI Chat Completions request → gateway call. `developer` counts as `system`. `response_format`,
 * `stop`, `seed`, `top_p`, `parallel_tool_calls`, `user`, `reasoning_effort` and `verbosity` ride along
 * as the generation settings; `metadata`, `service_tier`, `modalities` and the like are accepted and not
 * forwarded (docs/gateway.md, "Request fields"). `tool_choice: "none"`
 * withholds the tools from the model (it then cannot call one); `"required"` and
 * `{ type: "function", function: { name } }` are forwarded (see `applyToolChoice`).
 */
export function fromOpenAI(body: unknown, conversationId?: string): OpenAIParsed {
  const req = parseWire(OpenAIChatRequestSchema, body);
  requireUserMessage(req.messages);
  const messages = toChatMessages(req.messages);
  const systems = messages.filter((m) => m.role === 'system');
  const rest = messages.filter((m) => m.role !== 'system');
  // The deprecated `functions` / `function_call` stand for `tools` / `tool_choice` when those are absent.
  const functions = req.tools?.map((t) => t.function) ?? req.functions ?? [];
  const choice = req.tool_choice;
  const legacy = req.tools ? undefined : req.function_call;
  const { tools, toolChoice } = applyToolChoice(
    choice != null
      ? typeof choice === 'string'
        ? choice
        : choice.type === 'allowed_tools'
          ? { allowed: choice.allowed_tools.tools.flatMap((t) => (t.function ? [t.function.name] : [])), mode: choice.allowed_tools.mode }
          : { name: choice.function.name }
      : legacy != null ? (typeof legacy === 'string' ? legacy : { name: legacy.name }) : undefined,
    functions.map((f) => ({
      name: f.name,
      description: f.description ?? '',
      parameters: f.parameters ?? { type: 'object', properties: {} },
    })),
  );
  const rf = req.response_format;
  const generation = generationOf({
    responseFormat: responseFormatOf(rf?.type === 'json_schema' ? { type: rf.type, ...rf.json_schema } : rf, 'response_format'),
    stop: stopList(req.stop),
    seed: req.seed,
    topP: req.top_p,
    parallelToolCalls: req.parallel_tool_calls,
    user: req.user,
    reasoningEffort: req.reasoning_effort,
    verbosity: req.verbosity,
  });
  return {
    call: {
      dialect: 'openai',
      route: OPENAI_ROUTE,
      address: req.model,
      messages: [...systems, ...rest],
      tools,
      ...(toolChoice ? { toolChoice } : {}),
      temperature: req.temperature ?? undefined,
      maxTokens: req.max_completion_tokens ?? req.max_tokens ?? undefined,
      ...(generation ? { generation, formatField: 'response_format' } : {}),
      requestHash: hashRequest(body),
      conversationId,
    },
    stream: req.stream === true,
    includeUsage: req.stream_options?.include_usage === true,
  };
}

/** A string, or content parts: text parts by their text, a refusal part by its refusal. */
const partsText = (content: string | OpenAIContentPart[] | null | undefined): string =>
  textOf(content == null || typeof content === 'string' ? content : content.map((p) => ({ text: p.type === 'refusal' ? p.refusal : p.text })));

/**
 * The messages in order, `developer` as `system`. The deprecated function calling maps onto tool
 * calls: an assistant `function_call` is a tool call with an id of its own (`call_fn_<index>`), and the
 * `function` message that follows, the tool result answering the latest call of that name.
 */
function toChatMessages(messages: OpenAIMessage[]): ChatMessage[] {
  const pending = new Map<string, string>();
  return messages.map((m, index): ChatMessage => {
    switch (m.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: partsText(m.content) };
      case 'user':
        return m.name ? { role: 'user', content: partsText(m.content), name: m.name } : { role: 'user', content: partsText(m.content) };
      case 'tool':
        return { role: 'tool', content: partsText(m.content), toolCallId: m.tool_call_id };
      case 'function': {
        const id = pending.get(m.name) ?? `call_fn_${m.name}`;
        pending.delete(m.name);
        return { role: 'tool', content: partsText(m.content), toolCallId: id };
      }
      case 'assistant': {
        const toolCalls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
        if (m.function_call) {
          const id = `call_fn_${index}`;
          pending.set(m.function_call.name, id);
          toolCalls.push({ id, name: m.function_call.name, arguments: m.function_call.arguments });
        }
        return { role: 'assistant', content: partsText(m.content), ...(toolCalls.length ? { toolCalls } : {}) };
      }
    }
  });
}

const usageOf = (a: Pick<GatewayAnswer, 'usage'>) => ({
  prompt_tokens: a.usage.promptTokens,
  completion_tokens: a.usage.completionTokens,
  total_tokens: a.usage.totalTokens,
});

const toolCallsOf = (a: GatewayAnswer) =>
  a.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));

export const completionId = (): string => `chatcmpl-${randomText(12, 'base64url')}`;

/** A `chat.completion` object. */
export function openAICompletion(answer: GatewayAnswer, created: number): Record<string, unknown> {
  return {
    id: completionId(),
    object: 'chat.completion',
    created,
    model: answer.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.toolCalls.length > 0 && !answer.content ? null : answer.content,
          refusal: null,
          ...(answer.toolCalls.length ? { tool_calls: toolCallsOf(answer) } : {}),
        },
        finish_reason: answer.finishReason,
        logprobs: null,
      },
    ],
    usage: usageOf(answer),
    system_fingerprint: null,
  };
}

/**
 * `chat.completion.chunk` frames: the role first, text deltas as they come, tool calls and the finish
 * reason at the end, then with `stream_options.include_usage` a last chunk with empty `choices` and the
 * usage (earlier chunks carry `usage: null`, as OpenAI does), then `[DONE]`.
 */
export class OpenAIStream {
  private readonly id = completionId();
  private deltaTemplate?: [string, string];
  private deltaTextTemplate?: [string, string];

  constructor(
    private readonly prepared: PreparedCall,
    private readonly created: number,
    private readonly includeUsage: boolean,
  ) {}

  private chunk(choices: unknown[], extra: Record<string, unknown> = {}): SseFrame {
    return {
      data: {
        id: this.id,
        object: 'chat.completion.chunk',
        created: this.created,
        model: this.prepared.model,
        system_fingerprint: null,
        choices,
        ...(this.includeUsage ? { usage: null } : {}),
        ...extra,
      },
    };
  }

  private choice(delta: Record<string, unknown>, finish: string | null = null): SseFrame {
    return this.chunk([{ index: 0, delta, finish_reason: finish, logprobs: null }]);
  }

  start(): SseFrame[] {
    return [this.choice({ role: 'assistant', content: '', refusal: null })];
  }

  /** A text delta: the stream's delta chunk encoded once, each text put in its place (issue 28: per-chunk work). */
  delta(text: string): SseFrame[] {
    const [head, tail] = (this.deltaTemplate ??= this.template());
    return [{ json: head + JSON.stringify(text) + tail }];
  }

  /** `delta(text)` as wire text: `data: `, the chunk, a blank line, from the same template (no frame per delta). */
  deltaText(text: string): string {
    if (!this.deltaTextTemplate) {
      const [head, tail] = (this.deltaTemplate ??= this.template());
      this.deltaTextTemplate = [`data: ${head}`, `${tail}\n\n`];
    }
    const [head, tail] = this.deltaTextTemplate;
    return head + JSON.stringify(text) + tail;
  }

  /**
   * The delta chunk's JSON cut around its content (the last string of the chunk: every field after it is null),
   * written directly: what `JSON.stringify(this.choice({ content }).data)` gives (test/gateway/stream-frames.test.ts).
   */
  private template(): [string, string] {
    return [
      `{"id":${JSON.stringify(this.id)},"object":"chat.completion.chunk","created":${JSON.stringify(this.created)},"model":${JSON.stringify(this.prepared.model)},"system_fingerprint":null,"choices":[{"index":0,"delta":{"content":`,
      `},"finish_reason":null,"logprobs":null}]${this.includeUsage ? ',"usage":null' : ''}}`,
    ];
  }

  finish(answer: GatewayAnswer): SseFrame[] {
    const frames = answer.toolCalls.map((c, index) =>
      this.choice({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }] }),
    );
    frames.push(this.choice({}, answer.finishReason));
    if (this.includeUsage) frames.push(this.chunk([], { usage: usageOf(answer) }));
    frames.push({ data: '[DONE]' });
    return frames;
  }
}
