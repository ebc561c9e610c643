import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageEntry } from '../../src/modules/usage/usage.entity.js';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { persona } from '../support/agents.js';
import { anthropicError, exhaustAllowance, openaiError, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';
import { checkedFetch } from '../support/openapi-validation.js';

// What an integrator does next with the official clients, on their default settings where it matters
// (retries), against the real server (docs/gateway.md, "Client compatibility").

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
});
afterAll(() => h.close());

/** The clients with their default retry count (2), counting the requests that reach the server. */
function countingClients(key: string) {
  const sent: string[] = [];
  const checked = checkedFetch(h.t.baseUrl);
  const fetch: typeof globalThis.fetch = (input, init) => {
    sent.push(String(input instanceof Request ? input.url : input));
    return checked(input, init);
  };
  return {
    sent,
    openai: new OpenAI({ apiKey: key, baseURL: `${h.t.baseUrl}/v1`, maxRetries: 2, fetch }),
    anthropic: new Anthropic({ apiKey: key, baseURL: h.t.baseUrl, maxRetries: 2, fetch }),
  };
}

const ask = [{ role: 'user' as const, content: 'x' }];

describe('retries: the clients obey x-should-retry (SPEC, Retry rules)', () => {
  it('a spent allowance on /v1/messages (429 without retry-after) is sent once, not three times', async () => {
    const poor = await h.t.tenant();
    await exhaustAllowance(h.t, poor);
    const c = countingClients(poor.key);
    const err = await anthropicError(c.anthropic.messages.create({ model: 'svc-auto', max_tokens: 10, messages: ask }));
    expect(err.status).toBe(429);
    expect(err.headers?.get('x-should-retry')).toBe('false');
    expect(c.sent).toHaveLength(1);
    // The OpenAI dialect's 402 is not retried either, and says so.
    const quota = await openaiError(c.openai.chat.completions.create({ model: 'svc-auto', messages: ask }));
    expect(quota.status).toBe(402);
    expect(quota.headers?.get('x-should-retry')).toBe('false');
    expect(c.sent).toHaveLength(2);
  });

  it('the reserved debate: address (501) is sent once on each dialect', async () => {
    const c = countingClients(a.key);
    const openai = await openaiError(c.openai.chat.completions.create({ model: 'debate:board', messages: ask }));
    expect(openai.status).toBe(501);
    expect(openai.code).toBe('address_not_supported');
    const anthropic = await anthropicError(c.anthropic.messages.create({ model: 'debate:board', max_tokens: 10, messages: ask }));
    expect(anthropic.status).toBe(501);
    expect(c.sent).toHaveLength(2);
    expect(openai.headers?.get('x-should-retry')).toBe('false');
    expect(anthropic.headers?.get('x-should-retry')).toBe('false');
  });

  it('what may be retried says true: a model failure (500), a key over its rate (429 with retry-after); a 400 or a 401 says false', async () => {
    h.models.enqueue({ status: 400 });
    const failed = await openaiError(
      new OpenAI({ apiKey: a.key, baseURL: `${h.t.baseUrl}/v1`, maxRetries: 0, fetch: checkedFetch(h.t.baseUrl) }).chat.completions.create({ model: 'svc-auto', messages: ask }),
    );
    expect(failed.status).toBe(500);
    expect(failed.headers?.get('x-should-retry')).toBe('true');

    const limited = await h.t.key(a, { ratePerMinute: 1 });
    const post = (key: string, body: unknown) => api(h.t.baseUrl, key).post('/v1/messages', body);
    expect((await post(limited, { model: 'svc-auto', max_tokens: 10, messages: ask })).status).toBe(200);
    const refused = await post(limited, { model: 'svc-auto', max_tokens: 10, messages: ask });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(refused.headers.get('x-should-retry')).toBe('true');

    const bad = await post(a.key, { model: 'svc-auto', max_tokens: 10, messages: [] });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-should-retry')).toBe('false');
    const anonymous = await api(h.t.baseUrl).post('/v1/messages', { model: 'svc-auto', max_tokens: 10, messages: ask });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('x-should-retry')).toBe('false');
  });
});

describe('models.retrieve (GET /v1/models/:id)', () => {
  it('both clients retrieve an address of the list, an agent address percent-encoded; anything else is 404 model_not_found', async () => {
    const tenant = await h.t.tenant();
    expect((await api(h.t.baseUrl, tenant.key).post('/v1/agents', persona('Ada Lovelace'))).status).toBe(201);
    const openai = new OpenAI({ apiKey: tenant.key, baseURL: `${h.t.baseUrl}/v1`, maxRetries: 0, fetch: checkedFetch(h.t.baseUrl) });
    const anthropic = new Anthropic({ apiKey: tenant.key, baseURL: h.t.baseUrl, maxRetries: 0, fetch: checkedFetch(h.t.baseUrl) });
    const listed = (await openai.models.list()).data;
    for (const id of ['agent:ada-lovelace', 'svc-auto', 'svc-sensitive']) {
      const model = await openai.models.retrieve(id);
      expect(model).toEqual(listed.find((m) => m.id === id));
      const same = await anthropic.models.retrieve(id);
      expect(same).toMatchObject({ id, type: 'model', display_name: expect.any(String), created_at: expect.any(String) });
    }
    expect((await anthropic.models.retrieve('agent:ada-lovelace')).display_name).toBe('Ada Lovelace');

    // Another workspace's agent, an unknown one, a name a call could route but the list does not hold.
    for (const id of ['agent:ada-lovelace', 'agent:nobody', 'gpt-4o']) {
      const key = id === 'agent:ada-lovelace' ? a.key : tenant.key;
      const err = await openaiError(new OpenAI({ apiKey: key, baseURL: `${h.t.baseUrl}/v1`, maxRetries: 0, fetch: checkedFetch(h.t.baseUrl) }).models.retrieve(id));
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect(err.error).toMatchObject({ code: 'model_not_found', param: 'model', message: expect.stringContaining(id) });
    }
    expect(await anthropicError(anthropic.models.retrieve('agent:nobody'))).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('needs the engine scope (native 403) but not write access', async () => {
    const webhooksOnly = await h.t.key(a, { scopes: ['webhooks'] });
    const denied = await api(h.t.baseUrl, webhooksOnly).get('/v1/models/svc-auto');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'scope_denied' });
    const readOnly = await h.t.key(a, { scopes: ['engine', 'readonly'] });
    expect((await api(h.t.baseUrl, readOnly).get('/v1/models/svc-auto')).status).toBe(200);
  });
});

describe('request ids as each client reads them', () => {
  it('the Anthropic client reads request-id (message._request_id, APIError.requestID): the same id as x-request-id', async () => {
    const anthropic = new Anthropic({ apiKey: a.key, baseURL: h.t.baseUrl, maxRetries: 0, fetch: checkedFetch(h.t.baseUrl) });
    const { data, response } = await anthropic.messages.create({ model: 'svc-auto', max_tokens: 10, messages: ask }).withResponse();
    // Set by the client's parser (not enumerable, and not in its Message type).
    const requestId = (data as { _request_id?: string | null })._request_id;
    expect(requestId).toMatch(/\S/);
    expect(requestId).toBe(response.headers.get('x-request-id'));
    const err = await anthropicError(anthropic.messages.create({ model: 'agent:nobody', max_tokens: 10, messages: ask }));
    expect(err.requestID).toMatch(/\S/);
    expect(err.requestID).toBe(err.headers?.get('x-request-id'));

    const openai = new OpenAI({ apiKey: a.key, baseURL: `${h.t.baseUrl}/v1`, maxRetries: 0, fetch: checkedFetch(h.t.baseUrl) });
    const completion = await openai.chat.completions.create({ model: 'svc-auto', messages: ask });
    expect(completion._request_id).toMatch(/\S/);
  });
});

describe('Anthropic client: what an integrator sends next', () => {
  const anthropic = () => new Anthropic({ apiKey: a.key, baseURL: h.t.baseUrl, maxRetries: 0, fetch: checkedFetch(h.t.baseUrl) });

  it('system as text blocks (with cache_control) and stop_sequences, through .stream(): text events, finalMessage, proof header', async () => {
    h.models.enqueue({ chunks: ['Bonjour', ' Ada'], usage: { prompt: 9, completion: 2 } });
    const stream = anthropic().messages.stream({
      model: 'svc-auto',
      max_tokens: 100,
      system: [
        { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Answer in French.' },
      ],
      stop_sequences: ['END'],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Greet Ada', cache_control: { type: 'ephemeral' } }] }],
    });
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const message = await stream.finalMessage();
    expect(texts.join('')).toBe('Bonjour Ada');
    expect(message).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Bonjour Ada' }], stop_reason: 'end_turn', usage: { output_tokens: 2 } });
    const { response } = await stream.withResponse();
    expect(response.headers.get('x-svc-proof')).toMatch(/^prf_/);
    const sent = h.lastModelRequest();
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be brief.\n\nAnswer in French.' }, // the blocks kept apart (wire.ts, textOf)
      { role: 'user', content: 'Greet Ada' },
    ]);
    expect(sent.stop).toEqual(['END']);
  });

  it('a tool_use / tool_result turn with text beside the call and the result as blocks reaches the model as a tool message', async () => {
    h.models.enqueue({ content: 'It is sunny in Paris.' });
    const message = await anthropic().messages.create({
      model: 'svc-auto',
      max_tokens: 100,
      tools: [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny, 21 C' }] }] },
      ],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'It is sunny in Paris.' }]);
    expect(h.lastModelRequest().messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny, 21 C' },
    ]);
  });

  it('countTokens with system blocks and tools counts more than without, certified, no model called', async () => {
    const before = h.models.requests.length;
    const client = anthropic();
    const bare = await client.messages.countTokens({ model: 'svc-auto', messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    const { data: full, response } = await client.messages
      .countTokens({
        model: 'svc-auto',
        system: [{ type: 'text', text: 'You are a meteorologist who answers in one sentence.' }],
        tools: [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      })
      .withResponse();
    expect(full.input_tokens).toBeGreaterThan(bare.input_tokens);
    expect(response.headers.get('x-svc-proof')).toMatch(/^prf_/);
    expect(h.models.requests.length).toBe(before);
  });
});

describe('a stream the client aborts through its SDK', () => {
  async function abandonedCertificate(tenant: TestTenant, proofId: string | null) {
    expect(proofId).toMatch(/^prf_/);
    const em = h.t.app.services.orm.em;
    await expect.poll(() => em.fork().count(UsageEntry, { workspaceId: tenant.workspaceId }), { interval: 25 }).toBe(1);
    const client = api(h.t.baseUrl, tenant.key);
    await expect.poll(async () => (await client.get(`/v1/proofs/${proofId}`)).status, { interval: 25 }).toBe(200);
    return (await client.get(`/v1/proofs/${proofId}`)).body;
  }

  it('Anthropic MessageStream.abort(): APIUserAbortError for the caller; the call is metered and its certificate says abandoned', async () => {
    const tenant = await h.t.tenant();
    h.models.enqueue({ chunks: ['first piece ', 'second piece'], hang: true });
    const client = new Anthropic({ apiKey: tenant.key, baseURL: h.t.baseUrl, maxRetries: 0, fetch: checkedFetch(h.t.baseUrl) });
    const stream = client.messages.stream({ model: 'svc-auto', max_tokens: 100, messages: [{ role: 'user', content: 'Tell me a long story' }] });
    let text = '';
    stream.on('text', (t) => {
      text += t;
      if (text.includes('second piece')) stream.abort();
    });
    const failure = await stream.finalMessage().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(Anthropic.APIUserAbortError);
    const { response } = await stream.withResponse();
    const proof = await abandonedCertificate(tenant, response.headers.get('x-svc-proof'));
    expect(proof).toMatchObject({ outcome: 'abandoned', route: 'POST /v1/messages' });
    expect(proof.usage.completionTokens).toBeGreaterThan(0);
  });

  it('OpenAI Responses stream controller.abort(): the iteration ends; the call is metered and its certificate says abandoned', async () => {
    const tenant = await h.t.tenant();
    h.models.enqueue({ chunks: ['first piece ', 'second piece'], hang: true });
    const client = new OpenAI({ apiKey: tenant.key, baseURL: `${h.t.baseUrl}/v1`, maxRetries: 0, fetch: checkedFetch(h.t.baseUrl) });
    const { data: stream, response } = await client.responses.create({ model: 'svc-auto', input: 'Tell me a long story', stream: true }).withResponse();
    let text = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (text.includes('second piece')) stream.controller.abort();
    }
    expect(text).toBe('first piece second piece');
    const proof = await abandonedCertificate(tenant, response.headers.get('x-svc-proof'));
    expect(proof).toMatchObject({ outcome: 'abandoned', route: 'POST /v1/responses' });
  });
});
