import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForwardingWire, SseSplitter } from '../../src/modules/models/forwarding-wire.js';

/** The splitting the wire did before issue 28's tenth round (the rest cut after every event), as the reference. */
function referenceEvents(pieces: string[]): { name: string | undefined; data: string }[] {
  const out: { name: string | undefined; data: string }[] = [];
  let pending = '';
  for (const piece of pieces) {
    pending += piece;
    for (;;) {
      const lf = pending.indexOf('\n\n');
      const crlf = pending.indexOf('\r\n\r\n');
      const end = lf < 0 ? crlf : crlf < 0 ? lf : Math.min(lf, crlf);
      if (end < 0) break;
      const event = pending.slice(0, end);
      pending = pending.slice(end).replace(/^(\r?\n){1,2}/, '');
      let name: string | undefined;
      let data: string | undefined;
      for (const line of event.split(/\r?\n/)) {
        if (line.startsWith('event:')) name = line.slice(line[6] === ' ' ? 7 : 6);
        else if (line.startsWith('data:')) data = data === undefined ? line.slice(line[5] === ' ' ? 6 : 5) : `${data}\n${line.slice(line[5] === ' ' ? 6 : 5)}`;
      }
      if (data !== undefined) out.push({ name, data });
    }
  }
  return out;
}

const split = (pieces: string[]) => {
  const s = new SseSplitter();
  return pieces.flatMap((p) => s.push(p));
};

// LF and CRLF ends, a named event, multi-line data, a comment, data without its space, an extra line end, a lone CR.
const TEXT =
  'data: {"a":1}\n\n' +
  'event: message_start\ndata: {"b":2}\n\n' +
  ': ping\n\n' +
  'data: one\ndata: two\r\n\r\n' +
  'data:{"c":3}\n\n\n' +
  'event: x\r\ndata: y\r\n\r\n' +
  'data: z\r\n\n' +
  'data: [DONE]\n\n' +
  'data: unfinished';

describe('SseSplitter (the forwarding path reading a streamed answer)', () => {
  it('reads a whole stream as the per-event cutting did', () => {
    expect(split([TEXT])).toEqual(referenceEvents([TEXT]));
    expect(split([TEXT]).map((e) => e.data)).toContain('one\ntwo');
  });

  it('reads a stream cut into two pieces at every offset as when whole', () => {
    const whole = referenceEvents([TEXT]);
    for (let i = 0; i <= TEXT.length; i++) {
      const pieces = [TEXT.slice(0, i), TEXT.slice(i)];
      expect(split(pieces), `cut at ${i}`).toEqual(whole);
      expect(referenceEvents(pieces), `reference cut at ${i}`).toEqual(whole);
    }
  });

  it('reads a stream cut into three pieces at every pair of offsets around line ends as the reference', () => {
    const ends = [...TEXT.matchAll(/\r|\n/g)].map((m) => m.index);
    for (const i of ends) {
      for (const j of ends) {
        if (j < i) continue;
        for (const [a, b] of [[i, j], [i + 1, j + 1]] as const) {
          const pieces = [TEXT.slice(0, a), TEXT.slice(a, b), TEXT.slice(b)];
          expect(split(pieces), `cut at ${a}, ${b}`).toEqual(referenceEvents(pieces));
        }
      }
    }
  });
});

describe('ForwardingWire.batches (one array per piece read)', () => {
  let server: Server;
  let body = '';
  let wire: ForwardingWire;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(body); // one write: one piece on loopback
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    wire = new ForwardingWire({ name: 'test', url: new URL(`http://127.0.0.1:${port}/v1/chat/completions`), headers: { 'content-type': 'application/json' }, timeoutMs: 5_000, maxRetries: 0 });
  });
  afterAll(async () => {
    await wire.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const decode = (data: string) => {
    if (data === '[DONE]') return undefined;
    const value = JSON.parse(data) as { n?: number; error?: string };
    if (value.error) throw new Error(value.error);
    return value.n;
  };

  it('gives the events of one piece as one array, without an asynchronous step per event', async () => {
    body = [1, 2, 3, 4, 5, 6].map((n) => `data: {"n":${n}}\n\n`).join('') + 'data: [DONE]\n\n';
    const batches: number[][] = [];
    for await (const batch of wire.batches('{}', decode)) batches.push(batch as number[]);
    expect(batches).toEqual([[1, 2, 3, 4, 5, 6]]);
  });

  it('gives the events before an error event of the same piece, then the failure', async () => {
    body = 'data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"error":"overloaded"}\n\ndata: {"n":3}\n\n';
    const seen: number[] = [];
    const read = async () => {
      for await (const batch of wire.batches('{}', decode)) seen.push(...(batch as number[]));
    };
    await expect(read()).rejects.toMatchObject({ name: 'ProviderError', message: expect.stringContaining('overloaded') });
    expect(seen).toEqual([1, 2]);
  });

  it('still gives the events one by one through stream', async () => {
    body = 'data: {"n":7}\n\ndata: {"n":8}\n\ndata: [DONE]\n\n';
    const seen: unknown[] = [];
    for await (const n of wire.stream('{}', decode)) seen.push(n);
    expect(seen).toEqual([7, 8]);
  });
});

/**
 * The body read without the stream's async iterator (issue 28, twelfth pass: `PieceReader`): pieces that arrive
 * apart, an answer cut before its end, a call aborted between two pieces, as `for await` over the body gave them.
 */
describe('ForwardingWire.batches (the body read piece by piece)', () => {
  let server: Server;
  let wire: ForwardingWire;
  let answer: (res: import('node:http').ServerResponse) => void = () => undefined;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        answer(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    wire = new ForwardingWire({ name: 'test', url: new URL(`http://127.0.0.1:${port}/v1/chat/completions`), headers: { 'content-type': 'application/json' }, timeoutMs: 5_000, maxRetries: 0 });
  });
  afterAll(async () => {
    await wire.close();
    await new Promise((resolve) => server.close(resolve));
  });
  const decode = (data: string) => (data === '[DONE]' ? undefined : (JSON.parse(data) as { n: number }).n);

  it('gives pieces that arrive apart as arrays of their own, in order, then ends', async () => {
    let next: (() => void) | undefined;
    answer = (res) => {
      res.write('data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n"');
      next = () => {
        res.write(':3}\n\n');
        next = () => res.end('data: {"n":4}\n\ndata: [DONE]\n\n');
      };
    };
    const batches: number[][] = [];
    for await (const batch of wire.batches('{}', decode)) {
      batches.push(batch as number[]);
      next?.(); // the server sends its next piece only once this one is read
    }
    expect(batches).toEqual([[1, 2], [3], [4]]);
  });

  it('fails with a ProviderError, after the events it gave, when the answer is cut before its end', async () => {
    answer = (res) => {
      res.write('data: {"n":1}\n\n', () => res.socket?.destroy());
    };
    const seen: number[] = [];
    const read = async () => {
      for await (const batch of wire.batches('{}', decode)) seen.push(...(batch as number[]));
    };
    await expect(read()).rejects.toMatchObject({ name: 'ProviderError', aborted: false });
    expect(seen).toEqual([1]);
  });

  it('fails as aborted when the caller aborts between two pieces', async () => {
    answer = (res) => res.write('data: {"n":1}\n\n'); // and never ends
    const controller = new AbortController();
    const seen: number[] = [];
    const read = async () => {
      for await (const batch of wire.batches('{}', decode, controller.signal)) {
        seen.push(...(batch as number[]));
        controller.abort();
      }
    };
    await expect(read()).rejects.toMatchObject({ name: 'ProviderError', aborted: true });
    expect(seen).toEqual([1]);
  });
});
