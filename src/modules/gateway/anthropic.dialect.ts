import type { ChatMessage, ToolDef } from '../models/index.js';
import { hashRequest } from '../proofs/index.js';
import type { GatewayAnswer, GatewayCall, PreparedCall } from './gateway-call.js';
import { countPromptTokens } from './gateway.service.js';
import {
  AnthropicCountTokensRequestSchema,
  AnthropicMessagesRequestSchema,
  type AnthropicCountTokensRequest,
  type AnthropicMessage,
} from './gateway.schemas.js';
import { applyToolChoice, argumentsObject, generationOf, parseWire, requireUserMessage, responseFormatOf, sseText, textOf, type SseFrame } from './wire.js';
import { randomText } from '../../lib/ids.js';

export const MESSAGES_ROUTE = 'POST /v1/messages';
export const COUNT_TOKENS_ROUTE = 'POST /v1/messages/count_tokens';

export interface AnthropicParsed {
  call: GatewayCall;
  stream: boolean;
}

/**
 * Anthropic Messages request → gateway call. `tool_choice: { type: "none" }` withholds the tools from
 * the model (it then cannot call one); `{ type: "any" }` and `{ type: "tool", name }` are forwarded
 * (see `applyToolChoice`).
 */
export function fromAnthropic(body: unknown, conversationId?: string): AnthropicParsed {
  const req = parseWire(AnthropicMessagesRequestSchema, body);
  requireUserMessage(req.messages);
  const call = common(req, body, conversationId);
  const choice = req.tool_choice;
  const { tools, toolChoice } = applyToolChoice(
    choice === undefined ? undefined : choice.type === 'tool' ? { name: choice.name } : choice.type === 'any' ? 'required' : choice.type,
    call.tools,
  );
  const format = req.output_config?.format;
  const thinking = req.thinking;
  const generation = generationOf({
    responseFormat: format ? responseFormatOf({ type: 'json_schema', name: 'output', schema: format.schema }, 'output_config.format') : undefined,
    stop: req.stop_sequences?.length ? req.stop_sequences : undefined,
    topP: req.top_p,
    topK: req.top_k,
    user: req.metadata?.user_id,
    thinking: thinking && {
      type: thinking.type,
      ...(thinking.budget_tokens !== undefined ? { budgetTokens: thinking.budget_tokens } : {}),
      ...(thinking.display != null ? { display: thinking.display } : {}),
    },
    outputEffort: req.output_config?.effort,
  });
  return {
    call: {
      ...call,
      tools,
      ...(toolChoice ? { toolChoice } : {}),
      route: MESSAGES_ROUTE,
      temperature: req.temperature,
      maxTokens: req.max_tokens,
      ...(generation ? { generation, formatField: 'output_config.format' } : {}),
    },
    stream: req.stream === true,
  };
}

/** `count_tokens` takes the same prompt fields, without generation settings. */
export function fromAnthropicCount(body: unknown, conversationId?: string): GatewayCall {
  const req = parseWire(AnthropicCountTokensRequestSchema, body);
  requireUserMessage(req.messages);
  return { ...common(req, body, conversationId), route: COUNT_TOKENS_ROUTE };
}

function common(req: AnthropicCountTokensRequest, body: unknown, conversationId?: string): Omit<GatewayCall, 'route'> {
  const system = textOf(req.system);
  const turns = req.messages.flatMap(toChatMessages);
  const tools: ToolDef[] = (req.tools ?? []).map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parameters: t.input_schema ?? { type: 'object', properties: {} },
  }));
  return {
    dialect: 'anthropic',
    address: req.model,
    // System messages first (the top-level `system`, then any `system` turn), as in every gateway call.
    messages: [...(system ? [{ role: 'system' as const, content: system }] : []), ...turns.filter((m) => m.role === 'system'), ...turns.filter((m) => m.role !== 'system')],
    tools,
    requestHash: hashRequest(body),
    conversationId,
  };
}

/**
 * A user turn may hold tool results (each becomes a `tool` message, first) and text; an assistant turn
 * text and tool uses; a `system` turn (newer SDKs) its text.
 */
function toChatMessages(m: AnthropicMessage): ChatMessage[] {
  if (typeof m.content === 'string') return [{ role: m.role, content: m.content }];
  const texts = textOf(m.content.flatMap((b) => (b.type === 'text' ? [b] : [])));
  if (m.role === 'system') return texts ? [{ role: 'system', content: texts }] : [];
  if (m.role === 'assistant') {
    const toolCalls = m.content.flatMap((b) =>
      b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) }] : [],
    );
    return [{ role: 'assistant', content: texts, ...(toolCalls.length ? { toolCalls } : {}) }];
  }
  const results: ChatMessage[] = m.content.flatMap((b) =>
    b.type === 'tool_result'
      ? [{ role: 'tool' as const, toolCallId: b.tool_use_id, content: (b.is_error ? 'Error: ' : '') + textOf(b.content) }]
      : [],
  );
  const hasText = m.content.some((b) => b.type === 'text');
  return [...results, ...(hasText || results.length === 0 ? [{ role: 'user' as const, content: texts }] : [])];
}

const STOP_REASONS = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' } as const;

export const messageId = (): string => `msg_${randomText(12, 'base64url')}`;

function contentBlocks(answer: GatewayAnswer): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (answer.content || answer.toolCalls.length === 0) blocks.push({ type: 'text', text: answer.content });
  for (const c of answer.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: argumentsObject(c.arguments) });
  return blocks;
}

/** A `message` object. */
export function anthropicMessage(answer: GatewayAnswer): Record<string, unknown> {
  return {
    id: messageId(),
    type: 'message',
    role: 'assistant',
    model: answer.model,
    content: contentBlocks(answer),
    stop_reason: STOP_REASONS[answer.finishReason],
    stop_sequence: null,
    usage: { input_tokens: answer.usage.promptTokens, output_tokens: answer.usage.completionTokens },
  };
}

/**
 * Named events: `message_start` (input tokens as counted here; the provider's figure follows in
 * `message_delta`), a text block opened at the first delta, one block per tool use (its input as a
 * single `input_json_delta`), `message_delta` with the stop reason and usage, `message_stop`.
 */
export class AnthropicStream {
  private readonly id = messageId();
  private textOpen = false;
  private index = 0;

  constructor(private readonly prepared: PreparedCall) {}

  private event(type: string, data: Record<string, unknown>): SseFrame {
    return { event: type, data: { type, ...data } };
  }

  async start(): Promise<SseFrame[]> {
    const inputTokens = await countPromptTokens(this.prepared.call);
    return [
      this.event('message_start', {
        message: {
          id: this.id,
          type: 'message',
          role: 'assistant',
          model: this.prepared.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: inputTokens, output_tokens: 0 },
        },
      }),
    ];
  }

  private openText(): SseFrame[] {
    if (this.textOpen) return [];
    this.textOpen = true;
    return [this.event('content_block_start', { index: this.index, content_block: { type: 'text', text: '' } })];
  }

  /**
   * A text delta, written directly: the bytes `this.event('content_block_delta', { index, delta: { type:
   * 'text_delta', text } })` serialises to (issue 28: per-chunk work; test/gateway/stream-frames.test.ts).
   */
  delta(text: string): SseFrame[] {
    const frame: SseFrame = {
      event: 'content_block_delta',
      json: `{"type":"content_block_delta","index":${this.index},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}`,
    };
    return this.textOpen ? [frame] : [...this.openText(), frame];
  }

  /** `delta(text)` as wire text, written directly once the text block is open. */
  deltaText(text: string): string {
    if (!this.textOpen) return this.delta(text).map(sseText).join('');
    return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${this.index},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}\n\n`;
  }

  finish(answer: GatewayAnswer): SseFrame[] {
    const frames: SseFrame[] = [];
    if (!this.textOpen && answer.toolCalls.length === 0) frames.push(...this.openText());
    if (this.textOpen) {
      frames.push(this.event('content_block_stop', { index: this.index }));
      this.index++;
    }
    for (const c of answer.toolCalls) {
      const index = this.index++;
      frames.push(
        this.event('content_block_start', { index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } }),
        this.event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(argumentsObject(c.arguments)) } }),
        this.event('content_block_stop', { index }),
      );
    }
    frames.push(
      this.event('message_delta', {
        delta: { stop_reason: STOP_REASONS[answer.finishReason], stop_sequence: null },
        usage: { input_tokens: answer.usage.promptTokens, output_tokens: answer.usage.completionTokens },
      }),
      this.event('message_stop', {}),
    );
    return frames;
  }
}
