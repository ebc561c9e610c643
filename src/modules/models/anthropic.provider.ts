import Anthropic from '@anthropic-ai/sdk';
import { finishOf, toAnthropicPrompt, toAnthropicTools, toolCallOf } from './anthropic-messages.js';
import { AnthropicMessagesWire } from './anthropic-messages-wire.js';
import { extractJsonObject, withJsonInstruction } from './json-output.js';
import { conformingJson } from './structured-output.js';
import {
  usageOf,
  ProviderError,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResult,
  type ModelClass,
  type ModelProvider,
  type StreamEvent,
  type ThinkingOption,
  type ToolCall,
} from './provider.js';
import { abortedError, toProviderError } from './provider-failure.js';
import { sdkFetch } from './sdk-fetch.js';
import { countMessageTokensAsync } from './tokenizer.js';

type CreateParams = Anthropic.Messages.MessageCreateParamsNonStreaming;
type Message = Anthropic.Messages.Message;
type RawEvent = Anthropic.Messages.RawMessageStreamEvent;
type Thinking = Anthropic.Messages.ThinkingConfigParam;
type Effort = NonNullable<Anthropic.Messages.OutputConfig['effort']>;

/** How a call reaches the server: the official SDK, or undici directly (the gateway's forwarding path). */
interface Transport {
  complete(params: CreateParams, signal?: AbortSignal): Promise<Message>;
  /** The events of a streamed call; leaving the loop early ends the call, and so does `cancel`. */
  stream(params: CreateParams, signal?: AbortSignal): Promise<{ events: AsyncIterable<RawEvent>; cancel(): void }>;
}

/** The Messages API requires a ceiling; used when the caller sets none. */
const DEFAULT_MAX_TOKENS = 4096;

export interface AnthropicOptions {
  /** Provider name in the registry; default `anthropic`. */
  name?: string;
  model: string;
  modelClass: ModelClass;
  apiKey: string;
  /** Server root without `/v1`; default the Anthropic API. */
  baseURL?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * Claude through the Messages API. JSON mode is an instruction in the system prompt, and the
 * object is cut out of the answer afterwards (no assistant prefill). `temperature` is not sent:
 * the API version this SDK speaks (2026-10-21) no longer takes sampling parameters.
 */
export class AnthropicProvider implements ModelProvider {
  readonly name: string;
  readonly model: string;
  readonly modelClass: ModelClass;
  readonly local = false;
  readonly supportsTools = true;
  /**
   * The same model reached over undici directly (`POST {baseURL}/v1/messages`), one keep-alive pool for
   * this provider: for calls that forward a request already validated (the gateway). Chat, debates and
   * the planner keep the official SDK (its retries with backoff and its types).
   */
  readonly forwarding: ModelProvider;
  private readonly sdk: Transport;

  constructor(options: AnthropicOptions) {
    this.name = options.name ?? 'anthropic';
    this.model = options.model;
    this.modelClass = options.modelClass;
    const baseURL = options.baseURL ?? 'https://api.anthropic.com';
    const maxRetries = options.maxRetries ?? 1;
    const timeoutMs = options.timeoutMs ?? 60_000;
    // The SDK's own retries, timeouts and errors, over one keep-alive undici dispatcher of this provider's.
    const client = new Anthropic({ apiKey: options.apiKey, baseURL, maxRetries, timeout: timeoutMs, fetch: sdkFetch().fetch });
    this.sdk = {
      complete: (params, signal) => client.messages.create(params, { signal }),
      stream: async (params, signal) => {
        const stream = await client.messages.create({ ...params, stream: true }, { signal });
        return { events: stream, cancel: () => stream.controller.abort() };
      },
    };
    const wire = new AnthropicMessagesWire({ name: this.name, baseURL, apiKey: options.apiKey, timeoutMs, maxRetries });
    const direct: Transport = {
      complete: (params, signal) => wire.complete(JSON.stringify(params), signal),
      stream: async (params, signal) => {
        const events = wire.stream(JSON.stringify({ ...params, stream: true }), signal);
        return { events, cancel: () => void events.return(undefined) };
      },
    };
    this.forwarding = {
      name: this.name,
      model: this.model,
      modelClass: this.modelClass,
      local: false,
      supportsTools: this.supportsTools,
      complete: (req) => this.completeVia(direct, req),
      stream: (req) => this.streamVia(direct, req),
      countTokens: (messages) => this.countTokens(messages),
    };
  }

  /** Local estimate (o200k); Claude's own tokenizer differs by a few percent. */
  countTokens(messages: ChatMessage[]): Promise<number> {
    return countMessageTokensAsync(messages);
  }

  complete(req: CompletionRequest): Promise<CompletionResult> {
    return this.completeVia(this.sdk, req);
  }

  stream(req: CompletionRequest): AsyncGenerator<StreamEvent> {
    return this.streamVia(this.sdk, req);
  }

  private async completeVia(transport: Transport, req: CompletionRequest): Promise<CompletionResult> {
    let answer: CompletionResult;
    try {
      const res = await transport.complete(this.params(req), req.signal);
      let text = '';
      const toolCalls: ToolCall[] = [];
      for (const block of res.content) {
        if (block.type === 'text') text += block.text;
        else if (block.type === 'tool_use') toolCalls.push(toolCallOf(block.id, block.name, block.input));
      }
      answer = {
        content: text,
        toolCalls,
        usage: usageOf(res.usage.input_tokens, res.usage.output_tokens),
        finishReason: finishOf(res.stop_reason, toolCalls),
        model: res.model || this.model,
      };
    } catch (err) {
      throw toProviderError(this.name, err, req.signal);
    }
    return { ...answer, content: finalContent(req, answer.content, answer.toolCalls) };
  }

  private async *streamVia(transport: Transport, req: CompletionRequest): AsyncGenerator<StreamEvent> {
    const stream = await transport.stream(this.params(req), req.signal).catch((err: unknown) => {
      throw toProviderError(this.name, err, req.signal);
    });
    const uses = new Map<number, { id: string; name: string; input: unknown; json: string }>();
    let text = '';
    let inputTokens = 0;
    let outputTokens = 0;
    let stop: string | null = null;
    let model = this.model;
    let drained = false;
    try {
      for await (const event of stream.events) {
        switch (event.type) {
          case 'message_start':
            model = event.message.model || model;
            inputTokens = event.message.usage.input_tokens;
            outputTokens = event.message.usage.output_tokens;
            break;
          case 'content_block_start':
            if (event.content_block.type === 'tool_use') {
              const { id, name, input } = event.content_block;
              uses.set(event.index, { id, name, input, json: '' });
            }
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta') {
              text += event.delta.text;
              yield { type: 'delta', text: event.delta.text };
            } else if (event.delta.type === 'input_json_delta') {
              const use = uses.get(event.index);
              if (use) use.json += event.delta.partial_json;
            }
            break;
          case 'message_delta':
            stop = event.delta.stop_reason ?? stop;
            outputTokens = event.usage.output_tokens;
            if (event.usage.input_tokens != null) inputTokens = event.usage.input_tokens;
            break;
        }
      }
      drained = true;
    } catch (err) {
      throw toProviderError(this.name, err, req.signal);
    } finally {
      if (!drained) stream.cancel();
    }
    // The SDK ends an aborted stream quietly, as if the answer were complete.
    if (req.signal?.aborted) throw abortedError(this.name, req.signal);
    if (stop === null) throw new ProviderError(`${this.name} stream ended before the answer finished`, { provider: this.name });
    const toolCalls = [...uses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, u]) => toolCallOf(u.id, u.name, u.json || u.input));
    yield {
      type: 'done',
      result: {
        content: finalContent(req, text, toolCalls),
        toolCalls,
        usage: usageOf(inputTokens, outputTokens),
        finishReason: finishOf(stop, toolCalls),
        model,
      },
    };
  }

  private params(req: CompletionRequest): CreateParams {
    const format = req.responseFormat;
    // JSON mode has no native form here: an instruction, then the object cut out of the answer.
    const jsonMode = req.json || format?.type === 'json_object';
    const { system, messages } = toAnthropicPrompt(jsonMode ? withJsonInstruction(req.messages, true) : req.messages);
    const params: CreateParams = { model: this.model, max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS, messages };
    if (system) params.system = system;
    // A schema is Anthropic's structured output: the answer is JSON valid against it.
    if (format?.type === 'json_schema') params.output_config = { format: { type: 'json_schema', schema: format.schema } };
    if (req.outputEffort !== undefined) params.output_config = { ...params.output_config, effort: req.outputEffort as Effort };
    if (req.stop?.length) params.stop_sequences = req.stop;
    if (req.user !== undefined) params.metadata = { user_id: req.user };
    const thinking = req.thinking ? thinkingAsSent(req.thinking) : req.reasoningEffort !== undefined ? thinkingForEffort(req.reasoningEffort, params.max_tokens) : undefined;
    if (thinking) params.thinking = thinking;
    if (req.tools?.length) {
      params.tools = toAnthropicTools(req.tools);
      const choice = req.toolChoice;
      // OpenAI's `parallel_tool_calls: false` is Anthropic's `disable_parallel_tool_use`.
      const serial = req.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
      if (choice === 'required') params.tool_choice = { type: 'any', ...serial };
      else if (choice && choice !== 'auto') params.tool_choice = { type: 'tool', name: choice.name, ...serial };
      else if (req.parallelToolCalls === false) params.tool_choice = { type: 'auto', ...serial };
    }
    return params;
  }
}

/** The caller's own `thinking` (Anthropic dialect), its type and fields as sent: the API decides on a type it does not know. */
function thinkingAsSent(t: ThinkingOption): Thinking {
  return {
    type: t.type,
    ...(t.budgetTokens !== undefined ? { budget_tokens: t.budgetTokens } : {}),
    ...(t.display !== undefined ? { display: t.display } : {}),
  } as Thinking;
}

/** Thinking budgets for the OpenAI efforts below `xhigh`, capped below `max_tokens`. */
const EFFORT_BUDGETS: Record<string, number> = { minimal: 1024, low: 2048, medium: 8192, high: 16_384 };
const MIN_THINKING_BUDGET = 1024;

/**
 * An OpenAI reasoning effort as Anthropic thinking (docs/gateway.md, "Request fields"): `none` turns
 * thinking off; `minimal` to `high` enable it with the budget above, `xhigh` and `max` with the largest
 * budget allowed (`max_tokens - 1`: the budget must stay below `max_tokens`), never over that. With no
 * room for the API's minimum budget (1024 tokens) or an effort this table does not know, no thinking
 * setting is sent (the model's default applies).
 */
export function thinkingForEffort(effort: string, maxTokens: number): Thinking | undefined {
  if (effort === 'none') return { type: 'disabled' };
  const largest = maxTokens - 1;
  if (largest < MIN_THINKING_BUDGET) return undefined;
  const budget = effort === 'xhigh' || effort === 'max' ? largest : EFFORT_BUDGETS[effort];
  return budget === undefined ? undefined : { type: 'enabled', budget_tokens: Math.min(budget, largest) };
}

/** JSON mode: the object cut out of the answer; a requested format: the answer validated against it (tool calls aside). */
function finalContent(req: CompletionRequest, text: string, toolCalls: ToolCall[]): string {
  if (req.responseFormat && toolCalls.length === 0) return conformingJson(text, req.responseFormat);
  return req.json ? extractJsonObject(text) : text;
}

