import type { AddressInfo, Socket } from 'node:net';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { openSse } from '../../rest/sse.js';

/**
 * rest/sse.ts (issue 28): a stream's headers leave with what is written in the same tick (a dialect's
 * first event), in one socket write, not one for the headers and one for the event.
 */
describe('openSse', () => {
  const writes: string[] = [];
  const app = express();
  app.get('/stream', (_req, res) => {
    const sse = openSse(res, { pingMs: 60_000 });
    sse.write('data: first\n\n');
    setImmediate(() => {
      sse.write('data: second\n\n');
      sse.end();
    });
  });
  const server = app.listen(0, '127.0.0.1');
  server.on('connection', (socket: Socket & { _writev?: unknown }) => {
    // What the socket hands to the system, one entry per write (a writev carries several chunks).
    const write = socket._write.bind(socket);
    const writev = (socket._writev as (chunks: { chunk: Buffer | string }[], cb: (err?: Error | null) => void) => void).bind(socket);
    socket._write = (chunk, encoding, cb) => {
      writes.push(String(chunk));
      write(chunk, encoding, cb);
    };
    socket._writev = (chunks: { chunk: Buffer | string }[], cb: (err?: Error | null) => void) => {
      writes.push(chunks.map((c) => String(c.chunk)).join(''));
      writev(chunks, cb);
    };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the headers and the first event in one write', async () => {
    await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', resolve)));
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/stream`);
    expect(await res.text()).toBe('data: first\n\ndata: second\n\n');
    expect(writes).toHaveLength(2);
    expect(writes[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*text\/event-stream[\s\S]*\r\n\r\n[0-9a-f]+\r\ndata: first\n\n\r\n$/);
    expect(writes[1]).toContain('data: second');
  });
});
