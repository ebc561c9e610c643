import type OpenAI from 'openai';
import { Pool } from 'undici';
import { ProviderError } from './provider.js';
import { abortedError } from './provider-failure.js';

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

/** Statuses the official SDK retries; so does this wire. */
const RETRIED = new Set([408, 409, 429]);
const retriedStatus = (status: number) => RETRIED.has(status) || status >= 500;
const CONNECTION_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const codeOf = (err: unknown): string => (err && typeof err === 'object' && 'code' in err ? String(err.code) : '');

/**
 * An OpenAI-compatible `POST /chat/completions` over undici directly, with one keep-alive pool per
 * provider: the gateway's forwarding path (issue 28), which sends a request it has already validated and
 * needs neither the official SDK's types nor its fetch and web-streams stack. The request body is
 * serialised once; the answer is parsed once (a JSON object, or the stream's `data:` lines as they
 * arrive). Failures are ProviderErrors as the SDK path words them: `HTTP <status>`, `timed out`,
 * `aborted` when the caller's signal ended the call.
 */
export class ChatCompletionsWire {
  readonly #pool: Pool;
  readonly #path: string;
  readonly #headers: Record<string, string>;

  constructor(private readonly opts: ChatCompletionsWireOptions) {
    const root = new URL(opts.baseURL.endsWith('/') ? opts.baseURL : `${opts.baseURL}/`);
    const target = new URL('chat/completions', root);
    this.#path = target.pathname + target.search;
    this.#headers = { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${opts.apiKey}` };
    this.#pool = new Pool(target.origin, {
      pipelining: 1,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
  }

  async complete(body: string, signal?: AbortSignal): Promise<Completion> {
    const res = await this.#send(body, signal);
    try {
      return (await res.body.json()) as Completion;
    } catch (err) {
      throw this.#failure(err, signal);
    }
  }

  /** The stream's chunks as they arrive; leaving the loop early closes the answer. */
  async *stream(body: string, signal?: AbortSignal): AsyncGenerator<Chunk> {
    const res = await this.#send(body, signal);
    let pending = '';
    let finished = false;
    try {
      res.body.setEncoding('utf8');
      for await (const piece of res.body as AsyncIterable<string>) {
        pending += piece;
        let end: number;
        while ((end = eventEnd(pending)) >= 0) {
          const event = pending.slice(0, end);
          pending = pending.slice(end).replace(/^(\r?\n){1,2}/, '');
          const data = dataOf(event);
          if (data === undefined) continue;
          if (data === '[DONE]') {
            finished = true;
            continue;
          }
          const chunk = JSON.parse(data) as Chunk & { error?: { message?: string } };
          if (chunk.error) throw new ProviderError(`${this.opts.name} model call failed: ${chunk.error.message ?? 'error event'}`, { provider: this.opts.name });
          yield chunk;
        }
      }
      finished = true;
    } catch (err) {
      throw this.#failure(err, signal);
    } finally {
      if (!finished) res.body.destroy();
    }
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  /** Sends the call (retried at once while nothing was answered), then checks the status. */
  async #send(body: string, signal?: AbortSignal) {
    for (let attempt = 0; ; attempt++) {
      const retry = attempt < this.opts.maxRetries;
      let res;
      try {
        res = await this.#pool.request({ path: this.#path, method: 'POST', headers: this.#headers, body, signal });
      } catch (err) {
        if (retry && !signal?.aborted && CONNECTION_ERRORS.has(codeOf(err))) continue;
        throw this.#failure(err, signal);
      }
      if (res.statusCode < 400) return res;
      const detail = await res.body.text().catch(() => '');
      if (retry && retriedStatus(res.statusCode)) continue;
      throw new ProviderError(`${this.opts.name} model call HTTP ${res.statusCode}: ${messageOf(detail)}`, { provider: this.opts.name, status: res.statusCode });
    }
  }

  #failure(err: unknown, signal?: AbortSignal): ProviderError {
    if (err instanceof ProviderError) return err;
    if (signal?.aborted) return abortedError(this.opts.name, signal);
    const name = this.opts.name;
    const what = TIMEOUTS.has(codeOf(err)) ? 'timed out' : 'failed';
    return new ProviderError(`${name} model call ${what}: ${err instanceof Error ? err.message : String(err)}`, { provider: name, cause: err });
  }
}

/** Index of the blank line ending the first complete event, or -1. */
function eventEnd(text: string): number {
  const lf = text.indexOf('\n\n');
  const crlf = text.indexOf('\r\n\r\n');
  if (lf < 0) return crlf;
  return crlf < 0 ? lf : Math.min(lf, crlf);
}

/** The `data:` lines of one event joined, or undefined for an event without data (a comment, a ping). */
function dataOf(event: string): string | undefined {
  let data: string | undefined;
  for (const line of event.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line[5] === ' ' ? 6 : 5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}

/** The error message of an OpenAI-style error body, else the body's start. */
function messageOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 200) || 'no body';
}
