import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../support/app.js';
import { PREMIUM_MODEL, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';

/**
 * The text deltas a gateway stream receives in one read of the model's answer leave as one chunk of the
 * response (issue 28: one `res.write`, one chunk-size line, instead of one per delta), in order, with the
 * stream's first events before them (the head and the first events wait for the first text) and before its
 * last ones; the body the client reads is the same.
 */
let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant());
});
afterAll(() => h.close());

/** The response's body chunks as sent (HTTP/1.1 chunked transfer coding), read off a raw socket. */
function rawChunks(path: string, body: unknown): Promise<string[]> {
  const url = new URL(h.t.baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let raw = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      raw += d;
      if (raw.endsWith('\r\n0\r\n\r\n')) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const at = raw.indexOf('\r\n\r\n');
      let rest = raw.slice(at + 4);
      const chunks: string[] = [];
      for (;;) {
        const line = rest.indexOf('\r\n');
        const size = parseInt(rest.slice(0, line), 16);
        if (!size) break;
        chunks.push(Buffer.from(rest.slice(line + 2, line + 2 + size), 'latin1').toString('utf8'));
        rest = rest.slice(line + 2 + size + 2);
      }
      resolve(chunks);
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${a.key}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
    );
  });
}

describe('gateway stream chunks', () => {
  it('OpenAI dialect: the first chunk and the deltas of one read of the model leave in one chunk, in order', async () => {
    h.models.enqueue({ chunks: ['One', ' two', ' thré"e'] });
    const chunks = await rawChunks('/v1/chat/completions', { model: 'svc-auto', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    const deltas = chunks.filter((c) => c.includes('"content":"One"'));
    expect(deltas).toHaveLength(1);
    expect([...deltas[0]!.matchAll(/"content":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string)).toEqual(['', 'One', ' two', ' thré"e']); // the role chunk's empty content first
    expect(chunks.join('').trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('Anthropic dialect: message_start, the block start and the deltas of one read leave in one chunk, in order', async () => {
    h.models.enqueue({ chunks: ['Un', ' deux'] });
    const chunks = await rawChunks('/v1/messages', { model: PREMIUM_MODEL, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    const deltas = chunks.filter((c) => c.includes('"text":"Un"'));
    expect(deltas).toHaveLength(1);
    expect(deltas[0]!.match(/^event: (\w+)/gm)).toEqual([
      'event: message_start',
      'event: content_block_start',
      'event: content_block_delta',
      'event: content_block_delta',
    ]);
    expect(chunks.join('')).toContain('event: message_stop');
  });
});
