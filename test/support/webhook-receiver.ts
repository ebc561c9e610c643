import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How the receiver answers a path. */
export type ReceiverBehaviour =
  /** `until`: the answer is held until the test resolves this promise (no race with a fixed delay). */
  | { kind: 'status'; status: number; body?: string; delayMs?: number; until?: Promise<unknown> }
  /** Reads the request and never answers (past any timeout) until the receiver closes. */
  | { kind: 'hang' }
  | { kind: 'redirect'; location: string; status?: number }
  /** Reads the request, then drops the connection without a response. */
  | { kind: 'close' };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  rawBody: Buffer;
  body: string;
  /** `X-Svc-Signature` checked with only the secret registered for the path and the raw body; null when none registered. */
  signatureValid: boolean | null;
  /** `performance.timeOrigin + performance.now()` when the body was fully read. */
  receivedAt: number;
  /** The local address the request came in on (127.0.0.1, or another loopback address the receiver also listens on). */
  localAddress: string;
  /** Which TCP connection carried it (1 for the first connection the receiver accepted, and so on). */
  connection: number;
}

/** A TCP connection the receiver accepted. */
export interface ReceiverConnection {
  id: number;
  localAddress: string;
  open: boolean;
}

/**
 * Verifies `X-Svc-Signature: sha256=<hex>` the way a receiver should: HMAC-SHA256 of the raw bytes keyed
 * with the secret string, compared in constant time.
 */
export function verifySvcSignature(secret: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface WebhookReceiver {
  port: number;
  /** `http://127.0.0.1:<port><path>`. */
  url(path?: string): string;
  readonly requests: ReceivedRequest[];
  requestsTo(path: string): ReceivedRequest[];
  /** Registers the endpoint secret used to check the signature of requests to `path`. */
  secret(path: string, secret: string): void;
  /** Sets the answer for `path`: one behaviour for every request, or a sequence whose last entry repeats. */
  behave(path: string, behaviour: ReceiverBehaviour | ReceiverBehaviour[]): void;
  /** Resolves once `count` requests (to `path` when given) have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, opts?: { path?: string; timeoutMs?: number }): Promise<ReceivedRequest[]>;
  /** Every TCP connection accepted so far (also after `clear`), in order. */
  readonly connections: ReceiverConnection[];
  clear(): void;
  close(): Promise<void>;
}

const OK: ReceiverBehaviour = { kind: 'status', status: 200, body: 'ok' };

/**
 * A real HTTP receiver on loopback that records every request and answers as told per path (default 200).
 * `alsoOn`: more loopback addresses (127.0.0.2...) it listens on at the same port, so that a name whose DNS
 * answer changes still reaches it.
 */
export async function startWebhookReceiver(opts: { alsoOn?: string[] } = {}): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const secrets = new Map<string, string>();
  const behaviours = new Map<string, ReceiverBehaviour[]>();
  const seen = new Map<string, number>();
  const waiters = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  const connections: ReceiverConnection[] = [];
  const connectionOf = new WeakMap<object, ReceiverConnection>();

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return;
    }
    const path = new URL(req.url ?? '/', 'http://receiver').pathname;
    const rawBody = Buffer.concat(chunks);
    const secret = secrets.get(path);
    requests.push({
      method: req.method ?? '',
      path,
      headers: req.headers,
      rawBody,
      body: rawBody.toString('utf8'),
      signatureValid: secret === undefined ? null : verifySvcSignature(secret, rawBody, req.headers['x-svc-signature']),
      receivedAt: performance.timeOrigin + performance.now(),
      localAddress: req.socket.localAddress ?? '',
      connection: connectionOf.get(req.socket)?.id ?? 0,
    });
    for (const wake of waiters) wake();

    const sequence = behaviours.get(path) ?? [OK];
    const index = seen.get(path) ?? 0;
    seen.set(path, index + 1);
    const behaviour = sequence[Math.min(index, sequence.length - 1)] ?? OK;
    switch (behaviour.kind) {
      case 'status': {
        const answer = () => res.writeHead(behaviour.status, { 'content-type': 'text/plain' }).end(behaviour.body ?? '');
        if (behaviour.until) {
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          void behaviour.until.then(() => !res.destroyed && answer());
        } else if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
        else answer();
        break;
      }
      case 'redirect':
        res.writeHead(behaviour.status ?? 302, { location: behaviour.location }).end();
        break;
      case 'close':
        req.socket.destroy();
        break;
      case 'hang':
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        break;
    }
  });
  const track = (socket: Socket) => {
    const connection: ReceiverConnection = { id: connections.length + 1, localAddress: socket.localAddress ?? '', open: true };
    connections.push(connection);
    connectionOf.set(socket, connection);
    socket.once('close', () => (connection.open = false));
  };
  server.on('connection', track);
  // Idle connections stay open for a minute (a keep-alive hint the sender follows), so tests that count
  // connections do not depend on how fast the machine runs.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // The same handler on the other addresses, same port.
  const others = await Promise.all(
    (opts.alsoOn ?? []).map(async (host) => {
      const other = createServer((req, res) => server.emit('request', req, res));
      other.keepAliveTimeout = 60_000;
      other.on('connection', track);
      await new Promise<void>((resolve, reject) => {
        other.once('error', reject);
        other.listen(port, host, resolve);
      });
      return other;
    }),
  );

  const receiver: WebhookReceiver = {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    requests,
    connections,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    secret: (path, secret) => void secrets.set(path, secret),
    behave: (path, behaviour) => {
      behaviours.set(path, Array.isArray(behaviour) ? behaviour : [behaviour]);
      seen.delete(path);
    },
    waitFor(count, opts = {}) {
      const matching = () => (opts.path ? receiver.requestsTo(opts.path) : requests);
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = matching();
          if (found.length < count) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`receiver got ${matching().length} of ${count} requests`));
        }, opts.timeoutMs ?? 5000);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    clear: () => {
      requests.length = 0;
      seen.clear();
    },
    close: () =>
      Promise.all(
        [server, ...others].map(
          (s) =>
            new Promise<void>((resolve) => {
              for (const res of hanging) res.destroy();
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      ).then(() => undefined),
  };
  return receiver;
}
