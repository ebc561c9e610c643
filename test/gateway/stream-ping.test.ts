import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../support/app.js';
import { PREMIUM_MODEL, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';

/**
 * Gateway streams keep the connection alive at SVC_STREAM_PING_MS (SPEC: 15 s), through the same SSE
 * helper as the chat streams: a comment on the OpenAI dialect, a `ping` event on the Anthropic one.
 */
let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_STREAM_PING_MS: '40' }));
});
afterAll(() => h.close());

/** Streams a call whose answer the model holds until the client has seen two keep-alives. */
async function streamHeld(path: string, body: unknown, ping: string): Promise<{ text: string; proof: string | null }> {
  let answer!: () => void;
  h.models.enqueue({ content: 'Held answer', until: new Promise<void>((r) => (answer = r)) });
  const res = await fetch(h.t.baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (text.split(ping).length - 1 >= 2) answer();
  }
  return { text, proof: res.headers.get('x-svc-proof') };
}

describe('gateway stream keep-alive', () => {
  it('OpenAI dialect: `: ping` comments at the configured interval, then the answer and [DONE]', async () => {
    const { text, proof } = await streamHeld('/v1/chat/completions', { model: 'svc-auto', stream: true, messages: [{ role: 'user', content: 'Hi' }] }, ': ping\n\n');
    expect(text.split(': ping\n\n').length - 1).toBeGreaterThanOrEqual(2);
    expect([...text.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('')).toBe('Held answer');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(proof).toMatch(/^prf_/);
  });

  it('Anthropic dialect: `ping` events at the configured interval, then the message', async () => {
    const ping = 'event: ping\ndata: {"type":"ping"}\n\n';
    const { text, proof } = await streamHeld('/v1/messages', { model: PREMIUM_MODEL, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hi' }] }, ping);
    expect(text.split(ping).length - 1).toBeGreaterThanOrEqual(2);
    expect(text).toContain('event: message_stop');
    expect(proof).toMatch(/^prf_/);
  });
});
