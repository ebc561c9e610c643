import type { Readable } from 'node:stream';
import { Pool } from 'undici';
import { ProviderError } from './provider.js';
import { abortedError } from './provider-failure.js';
import { unnamed } from '../../lib/unnamed.js';

export interface ForwardingWireOptions {
  /** Provider name, for errors. */
  name: string;
  /** The endpoint every call posts to. */
  url: URL;
  /** Sent with every call (content type, credentials, API version). */
  headers: Record<string, string>;
  /** Longest wait for the answer's headers, and between two pieces of its body. */
  timeoutMs: number;
  /** Retries of a call refused before any answer (connection failure, 408, 409, 429, 5xx), at once. */
  maxRetries: number;
}

/**
 * Reads one server-sent event of a stream: what to yield, or undefined to skip it (a keep-alive, an end
 * marker). Throws a ProviderError for an error event.
 */
export type SseDecoder<T> = (data: string, event: string | undefined) => T | undefined;

/** Statuses the official SDKs retry; so does this wire. */
const RETRIED = new Set([408, 409, 429]);
const retriedStatus = (status: number) => RETRIED.has(status) || status >= 500;
const CONNECTION_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const codeOf = (err: unknown): string => (err && typeof err === 'object' && 'code' in err ? String(err.code) : '');

/**
 * A JSON `POST` over undici directly, with one keep-alive pool per provider: the gateway's forwarding path
 * (issue 28), which sends a request it has already validated and needs neither an official SDK's types nor
 * its fetch and web-streams stack. The request body is serialised once by the caller; the answer is parsed
 * once (a JSON object, or the stream's events as they arrive). Failures are ProviderErrors as the SDK paths
 * word them: `HTTP <status>`, `timed out`, `aborted` when the caller's signal ended the call. The dialects
 * (chat-completions-wire.ts, anthropic-messages-wire.ts) add the endpoint, the headers and what an event means.
 */
export class ForwardingWire {
  readonly #pool: Pool;
  readonly #path: string;

  constructor(private readonly opts: ForwardingWireOptions) {
    this.#path = opts.url.pathname + opts.url.search;
    this.#pool = new Pool(opts.url.origin, {
      pipelining: 1,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
  }

  async complete<T>(body: string, signal?: AbortSignal): Promise<T> {
    const res = await this.#send(body, signal);
    try {
      return (await res.body.json()) as T;
    } catch (err) {
      throw this.#failure(err, signal);
    }
  }

  /** The stream's events, decoded, as they arrive; leaving the loop early closes the answer. */
  async *stream<T>(body: string, decode: SseDecoder<T>, signal?: AbortSignal): AsyncGenerator<T> {
    for await (const batch of this.batches(body, decode, signal)) yield* batch;
  }

  /**
   * The stream's events, decoded, one array per piece of the answer read (what one read brought): a
   * consumer loops over a piece's events without an asynchronous step per event (issue 28: each step of
   * an async generator is a few promises, and a streamed call's events crossed three of them). The
   * events before an error event are given before its failure; leaving the loop early closes the answer.
   */
  async *batches<T>(body: string, decode: SseDecoder<T>, signal?: AbortSignal): AsyncGenerator<T[]> {
    const res = await this.#send(body, signal);
    const events = new SseSplitter();
    const reader = new PieceReader(res.body);
    let finished = false;
    try {
      for (let piece = await reader.next(); piece !== null; piece = await reader.next()) {
        const batch: T[] = [];
        for (const { name, data } of events.push(piece)) {
          let decoded: T | undefined;
          try {
            decoded = decode(data, name);
          } catch (err) {
            if (batch.length > 0) yield batch;
            throw err;
          }
          if (decoded !== undefined) batch.push(decoded);
        }
        if (batch.length > 0) yield batch;
      }
      finished = true;
    } catch (err) {
      throw this.#failure(err, signal);
    } finally {
      reader.release();
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
        res = await this.#pool.request({ path: this.#path, method: 'POST', headers: this.opts.headers, body, signal });
      } catch (err) {
        if (retry && !signal?.aborted && CONNECTION_ERRORS.has(codeOf(err))) continue;
        throw this.#failure(err, signal);
      }
      if (res.statusCode < 400) return res;
      const detail = await res.body.text().catch(() => '');
      if (retry && retriedStatus(res.statusCode)) continue;
      throw new ProviderError(`${this.opts.name} model call HTTP ${res.statusCode}: ${errorMessageOf(detail)}`, { provider: this.opts.name, status: res.statusCode });
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

/**
 * The error Node's own async iterator of a stream raises when it closes before its end, so a cut answer fails as it did
 * through the iterator (a Node stream code, not one of the service's: no client sees it).
 */
const NODE_PREMATURE_CLOSE = 'ERR_STREAM_PREMATURE_CLOSE';
const prematureClose = (): Error => Object.assign(new Error('Premature close'), { code: NODE_PREMATURE_CLOSE });

/**
 * A response body's text as it arrives, one piece per `next()` (all that was buffered when it asks), null at
 * the end; its failure (an abort, a timeout, a reset) is thrown by `next()`. What `for await` over the body
 * gives, without the stream's async iterator (issue 28: the iterator, its end-of-stream watcher and their
 * bound resources were about 2.5 kB of a streamed call's garbage; a `readable` listener and a promise per
 * wait are left).
 */
class PieceReader {
  #wake: (() => void) | undefined;
  #signalled = false;
  #ended = false;
  #failure: unknown;
  readonly #body: Readable;
  // Made per answer read: unnamed, so that tsx's keepNames does not name each (src/lib/unnamed.ts).
  readonly #onReadable = unnamed(() => this.#signal());
  readonly #onEnd = unnamed(() => {
    this.#ended = true;
    this.#signal();
  });
  readonly #onError = unnamed((err: unknown) => {
    this.#failure = err ?? new Error('the answer failed');
    this.#signal();
  });
  /** Closed without its end nor an error (an error comes before its close): the answer was cut. */
  readonly #onClose = unnamed(() => {
    if (!this.#ended && this.#failure === undefined) this.#failure = prematureClose();
    this.#signal();
  });

  constructor(body: Readable) {
    this.#body = body;
    body.setEncoding('utf8');
    body.on('readable', this.#onReadable);
    body.on('end', this.#onEnd);
    body.on('error', this.#onError);
    body.on('close', this.#onClose);
  }

  #signal(): void {
    this.#signalled = true;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async next(): Promise<string | null> {
    for (;;) {
      if (this.#failure !== undefined) throw this.#failure;
      this.#signalled = false;
      const piece = this.#body.read() as string | null;
      if (piece !== null) return piece;
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#ended || this.#body.readableEnded) return null;
      // Wait for the next piece, the end or a failure, unless one came since `read()` above.
      if (!this.#signalled) await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** Takes the listeners off the body (a destroyed body's late `error` is then unhandled: one is kept). */
  release(): void {
    this.#body.off('readable', this.#onReadable);
    this.#body.off('end', this.#onEnd);
    this.#body.off('close', this.#onClose);
    this.#wake = undefined;
  }
}

/**
 * The message of an error body in either dialect (OpenAI `{ error: { message } }`, Anthropic
 * `{ type: "error", error: { type, message } }`), else the text's start.
 */
export function errorMessageOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 200) || 'no body';
}

/**
 * A stream's text cut into its events as the pieces arrive, the incomplete rest kept for the next piece. The
 * events of a piece are read at a moving offset and the rest kept once per piece (cutting the text after
 * every event copied what followed it each time: issue 28, a streamed call's garbage).
 */
export class SseSplitter {
  #pending = '';

  /** The events the text so far completes, in order: each one's name and its `data:` lines joined (comments left out). */
  push(piece: string): { name: string | undefined; data: string }[] {
    const text = this.#pending + piece;
    const events: { name: string | undefined; data: string }[] = [];
    let at = 0;
    let end: number;
    while ((end = eventEnd(text, at)) >= 0) {
      const fields = fieldsOf(text.slice(at, end));
      at = afterBlankLine(text, end);
      if (fields.data !== undefined) events.push(fields as { name: string | undefined; data: string });
    }
    this.#pending = at > 0 ? text.slice(at) : text;
    return events;
  }
}

/** Index of the blank line ending the first complete event from `from` on, or -1. */
function eventEnd(text: string, from: number): number {
  const lf = text.indexOf('\n\n', from);
  const crlf = text.indexOf('\r\n\r\n', from);
  if (lf < 0) return crlf;
  return crlf < 0 ? lf : Math.min(lf, crlf);
}

/** Where the next event starts: past one or two line ends at `end` (what `^(\r?\n){1,2}` matched). */
function afterBlankLine(text: string, end: number): number {
  let at = end;
  for (let n = 0; n < 2; n++) {
    if (text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10) at += 2;
    else if (text.charCodeAt(at) === 10) at += 1;
    else break;
  }
  return at;
}

const NO_FIELDS = { name: undefined, data: undefined };

/** The event's name and its `data:` lines joined; data is undefined for an event without any (a comment). */
function fieldsOf(event: string): { name: string | undefined; data: string | undefined } {
  // The usual event, one `data:` line and nothing else, read without splitting it into lines.
  if (event.startsWith('data:') && !event.includes('\n')) return { name: undefined, data: event.slice(event[5] === ' ' ? 6 : 5) };
  if (event === '') return NO_FIELDS;
  let name: string | undefined;
  let data: string | undefined;
  for (const line of event.split(/\r?\n/)) {
    if (line.startsWith('event:')) name = line.slice(line[6] === ' ' ? 7 : 6);
    else if (line.startsWith('data:')) {
      const value = line.slice(line[5] === ' ' ? 6 : 5);
      data = data === undefined ? value : `${data}\n${value}`;
    }
  }
  return { name, data };
}
