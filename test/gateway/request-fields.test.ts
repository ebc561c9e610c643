import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { PREMIUM_MODEL, STANDARD_MODEL, anthropicClient, openaiClient, openaiError, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
});
afterAll(() => h.close());

const weather = { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: {} } } };
const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

describe('request fields the official clients send', () => {
  it('OpenAI dialect → OpenAI-compatible model: stop, seed, top_p, parallel_tool_calls, user, reasoning_effort forwarded; metadata not', async () => {
    await openaiClient(h.t, a.key).chat.completions.create({
      model: STANDARD_MODEL,
      ...ask,
      stop: 'END',
      seed: 7,
      top_p: 0.5,
      tools: [weather],
      parallel_tool_calls: false,
      user: 'end-user-1',
      metadata: { ticket: 'T-1' },
      reasoning_effort: 'low',
    });
    const sent = h.lastModelRequest();
    expect(sent).toMatchObject({ stop: ['END'], seed: 7, top_p: 0.5, parallel_tool_calls: false, user: 'end-user-1', reasoning_effort: 'low' });
    expect(sent.metadata).toBeUndefined();
  });

  it('OpenAI dialect → Anthropic model: stop becomes stop_sequences, user metadata.user_id, parallel_tool_calls false disable_parallel_tool_use', async () => {
    await openaiClient(h.t, a.key).chat.completions.create({
      model: PREMIUM_MODEL,
      ...ask,
      stop: ['END', 'STOP'],
      seed: 7,
      tools: [weather],
      parallel_tool_calls: false,
      user: 'end-user-1',
    });
    const sent = h.lastModelRequest();
    expect(sent).toMatchObject({
      stop_sequences: ['END', 'STOP'],
      metadata: { user_id: 'end-user-1' },
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(sent.seed).toBeUndefined();
  });

  it('Anthropic dialect: stop_sequences, metadata.user_id and thinking to an Anthropic model; stop and top_p to an OpenAI-compatible one (top_k dropped)', async () => {
    const client = anthropicClient(h.t, a.key);
    await client.messages.create({
      model: PREMIUM_MODEL,
      max_tokens: 2048,
      ...ask,
      stop_sequences: ['END'],
      metadata: { user_id: 'u-9' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    expect(h.lastModelRequest()).toMatchObject({ stop_sequences: ['END'], metadata: { user_id: 'u-9' }, thinking: { type: 'enabled', budget_tokens: 1024 } });
    // top_p and top_k are not in this SDK's types (its API version takes no sampling parameters): sent raw.
    await api(h.t.baseUrl, a.key).post('/v1/messages', { model: STANDARD_MODEL, max_tokens: 50, ...ask, stop_sequences: ['END'], top_p: 0.9, top_k: 5 });
    const sent = h.lastModelRequest();
    expect(sent).toMatchObject({ stop: ['END'], top_p: 0.9 });
    expect(sent.top_k).toBeUndefined();
  });

  it('n > 1 is refused with a 400 naming n; n = 1 is accepted', async () => {
    const before = h.models.requests.length;
    const err = await openaiError(openaiClient(h.t, a.key).chat.completions.create({ model: STANDARD_MODEL, ...ask, n: 2 }));
    expect(err.status).toBe(400);
    expect(err.error).toMatchObject({ type: 'invalid_request_error', param: 'n' });
    expect(err.message).toMatch(/one choice per call/);
    expect(h.models.requests.length).toBe(before);
    expect((await api(h.t.baseUrl, a.key).post('/v1/chat/completions', { model: STANDARD_MODEL, ...ask, n: 1 })).status).toBe(200);
  });

  it('malformed fields are 400s naming them', async () => {
    const post = (body: Record<string, unknown>) => api(h.t.baseUrl, a.key).post('/v1/chat/completions', { model: STANDARD_MODEL, ...ask, ...body });
    expect((await post({ stop: ['a', 'b', 'c', 'd', 'e'] })).body.error).toMatchObject({ param: 'stop' });
    expect((await post({ seed: 1.5 })).body.error).toMatchObject({ param: 'seed' });
    expect((await post({ response_format: { type: 'xml' } })).body.error).toMatchObject({ param: 'response_format.type' });
    const thinking = await api(h.t.baseUrl, a.key).post('/v1/messages', { model: PREMIUM_MODEL, max_tokens: 10, ...ask, thinking: { type: 'enabled', budget_tokens: 5 } });
    expect(thinking.status).toBe(400);
    expect(thinking.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});
