import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  OutboundRequestError,
  safeFetch,
  validateOutboundUrl,
  type Resolver,
  type SafeFetchOptions,
} from '../../src/net/index.js';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  received: Received[];
  openSockets(): number;
  close(): Promise<void>;
}

const servers: TestServer[] = [];

/** A loopback server that records each request, then lets `handler` answer (or not). */
async function startServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<TestServer> {
  const received: Received[] = [];
  let open = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    handler(req, res);
  });
  server.on('connection', (socket) => {
    open += 1;
    socket.on('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const testServer: TestServer = {
    port: (server.address() as AddressInfo).port,
    received,
    openSockets: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(testServer);
  return testServer;
}

afterEach(async () => {
  // safeFetch must not leave a socket open once it has returned or thrown.
  for (const server of servers) await vi.waitFor(() => expect(server.openSockets()).toBe(0));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const onprem = { deployment: 'onprem', timeoutMs: 2_000, maxResponseBytes: 64 * 1024 } satisfies SafeFetchOptions;

async function failure(rawUrl: string, opts: SafeFetchOptions): Promise<OutboundRequestError> {
  const error = await safeFetch(rawUrl, opts).catch((err: unknown) => err);
  expect(error).toBeInstanceOf(OutboundRequestError);
  return error as OutboundRequestError;
}

describe('safeFetch', () => {
  it('returns status, headers and body of a 200', async () => {
    const server = await startServer((_req, res) => res.writeHead(200, { 'x-reply': 'yes' }).end('hello'));
    const res = await safeFetch(`http://127.0.0.1:${server.port}/ok?a=1`, onprem);
    expect(res).toMatchObject({ status: 200, body: 'hello', truncated: false, address: '127.0.0.1' });
    expect(res.headers['x-reply']).toBe('yes');
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.received[0].path).toBe('/ok?a=1');
  });

  it('sends the method, headers and body it is given', async () => {
    const server = await startServer((_req, res) => res.end());
    await safeFetch(`http://127.0.0.1:${server.port}/hook`, {
      ...onprem,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-event': 'webhook.test' },
      body: '{"ok":true}',
    });
    expect(server.received[0]).toMatchObject({
      method: 'POST',
      body: '{"ok":true}',
      headers: { 'content-type': 'application/json', 'x-svc-event': 'webhook.test' },
    });
  });

  it('returns a 500 as a response', async () => {
    const server = await startServer((_req, res) => res.writeHead(500).end('boom'));
    const res = await safeFetch(`http://127.0.0.1:${server.port}/`, onprem);
    expect(res).toMatchObject({ status: 500, body: 'boom' });
  });

  it('does not follow a redirect', async () => {
    const target = await startServer((_req, res) => res.end('should not be reached'));
    const server = await startServer((_req, res) =>
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/next` }).end(),
    );
    const res = await safeFetch(`http://127.0.0.1:${server.port}/`, onprem);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`http://127.0.0.1:${target.port}/next`);
    expect(target.received).toHaveLength(0);
  });

  it('times out when the server never answers', async () => {
    const server = await startServer(() => undefined);
    const error = await failure(`http://127.0.0.1:${server.port}/`, { ...onprem, timeoutMs: 200 });
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(`request to 127.0.0.1:${server.port} timed out after 200 ms`);
  });

  it('times out when the body stalls after the headers', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const error = await failure(`http://127.0.0.1:${server.port}/`, { ...onprem, timeoutMs: 200 });
    expect(error.kind).toBe('timeout');
  });

  it('counts name resolution against the deadline', async () => {
    const hangs: Resolver = () => new Promise(() => undefined);
    const error = await failure('http://slow-dns.test/', { ...onprem, timeoutMs: 100, resolve: hangs });
    expect(error.kind).toBe('timeout');
  });

  it('reports a socket destroyed by the server as a connection error', async () => {
    const server = await startServer((req) => req.socket.destroy());
    const error = await failure(`http://127.0.0.1:${server.port}/`, onprem);
    expect(error.kind).toBe('connection');
    expect(error.message).toMatch(`connection to 127.0.0.1:${server.port} failed`);
  });

  it('reports a refused connection as a connection error', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const error = await failure(`http://127.0.0.1:${closed.port}/`, onprem);
    expect(error).toMatchObject({ kind: 'connection', message: `connection to 127.0.0.1:${closed.port} failed (ECONNREFUSED)` });
  });

  it('reports a caller abort as a connection error', async () => {
    const server = await startServer(() => undefined);
    const error = await failure(`http://127.0.0.1:${server.port}/`, { ...onprem, signal: AbortSignal.abort() });
    expect(error).toMatchObject({ kind: 'connection', message: `request to 127.0.0.1:${server.port} was aborted` });
  });

  it('truncates a body larger than maxResponseBytes', async () => {
    const server = await startServer((_req, res) => res.end('a'.repeat(256 * 1024)));
    const res = await safeFetch(`http://127.0.0.1:${server.port}/`, { ...onprem, maxResponseBytes: 1000 });
    expect(res.truncated).toBe(true);
    expect(res.body).toBe('a'.repeat(1000));
  });

  it('does not mark a body of exactly maxResponseBytes as truncated', async () => {
    const server = await startServer((_req, res) => res.end('b'.repeat(1000)));
    const res = await safeFetch(`http://127.0.0.1:${server.port}/`, { ...onprem, maxResponseBytes: 1000 });
    expect(res).toMatchObject({ truncated: false, body: 'b'.repeat(1000) });
  });

  it('reaches an IPv6 literal on-prem', async () => {
    const server = await startServer((_req, res) => res.end('v6'), '::1');
    const res = await safeFetch(`http://[::1]:${server.port}/`, onprem);
    expect(res).toMatchObject({ status: 200, body: 'v6', address: '::1' });
  });

  it('refuses a loopback URL in cloud without connecting', async () => {
    const server = await startServer((_req, res) => res.end());
    const error = await failure(`http://127.0.0.1:${server.port}/`, { ...onprem, deployment: 'cloud' });
    expect(error).toMatchObject({ kind: 'refused', message: 'address 127.0.0.1 is a loopback address' });
    expect(server.received).toHaveLength(0);
  });
});

describe('safeFetch and DNS', () => {
  it('re-resolves at fetch time and refuses a name rebound to loopback', async () => {
    const server = await startServer((_req, res) => res.end());
    const answers = ['93.184.215.14', '127.0.0.1'];
    const rebinding: Resolver = vi.fn(async () => [{ address: answers.shift() ?? '127.0.0.1', family: 4 as const }]);
    const url = `http://rebind.example.com:${server.port}/`;

    await expect(validateOutboundUrl(url, { deployment: 'cloud', resolve: rebinding })).resolves.toBeDefined();
    const error = await failure(url, { ...onprem, deployment: 'cloud', resolve: rebinding });

    expect(error).toMatchObject({ kind: 'refused', message: 'address 127.0.0.1 is a loopback address' });
    expect(rebinding).toHaveBeenCalledTimes(2);
    expect(server.received).toHaveLength(0);
  });

  it('connects to the checked address without a second lookup, keeping the original Host', async () => {
    const server = await startServer((_req, res) => res.end('pinned'));
    const resolve: Resolver = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
    const res = await safeFetch(`http://receiver.test:${server.port}/hook`, { ...onprem, resolve });

    expect(res).toMatchObject({ status: 200, body: 'pinned', address: '127.0.0.1' });
    expect(server.received[0].headers.host).toBe(`receiver.test:${server.port}`);
    expect(resolve).toHaveBeenCalledTimes(1);
  });
});
