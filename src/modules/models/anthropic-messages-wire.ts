import type Anthropic from '@anthropic-ai/sdk';
import { ProviderError } from './provider.js';
import { errorMessageOf, ForwardingWire } from './forwarding-wire.js';

type Message = Anthropic.Messages.Message;
type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;

/** The Messages API version the installed SDK speaks (its `anthropic-version` header): both paths send the same. */
export const ANTHROPIC_VERSION = '2026-10-21';

export interface AnthropicMessagesWireOptions {
  /** Provider name, for errors. */
  name: string;
  /** Server root without `/v1`. */
  baseURL: string;
  apiKey: string;
  /** Longest wait for the answer's headers, and between two pieces of its body. */
  timeoutMs: number;
  /** Retries of a call refused before any answer (connection failure, 408, 409, 429, 5xx), at once. */
  maxRetries: number;
}

/**
 * Anthropic's `POST /v1/messages` on the gateway's forwarding path (forwarding-wire.ts). A stream's events
 * are named (message_start, content_block_start/delta/stop, message_delta, message_stop, ping, error);
 * an `error` event fails the call as the SDK does.
 */
export class AnthropicMessagesWire {
  readonly #wire: ForwardingWire;
  readonly #decode: (data: string, event: string | undefined) => StreamEvent | undefined;

  constructor(opts: AnthropicMessagesWireOptions) {
    const root = new URL(opts.baseURL.endsWith('/') ? opts.baseURL : `${opts.baseURL}/`);
    this.#wire = new ForwardingWire({
      name: opts.name,
      url: new URL('v1/messages', root),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-api-key': opts.apiKey,
        'anthropic-version': ANTHROPIC_VERSION,
      },
      timeoutMs: opts.timeoutMs,
      maxRetries: opts.maxRetries,
    });
    this.#decode = (data, event) => {
      // As the SDK reads a stream: unnamed events, pings and events without data are skipped.
      if (event === undefined || event === 'ping') return undefined;
      if (event === 'error') throw new ProviderError(`${opts.name} model call failed: ${errorMessageOf(data)}`, { provider: opts.name });
      return data ? (JSON.parse(data) as StreamEvent) : undefined;
    };
  }

  complete(body: string, signal?: AbortSignal): Promise<Message> {
    return this.#wire.complete<Message>(body, signal);
  }

  /** The stream's events as they arrive (pings skipped); leaving the loop early closes the answer. */
  stream(body: string, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    return this.#wire.stream(body, this.#decode, signal);
  }

  close(): Promise<void> {
    return this.#wire.close();
  }
}
