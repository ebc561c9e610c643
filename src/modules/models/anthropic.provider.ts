import Anthropic from '@anthropic-ai/sdk';
import { finishOf, toAnthropicPrompt, toAnthropicTools, toolCallOf } from './anthropic-messages.js';
import { extractJsonObject, withJsonInstruction } from './json-output.js';
import {
  usageOf,
  ProviderError,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResult,
  type ModelClass,
  type ModelProvider,
  type StreamEvent,
  type ToolCall,
} from './provider.js';
import { abortedError, toProviderError } from './provider-failure.js';
import { countMessageTokensAsync } from './tokenizer.js';

type CreateParams = Anthropic.Messages.MessageCreateParamsNonStreaming;

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
  private readonly client: Anthropic;

  constructor(options: AnthropicOptions) {
    this.name = options.name ?? 'anthropic';
    this.model = options.model;
    this.modelClass = options.modelClass;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseURL ?? 'https://api.anthropic.com',
      maxRetries: options.maxRetries ?? 1,
      timeout: options.timeoutMs ?? 60_000,
    });
  }

  /** Local estimate (o200k); Claude's own tokenizer differs by a few percent. */
  countTokens(messages: ChatMessage[]): Promise<number> {
    return countMessageTokensAsync(messages);
  }

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    try {
      const res = await this.client.messages.create(this.params(req), { signal: req.signal });
      let text = '';
      const toolCalls: ToolCall[] = [];
      for (const block of res.content) {
        if (block.type === 'text') text += block.text;
        else if (block.type === 'tool_use') toolCalls.push(toolCallOf(block.id, block.name, block.input));
      }
      return {
        content: req.json ? extractJsonObject(text) : text,
        toolCalls,
        usage: usageOf(res.usage.input_tokens, res.usage.output_tokens),
        finishReason: finishOf(res.stop_reason, toolCalls),
        model: res.model || this.model,
      };
    } catch (err) {
      throw toProviderError(this.name, err, req.signal);
    }
  }

  async *stream(req: CompletionRequest): AsyncGenerator<StreamEvent> {
    const stream = await this.client.messages
      .create({ ...this.params(req), stream: true }, { signal: req.signal })
      .catch((err: unknown) => {
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
      for await (const event of stream) {
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
      if (!drained) stream.controller.abort();
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
        content: req.json ? extractJsonObject(text) : text,
        toolCalls,
        usage: usageOf(inputTokens, outputTokens),
        finishReason: finishOf(stop, toolCalls),
        model,
      },
    };
  }

  private params(req: CompletionRequest): CreateParams {
    const { system, messages } = toAnthropicPrompt(req.json ? withJsonInstruction(req.messages, true) : req.messages);
    const params: CreateParams = { model: this.model, max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS, messages };
    if (system) params.system = system;
    if (req.tools?.length) {
      params.tools = toAnthropicTools(req.tools);
      const choice = req.toolChoice;
      if (choice === 'required') params.tool_choice = { type: 'any' };
      else if (choice && choice !== 'auto') params.tool_choice = { type: 'tool', name: choice.name };
    }
    return params;
  }
}
