import { Client, errors, type Dispatcher } from 'undici';
import { OutboundUrlError, validateOutboundUrl, type Deployment, type Resolver } from './address-policy.js';
import { pinnedLookup, type OutboundPools } from './outbound-pools.js';

export type OutboundRequestErrorKind = 'refused' | 'timeout' | 'connection';

/** A failed outbound call; the message names the host, never internal details, and may be logged for the user. */
export class OutboundRequestError extends Error {
  override readonly name = 'OutboundRequestError';
  constructor(
    readonly kind: OutboundRequestErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Deadline for the whole call: resolution, connect, headers and body. */
  timeoutMs: number;
  maxResponseBytes: number;
  deployment: Deployment;
  resolve?: Resolver;
  signal?: AbortSignal;
  /**
   * Keep-alive connections per (origin, checked address) (webhook deliveries). Without it, one client per
   * call, destroyed before returning: no socket outlives the call.
   */
  pools?: OutboundPools;
}

export interface SafeFetchResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
  /** The checked address the connection went to. */
  address: string;
  durationMs: number;
}

/**
 * Validates the URL again (DNS may have changed since it was registered), then connects to exactly
 * the address that passed, so a second lookup cannot rebind the name. Redirects are never followed.
 * Without `pools`, one client per call, destroyed before returning: no socket outlives the call. With
 * `pools`, the request goes through the keep-alive pool of (origin, the address that passed now): a
 * connection is only reused for an address the current call has checked.
 */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<SafeFetchResponse> {
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), opts.timeoutMs);
  // The caller's signal often lives long (a worker's): one listener for the call, removed at its end,
  // rather than an AbortSignal.any that would leave a dependent signal behind on it per call.
  const outer = opts.signal;
  const call = new AbortController();
  const onDeadline = () => call.abort(deadline.signal.reason);
  const onOuter = () => call.abort(outer?.reason);
  deadline.signal.addEventListener('abort', onDeadline, { once: true });
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  const signal = call.signal;
  let client: Client | undefined;
  try {
    const { url, addresses } = await untilAborted(validateOutboundUrl(rawUrl, opts), signal);
    const target = addresses[0]!;
    let dispatcher: Dispatcher;
    if (opts.pools) {
      dispatcher = opts.pools.pool(url, target, addresses, opts.timeoutMs);
    } else {
      client = new Client(url.origin, {
        connect: { lookup: pinnedLookup(target) },
        connectTimeout: opts.timeoutMs,
      });
      dispatcher = client;
    }
    const response = await dispatcher.request({
      path: url.pathname + url.search,
      method: opts.method ?? 'GET',
      headers: opts.headers,
      body: opts.body,
      signal,
    });
    const { body, truncated } = await readLimited(response.body, opts.maxResponseBytes);
    // undici hands the connection back to its pool on the next turn of the event loop: a caller that
    // sends again at once (with no I/O in between) would otherwise find it busy and open another one.
    if (opts.pools) await new Promise<void>((resolve) => setImmediate(resolve));
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      body,
      truncated,
      address: target.address,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    // A malformed method or header is the caller's bug, not the receiver's failure.
    if (err instanceof errors.InvalidArgumentError) throw err;
    throw toRequestError(err, hostOf(rawUrl), opts, deadline.signal.aborted);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
    await client?.destroy().catch(() => undefined);
  }
}

/** The resolver cannot be cancelled, so the deadline stops waiting for it instead. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function readLimited(
  stream: AsyncIterable<Buffer>,
  maxBytes: number,
): Promise<{ body: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream, so the rest of an oversized body is never read.
  for await (const chunk of stream) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      return { body: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function hostOf(rawUrl: string): string {
  return URL.parse(rawUrl)?.host || 'the URL';
}

function toRequestError(
  err: unknown,
  host: string,
  opts: SafeFetchOptions,
  deadlinePassed: boolean,
): OutboundRequestError {
  if (err instanceof OutboundUrlError) return new OutboundRequestError('refused', err.reason, { cause: err });
  if (opts.signal?.aborted) return new OutboundRequestError('connection', `request to ${host} was aborted`, { cause: err });
  const undiciTimeout =
    err instanceof errors.ConnectTimeoutError ||
    err instanceof errors.HeadersTimeoutError ||
    err instanceof errors.BodyTimeoutError;
  if (deadlinePassed || undiciTimeout) {
    return new OutboundRequestError('timeout', `request to ${host} timed out after ${opts.timeoutMs} ms`, { cause: err });
  }
  const code = (err as { code?: unknown } | null)?.code;
  const detail = typeof code === 'string' ? ` (${code})` : '';
  return new OutboundRequestError('connection', `connection to ${host} failed${detail}`, { cause: err });
}
