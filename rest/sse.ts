import type { Response } from 'express';
import { unnamed } from '../src/lib/unnamed.js';

/** Starts a repeating timer and returns its stop function; injectable so tests need not wait 15 s. */
export type Repeat = (fn: () => void, everyMs: number) => () => void;

export const realRepeat: Repeat = (fn, everyMs) => {
  const timer = setInterval(fn, everyMs);
  timer.unref();
  return () => clearInterval(timer);
};

export interface SseOptions {
  /** Interval of the keep-alive (SPEC: 15 s; `SVC_STREAM_PING_MS`). */
  pingMs: number;
  /** The keep-alive as written on the wire; default the comment `: ping` (the Anthropic dialect sends an event). */
  ping?: string;
  /** Response headers sent with the stream's (a certificate id...). */
  headers?: Record<string, string>;
  /**
   * The headers leave with the stream's first write (a text, the first keep-alive, the end) instead of at once:
   * one socket write fewer (issue 28). A slow model's client still sees the stream open within `pingMs`.
   */
  headWithFirstWrite?: boolean;
  repeat?: Repeat;
}

export interface SseStream {
  /** Writes `data: <json>` and a blank line; ignored once the stream is closed. */
  send(data: unknown): void;
  /** Writes a comment line (`: ping`). */
  comment(text: string): void;
  /** Writes text already in SSE form (named events of the gateway dialects), after what is held. */
  write(chunk: string): void;
  /** Keeps text in SSE form to leave with the next write (a keep-alive's included) or the end. */
  hold(chunk: string): void;
  /** Ends the response (idempotent), with what is held and `last` in the same chunk. */
  end(last?: string): void;
  /** The client is gone or the stream was ended. */
  readonly closed: boolean;
}

/**
 * Opens a Server-Sent Events response (STACK-NOTES: no-transform, no proxy buffering, headers
 * flushed at once so the client sees the stream open) with a keep-alive comment every `pingMs`.
 * The headers leave at the end of the current tick, with what the caller writes in it (a dialect's
 * first event): one socket write instead of two (issue 28: a streamed gateway call's socket writes were
 * a fifth of its CPU, the headers' own about 4 %).
 */
export function openSse(res: Response, opts: SseOptions): SseStream {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  if (opts.headers) for (const name in opts.headers) res.setHeader(name, opts.headers[name]!);
  if (!opts.headWithFirstWrite) {
    // The socket, not `res`: a corked response keeps its chunks apart and sends each alone when uncorked.
    const socket = res.socket;
    socket?.cork();
    res.flushHeaders();
    if (socket) process.nextTick(() => socket.uncork());
  }
  return new SseWriter(res, opts);
}

/**
 * The stream `openSse` returns: its methods on the prototype, two closures per stream (the keep-alive's and
 * the close listener), not one per method (issue 28: a streamed gateway call's garbage; tsx names every
 * closure it creates, `__name`, at each creation).
 */
class SseWriter implements SseStream {
  #closed = false;
  #held = '';
  readonly #res: Response;
  readonly #ping: string;
  readonly #stopPing: () => void;
  readonly #finish = unnamed(() => {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopPing();
  });

  constructor(res: Response, opts: SseOptions) {
    this.#res = res;
    this.#ping = opts.ping ?? ': ping\n\n';
    this.#stopPing = (opts.repeat ?? realRepeat)(() => this.write(this.#ping), opts.pingMs);
    res.on('close', this.#finish);
  }

  send(data: unknown): void {
    this.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  // Node sends the headers with the response's first chunk (one socket write) when they have not left yet.
  write(chunk: string): void {
    if (this.#closed || this.#res.writableEnded) return;
    const text = this.#held === '' ? chunk : this.#held + chunk;
    this.#held = '';
    this.#res.write(text);
  }

  hold(chunk: string): void {
    if (!this.#closed) this.#held += chunk;
  }

  end(last = ''): void {
    const wasOpen = !this.#closed;
    this.#finish();
    const text = this.#held + last;
    this.#held = '';
    if (wasOpen && !this.#res.writableEnded) {
      if (text === '') this.#res.end();
      else this.#res.end(text);
    }
  }

  get closed(): boolean {
    return this.#closed;
  }
}
