import type OpenAI from 'openai';
import { ProviderError } from './provider.js';
import { ForwardingWire } from './forwarding-wire.js';

type Completion = OpenAI.Chat.Completions.ChatCompletion;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

export interface ChatCompletionsWireOptions {
  /** Provider name, for errors. */
  name: string;
  /** Server root including `/v1`. */
  baseURL: string;
  apiKey: string;
  /** Longest wait for the answer's headers, and between two pieces of its body. */
  timeoutMs: number;
  /** Retries of a call refused before any answer (connection failure, 408, 409, 429, 5xx), at once. */
  maxRetries: number;
}

/**
 * An OpenAI-compatible `POST /chat/completions` on the gateway's forwarding path (forwarding-wire.ts):
 * the stream's `data:` lines are chunks, `[DONE]` ends it, a chunk carrying `error` fails the call.
 */
export class ChatCompletionsWire {
  readonly #wire: ForwardingWire;
  readonly #decode: (data: string) => Chunk | undefined;

  constructor(opts: ChatCompletionsWireOptions) {
    const root = new URL(opts.baseURL.endsWith('/') ? opts.baseURL : `${opts.baseURL}/`);
    this.#wire = new ForwardingWire({
      name: opts.name,
      url: new URL('chat/completions', root),
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${opts.apiKey}` },
      timeoutMs: opts.timeoutMs,
      maxRetries: opts.maxRetries,
    });
    this.#decode = (data) => {
      if (data === '[DONE]') return undefined;
      const chunk = JSON.parse(data) as Chunk & { error?: { message?: string } };
      if (chunk.error) throw new ProviderError(`${opts.name} model call failed: ${chunk.error.message ?? 'error event'}`, { provider: opts.name });
      return chunk;
    };
  }

  complete(body: string, signal?: AbortSignal): Promise<Completion> {
    return this.#wire.complete<Completion>(body, signal);
  }

  /** The stream's chunks as they arrive; leaving the loop early closes the answer. */
  stream(body: string, signal?: AbortSignal): AsyncGenerator<Chunk> {
    return this.#wire.stream(body, this.#decode, signal);
  }

  /** The stream's chunks, one array per piece of the answer read (ForwardingWire.batches). */
  batches(body: string, signal?: AbortSignal): AsyncGenerator<Chunk[]> {
    return this.#wire.batches(body, this.#decode, signal);
  }

  close(): Promise<void> {
    return this.#wire.close();
  }
}
