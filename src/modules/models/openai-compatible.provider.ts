import OpenAI from 'openai';
import { ChatCompletionsWire } from './chat-completions-wire.js';
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
  type ToolCall,
  type TokenUsage,
} from './provider.js';
import { abortedError, toProviderError } from './provider-failure.js';
import { sdkFetch } from './sdk-fetch.js';
import { countMessageTokensAsync, countTextTokensAsync } from './tokenizer.js';

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type ChunkToolCall = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall;
type FinishReason = OpenAI.Chat.Completions.ChatCompletion.Choice['finish_reason'] | null;
type Completion = OpenAI.Chat.Completions.ChatCompletion;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** How a call reaches the server: the official SDK, or undici directly (the gateway's forwarding path). */
interface Transport {
  complete(params: CreateParams, signal?: AbortSignal): Promise<Completion>;
  /** The chunks of a streamed call, one by one or an array per piece read (undici); leaving the loop early ends the call. */
  stream(params: CreateParams, signal?: AbortSignal): Promise<AsyncIterable<Chunk | Chunk[]>>;
}

const streamed = (params: CreateParams) => ({ ...params, stream: true as const, stream_options: { include_usage: true } });

export interface OpenAICompatibleOptions {
  /** Provider name in the registry; default `openai`. */
  name?: string;
  model: string;
  modelClass: ModelClass;
  /** Server root including `/v1`; default the OpenAI API. */
  baseURL?: string;
  /** Local OpenAI-compatible servers often need none; a placeholder is sent then. */
  apiKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
  supportsTools?: boolean;
}

/** Any server speaking OpenAI's chat completions: OpenAI itself, vLLM, Ollama, LiteLLM, Mistral... */
export class OpenAICompatibleProvider implements ModelProvider {
  readonly name: string;
  readonly model: string;
  readonly modelClass: ModelClass;
  readonly local = false;
  readonly supportsTools: boolean;
  /**
   * The same model reached over undici directly, one keep-alive pool for this provider: for calls
   * that forward a request already validated (the gateway). Chat, debates and the planner keep the
   * official SDK (its retries with backoff and its types).
   */
  readonly forwarding: ModelProvider;
  private readonly sdk: Transport;

  constructor(options: OpenAICompatibleOptions) {
    this.name = options.name ?? 'openai';
    this.model = options.model;
    this.modelClass = options.modelClass;
    this.supportsTools = options.supportsTools ?? true;
    const baseURL = options.baseURL ?? 'https://api.openai.com/v1';
    const apiKey = options.apiKey || 'not-needed';
    const maxRetries = options.maxRetries ?? 1;
    const timeoutMs = options.timeoutMs ?? 60_000;
    // The SDK's own retries, timeouts and errors, over one keep-alive undici dispatcher of this provider's.
    const client = new OpenAI({ baseURL, apiKey, maxRetries, timeout: timeoutMs, fetch: sdkFetch().fetch });
    this.sdk = {
      complete: (params, signal) => client.chat.completions.create(params, { signal }),
      stream: (params, signal) => client.chat.completions.create(streamed(params), { signal }),
    };
    const wire = new ChatCompletionsWire({ name: this.name, baseURL, apiKey, timeoutMs, maxRetries });
    const direct: Transport = {
      complete: (params, signal) => wire.complete(JSON.stringify(params), signal),
      stream: async (params, signal) => wire.batches(JSON.stringify(streamed(params)), signal),
    };
    this.forwarding = {
      name: this.name,
      model: this.model,
      modelClass: this.modelClass,
      local: false,
      supportsTools: this.supportsTools,
      complete: (req) => this.completeVia(direct, req),
      stream: (req) => eachOf(this.batchesVia(direct, req)),
      streamBatches: (req) => this.batchesVia(direct, req),
      countTokens: (messages) => this.countTokens(messages),
    };
  }

  countTokens(messages: ChatMessage[]): Promise<number> {
    return countMessageTokensAsync(messages);
  }

  complete(req: CompletionRequest): Promise<CompletionResult> {
    return this.completeVia(this.sdk, req);
  }

  stream(req: CompletionRequest): AsyncGenerator<StreamEvent> {
    return eachOf(this.batchesVia(this.sdk, req));
  }

  streamBatches(req: CompletionRequest): AsyncGenerator<StreamEvent[]> {
    return this.batchesVia(this.sdk, req);
  }

  private async completeVia(transport: Transport, req: CompletionRequest): Promise<CompletionResult> {
    let answer: CompletionResult;
    try {
      const res = await transport.complete(this.params(req), req.signal);
      const choice = res.choices[0];
      if (!choice) throw new ProviderError(`${this.name} returned no choices`, { provider: this.name });
      const toolCalls = (choice.message.tool_calls ?? []).flatMap((c): ToolCall[] =>
        c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
      );
      const raw = choice.message.content ?? '';
      const usage = res.usage
        ? usageOf(res.usage.prompt_tokens, res.usage.completion_tokens)
        : await this.estimateUsage(req, raw, toolCalls);
      answer = { content: raw, toolCalls, usage, finishReason: finishOf(choice.finish_reason, toolCalls), model: res.model || this.model };
    } catch (err) {
      throw toProviderError(this.name, err, req.signal);
    }
    return { ...answer, content: this.finalContent(req, answer.content, answer.toolCalls) };
  }

  /**
   * The answer's events, one array per piece the transport gives (a read of the body on the forwarding path,
   * one chunk on the SDK's): the text deltas of that piece, then, at the end, `done` with the result.
   */
  private async *batchesVia(transport: Transport, req: CompletionRequest): AsyncGenerator<StreamEvent[]> {
    const stream = await transport.stream(this.params(req), req.signal).catch((err: unknown) => {
      throw toProviderError(this.name, err, req.signal);
    });
    // Made by the first tool-call fragment: most answers have none.
    let calls: Map<number, ToolCall> | undefined;
    let content = '';
    let finish: FinishReason = null;
    let usage: TokenUsage | undefined;
    let model = this.model;
    try {
      // Leaving this loop early (the caller stopped, a failure) ends the call in both transports.
      for await (const piece of stream) {
        let deltas: StreamEvent[] | undefined;
        const chunks = Array.isArray(piece) ? piece : [piece];
        for (let i = 0; i < chunks.length; i++) {
          const chunk = chunks[i]!;
          if (chunk.model) model = chunk.model;
          if (chunk.usage) usage = usageOf(chunk.usage.prompt_tokens, chunk.usage.completion_tokens);
          const choice = chunk.choices[0];
          if (!choice) continue;
          if (choice.finish_reason) finish = choice.finish_reason;
          const delta = choice.delta;
          if (delta?.tool_calls) for (const fragment of delta.tool_calls) addToolCallFragment((calls ??= new Map()), fragment);
          const text = delta?.content;
          if (text) {
            content += text;
            (deltas ??= []).push({ type: 'delta', text });
          }
        }
        if (deltas) yield deltas;
      }
    } catch (err) {
      throw toProviderError(this.name, err, req.signal);
    }
    // The SDK ends an aborted stream quietly, as if the answer were complete.
    if (req.signal?.aborted) throw abortedError(this.name, req.signal);
    if (finish === null) throw new ProviderError(`${this.name} stream ended before the answer finished`, { provider: this.name });
    const toolCalls = calls ? [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call) : [];
    const final = this.finalContent(req, content, toolCalls);
    yield [
      {
        type: 'done',
        result: {
          content: final,
          toolCalls,
          usage: usage ?? (await this.estimateUsage(req, final, toolCalls)),
          finishReason: finishOf(finish, toolCalls),
          model,
        },
      },
    ];
  }

  private params(req: CompletionRequest): CreateParams {
    const messages = req.json ? withJsonInstruction(req.messages) : req.messages;
    const params: CreateParams = { model: this.model, messages: messages.map(toOpenAIMessage) };
    if (req.tools?.length && this.supportsTools) {
      params.tools = req.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
      const choice = req.toolChoice;
      if (choice === 'required') params.tool_choice = 'required';
      else if (choice && choice !== 'auto') params.tool_choice = { type: 'function', function: { name: choice.name } };
    }
    if (req.json) params.response_format = { type: 'json_object' };
    const format = req.responseFormat;
    if (format?.type === 'json_object') params.response_format = { type: 'json_object' };
    else if (format?.type === 'json_schema') {
      params.response_format = {
        type: 'json_schema',
        json_schema: {
          name: format.name,
          schema: format.schema,
          ...(format.strict !== undefined ? { strict: format.strict } : {}),
          ...(format.description !== undefined ? { description: format.description } : {}),
        },
      };
    }
    if (req.temperature !== undefined) params.temperature = req.temperature;
    if (req.maxTokens !== undefined) params.max_tokens = req.maxTokens;
    // Generation settings OpenAI's chat completions take; `top_k` and `thinking` have no equivalent there.
    if (req.stop?.length) params.stop = req.stop;
    if (req.seed !== undefined) params.seed = req.seed;
    if (req.topP !== undefined) params.top_p = req.topP;
    if (req.user !== undefined) params.user = req.user;
    // Efforts and verbosities go as sent, whatever the value: the server decides on one it does not know.
    const effort = req.reasoningEffort ?? req.outputEffort;
    if (effort !== undefined) params.reasoning_effort = effort as CreateParams['reasoning_effort'];
    if (req.verbosity !== undefined) params.verbosity = req.verbosity as CreateParams['verbosity'];
    if (req.parallelToolCalls !== undefined && params.tools) params.parallel_tool_calls = req.parallelToolCalls;
    return params;
  }

  /** JSON mode: the object cut out of the answer; a requested format: the answer validated against it (tool calls aside). */
  private finalContent(req: CompletionRequest, content: string, toolCalls: ToolCall[]): string {
    if (req.responseFormat && toolCalls.length === 0) return conformingJson(content, req.responseFormat);
    return req.json ? extractJsonObject(content) : content;
  }

  /** Only for servers that report no usage: our own count of what was sent and received. */
  private async estimateUsage(req: CompletionRequest, content: string, toolCalls: ToolCall[]): Promise<TokenUsage> {
    const completion = await countMessageTokensAsync([{ role: 'assistant', content, toolCalls }]);
    return usageOf(await countMessageTokensAsync(req.messages), completion);
  }
}

/** A batched stream's events one by one (`ModelProvider.stream` over `streamBatches`). */
async function* eachOf(batches: AsyncIterable<StreamEvent[]>): AsyncGenerator<StreamEvent> {
  for await (const batch of batches) yield* batch;
}

function toOpenAIMessage(m: ChatMessage): MessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      return m.name ? { role: 'user', content: m.content, name: m.name } : { role: 'user', content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
    case 'assistant':
      if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      };
  }
}

/** Streamed tool calls arrive in fragments keyed by index: id and name first, then argument pieces. */
function addToolCallFragment(calls: Map<number, ToolCall>, fragment: ChunkToolCall): void {
  const call = calls.get(fragment.index) ?? { id: '', name: '', arguments: '' };
  if (fragment.id) call.id = fragment.id;
  if (fragment.function?.name) call.name += fragment.function.name;
  if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
  calls.set(fragment.index, call);
}

function finishOf(reason: FinishReason, toolCalls: ToolCall[]): CompletionResult['finishReason'] {
  if (toolCalls.length > 0) return 'tool_calls';
  return reason === 'length' ? 'length' : 'stop';
}
