import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboundPools, safeFetch, type Resolver, type SafeFetchOptions } from '../../src/net/index.js';

interface Listening {
  port: number;
  /** Connections accepted, by local address, and how many are still open. */
  accepted: string[];
  open(): number;
  close(): Promise<void>;
}

const servers: Listening[] = [];
const pools: OutboundPools[] = [];

/** One handler answering 200 on 127.0.0.1, 127.0.0.2 and 127.0.0.3 at one port. */
async function listenOnLoopbacks(): Promise<Listening> {
  const accepted: string[] = [];
  let open = 0;
  const all: Server[] = [];
  let port = 0;
  for (const host of ['127.0.0.1', '127.0.0.2', '127.0.0.3']) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(String(req.socket.localAddress)));
    });
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket) => {
      accepted.push(socket.localAddress ?? '');
      open += 1;
      socket.once('close', () => (open -= 1));
    });
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    port = (server.address() as AddressInfo).port;
    all.push(server);
  }
  const listening: Listening = {
    port,
    accepted,
    open: () => open,
    close: () =>
      Promise.all(all.map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve()))))).then(() => undefined),
  };
  servers.push(listening);
  return listening;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function setUp(opts: ConstructorParameters<typeof OutboundPools>[0], now?: () => number) {
  const p = new OutboundPools(opts, now);
  pools.push(p);
  let answer = '127.0.0.1';
  const resolve: Resolver = async () => [{ address: answer, family: 4 }];
  const fetchOpts = (): SafeFetchOptions => ({ deployment: 'onprem', timeoutMs: 2000, maxResponseBytes: 1024, resolve, pools: p, method: 'POST', body: 'x' });
  return { pools: p, point: (address: string) => (answer = address), fetchOpts };
}

describe('OutboundPools', () => {
  it('reuses a connection per (origin, checked address), keeps the Host header and never resolves twice per call', async () => {
    const server = await listenOnLoopbacks();
    const lookups: string[] = [];
    // One connection per pool: the calls queue on it instead of racing its release.
    const p = new OutboundPools({ connectionsPerPool: 1 });
    pools.push(p);
    const resolve: Resolver = async (name) => {
      lookups.push(name);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    for (let i = 0; i < 3; i++) {
      const res = await safeFetch(`http://receiver.test:${server.port}/hook`, { deployment: 'onprem', timeoutMs: 2000, maxResponseBytes: 1024, resolve, pools: p });
      expect(res).toMatchObject({ status: 200, body: '127.0.0.1', address: '127.0.0.1' });
    }
    expect(lookups).toEqual(['receiver.test', 'receiver.test', 'receiver.test']);
    expect(server.accepted).toEqual(['127.0.0.1']);
    expect(p.size).toBe(1);
  });

  it('holds at most maxPools pools: the least recently used one is closed with its connections', async () => {
    const server = await listenOnLoopbacks();
    const { pools: p, point, fetchOpts } = setUp({ maxPools: 2 });
    const url = `http://moving.test:${server.port}/`;
    for (const address of ['127.0.0.1', '127.0.0.2']) {
      point(address);
      await safeFetch(url.replace('moving.test', `n${address.at(-1)}.test`), fetchOpts());
    }
    expect(p.size).toBe(2);
    point('127.0.0.3');
    await safeFetch(url.replace('moving.test', 'n3.test'), fetchOpts());
    expect(p.size).toBe(2);
    expect(p.addressesOf(`http://n1.test:${server.port}`)).toEqual([]);
    expect(p.addressesOf(`http://n3.test:${server.port}`)).toEqual(['127.0.0.3']);
    await expect.poll(() => server.open()).toBe(2);
  });

  it('a new answer for a name gets its own pool and closes the pool of the address no longer answered', async () => {
    const server = await listenOnLoopbacks();
    const { pools: p, point, fetchOpts } = setUp({});
    const url = `http://moving.test:${server.port}/`;
    expect((await safeFetch(url, fetchOpts())).body).toBe('127.0.0.1');
    point('127.0.0.2');
    expect((await safeFetch(url, fetchOpts())).body).toBe('127.0.0.2');
    expect(p.addressesOf(`http://moving.test:${server.port}`)).toEqual(['127.0.0.2']);
    expect(server.accepted).toEqual(['127.0.0.1', '127.0.0.2']);
    await expect.poll(() => server.open()).toBe(1);
  });

  it('closes pools left idle for idleMs', async () => {
    const server = await listenOnLoopbacks();
    let now = 0;
    const { pools: p, fetchOpts } = setUp({ idleMs: 30_000 }, () => now);
    await safeFetch(`http://idle.test:${server.port}/`, fetchOpts());
    now = 29_999;
    p.sweepIdle();
    expect(p.size).toBe(1);
    now = 30_000;
    p.sweepIdle();
    expect(p.size).toBe(0);
    await expect.poll(() => server.open()).toBe(0);
  });

  it('close() destroys every pool; no socket stays open', async () => {
    const server = await listenOnLoopbacks();
    const { pools: p, fetchOpts } = setUp({});
    await safeFetch(`http://closing.test:${server.port}/`, fetchOpts());
    expect(server.open()).toBe(1);
    await p.close();
    await expect.poll(() => server.open()).toBe(0);
    await expect(safeFetch(`http://closing.test:${server.port}/`, fetchOpts())).rejects.toThrow();
  });
});
