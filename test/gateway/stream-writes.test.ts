import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../support/app.js';
import { PREMIUM_MODEL, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';

/**
 * The socket writes of a streamed gateway call (issue 28: a streamed call's writes to its client were a
 * sixth of its CPU). The head leaves with the stream's first events and the model's first text, in one
 * write; the last events leave with the end, in another: two writes for a model that answers in one read
 * (three before: the head at admission, the text, the end). A slow model's client still gets the head
 * within the keep-alive interval, with the first keep-alive.
 */
let h: GatewayHarness;
let a: TestTenant;
/** The slow model's case: a short keep-alive interval (the others keep the default, 15 s, so no keep-alive falls in a call). */
let slow: { h: GatewayHarness; a: TestTenant };
/** What the service wrote to a client's socket, one entry per socket write. */
let writes: string[] = [];

type WriteFn = (this: Socket, ...args: any[]) => void;
const proto = Socket.prototype as unknown as { _write: WriteFn; _writev: WriteFn };
const original = { _write: proto._write, _writev: proto._writev };

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant());
  slow = await startGatewayWithTenant({ SVC_STREAM_PING_MS: '40' });
  const ports = new Set([h, slow.h].map((g) => Number(new URL(g.t.baseUrl).port)));
  // The services run in this process: their side of a client connection is the socket on their port.
  proto._write = function (this: Socket, chunk: Buffer | string, ...rest: unknown[]) {
    if (ports.has(this.localPort ?? 0)) writes.push(String(chunk));
    return original._write.call(this, chunk, ...rest);
  };
  proto._writev = function (this: Socket, chunks: { chunk: Buffer | string }[], ...rest: unknown[]) {
    if (ports.has(this.localPort ?? 0)) writes.push(chunks.map((c) => String(c.chunk)).join(''));
    return original._writev.call(this, chunks, ...rest);
  };
});
afterAll(async () => {
  proto._write = original._write;
  proto._writev = original._writev;
  await h.close();
  await slow.h.close();
});

/** Streams a call to the end and returns the service's socket writes for it. */
async function streamedWrites(path: string, body: unknown, onText?: (text: string) => void, g = { h, a }): Promise<string[]> {
  writes = [];
  const res = await fetch(g.h.t.baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${g.a.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-svc-proof')).toMatch(/^prf_/);
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    onText?.(text);
  }
  return writes;
}

const openaiBody = { model: 'svc-auto', stream: true, messages: [{ role: 'user', content: 'Hi' }] };

describe('gateway stream socket writes', () => {
  it('a model answering in one read: two writes, the head with the first events and the text, then the last events with the end', async () => {
    h.models.enqueue({ chunks: ['One', ' two'] });
    const w = (await streamedWrites('/v1/chat/completions', openaiBody));
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(w[0]).toContain('"role":"assistant"');
    expect(w[0]).toContain('"content":"One"');
    expect(w[0]).toContain('"content":" two"');
    expect(w[1]).toContain('"finish_reason":"stop"');
    expect(w[1]).toContain('data: [DONE]');
    expect(w[1]).toMatch(/\r\n0\r\n\r\n$/);
  });

  it('Anthropic dialect: the head, message_start and the first text in one write', async () => {
    h.models.enqueue({ chunks: ['Un', ' deux'] });
    const body = { model: PREMIUM_MODEL, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hi' }] };
    const w = (await streamedWrites('/v1/messages', body));
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(w[0]!.match(/^event: (\w+)/gm)?.slice(0, 2)).toEqual(['event: message_start', 'event: content_block_start']);
    expect(w[0]).toContain('"text":"Un"');
    expect(w[1]).toContain('event: message_stop');
  });

  it('a slow model: the head leaves with the first keep-alive, before any text', async () => {
    let answer!: () => void;
    slow.h.models.enqueue({ content: 'Held answer', until: new Promise<void>((r) => (answer = r)) });
    const w = await streamedWrites(
      '/v1/chat/completions',
      openaiBody,
      (text) => {
        if (text.includes(': ping\n\n')) answer();
      },
      slow,
    );
    expect(w[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(w[0]).toContain('"role":"assistant"');
    expect(w[0]).toMatch(/: ping\n\n\r\n$/);
    expect(w[0]).not.toContain('Held');
    expect(w.join('')).toContain('data: [DONE]');
  });

  it('an answer that fails before any text: the head, the first events and the error event leave with the end', async () => {
    h.models.enqueue({ status: 400 }); // a refusal the provider does not retry
    const w = (await streamedWrites('/v1/chat/completions', openaiBody));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(w[0]).toContain('"role":"assistant"');
    expect(w[0]).toContain('"error"');
  });
});
