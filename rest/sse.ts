import type { Response } from 'express';

/** Starts a repeating timer and returns its stop function; injectable so tests need not wait 15 s. */
export type Repeat = (fn: () => void, everyMs: number) => () => void;

export const realRepeat: Repeat = (fn, everyMs) => {
  const timer = setInterval(fn, everyMs);
  timer.unref();
  return () => clearInterval(timer);
};

export interface SseOptions {
  /** Interval of the `: ping` keep-alive comment (SPEC: 15 s). */
  pingMs: number;
  repeat?: Repeat;
}

export interface SseStream {
  /** Writes `data: <json>` and a blank line; ignored once the stream is closed. */
  send(data: unknown): void;
  /** Writes a comment line (`: ping`). */
  comment(text: string): void;
  /** Ends the response (idempotent). */
  end(): void;
  /** The client is gone or the stream was ended. */
  readonly closed: boolean;
}

/**
 * Opens a Server-Sent Events response (STACK-NOTES: no-transform, no proxy buffering, headers
 * flushed at once so the client sees the stream open) with a keep-alive comment every `pingMs`.
 */
export function openSse(res: Response, opts: SseOptions): SseStream {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  let closed = false;
  const stopPing = (opts.repeat ?? realRepeat)(() => write(': ping\n\n'), opts.pingMs);
  const finish = () => {
    if (closed) return;
    closed = true;
    stopPing();
  };
  res.on('close', finish);
  function write(chunk: string): void {
    if (!closed && !res.writableEnded) res.write(chunk);
  }
  return {
    send: (data) => write(`data: ${JSON.stringify(data)}\n\n`),
    comment: (text) => write(`: ${text}\n\n`),
    end: () => {
      const wasOpen = !closed;
      finish();
      if (wasOpen && !res.writableEnded) res.end();
    },
    get closed() {
      return closed;
    },
  };
}
