import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MODEL_NAME } from '../../src/modules/models/local.provider.js';
import { ProofCertificate } from '../../src/modules/proofs/proof.entity.js';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { PREMIUM_MODEL, STANDARD_MODEL, anthropicClient, anthropicError, exhaustAllowance, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';
import { sseEvents } from '../support/sse.js';

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
});
afterAll(() => h.close());

const rawMessages = (body: unknown, key = a.key) =>
  fetch(`${h.t.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });

describe('POST /v1/messages (official @anthropic-ai/sdk client)', () => {
  it('answers with a message, usage input/output tokens and x-svc-proof', async () => {
    h.models.enqueue({ content: 'Bonjour.', usage: { prompt: 9, completion: 2 } });
    const { data, response } = await anthropicClient(h.t, a.key)
      .messages.create({ model: 'svc-auto', max_tokens: 200, system: 'Answer in French.', messages: [{ role: 'user', content: 'Hello' }] })
      .withResponse();
    expect(data).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: STANDARD_MODEL,
      content: [{ type: 'text', text: 'Bonjour.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 2 },
    });
    expect(data.id).toMatch(/^msg_/);
    expect(response.headers.get('x-svc-proof')).toMatch(/^prf_/);
    expect(h.lastModelRequest().messages[0]).toEqual({ role: 'system', content: 'Answer in French.' });
    expect(h.lastModelRequest().max_tokens).toBe(200);
  });

  it('streams the named events in order; the SDK assembles the final message', async () => {
    h.models.enqueue({ chunks: ['Un ', 'deux ', 'trois'], usage: { prompt: 5, completion: 3 } });
    const res = await rawMessages({ model: 'svc-auto', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Count' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(res.headers.get('x-svc-proof')).toMatch(/^prf_/);
    const events = sseEvents(await res.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of events) expect(e.data.type).toBe(e.event);
    expect(events[0].data.message).toMatchObject({ role: 'assistant', content: [], stop_reason: null });
    expect(events.at(-2)!.data).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { input_tokens: 5, output_tokens: 3 } });

    h.models.enqueue({ chunks: ['Four ', 'five'], usage: { prompt: 6, completion: 2 } });
    const stream = anthropicClient(h.t, a.key).messages.stream({ model: 'svc-auto', max_tokens: 100, messages: [{ role: 'user', content: 'More' }] });
    const deltas: string[] = [];
    stream.on('text', (d) => deltas.push(d));
    const final = await stream.finalMessage();
    expect(deltas.join('')).toBe('Four five');
    expect(final.content).toEqual([{ type: 'text', text: 'Four five' }]);
    expect(final.usage).toMatchObject({ input_tokens: 6, output_tokens: 2 });
    expect(final.stop_reason).toBe('end_turn');
  });

  const tool = { name: 'lookup', description: 'Look a term up', input_schema: { type: 'object' as const, properties: { term: { type: 'string' } } } };

  it('passes tools through: tool_use blocks plain and streamed, tool_result back to the model', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'lookup', arguments: { term: 'gateway' } }] });
    const res = await anthropicClient(h.t, a.key).messages.create({
      model: 'svc-auto',
      max_tokens: 100,
      tools: [tool],
      messages: [{ role: 'user', content: 'What is a gateway?' }],
    });
    expect(res.stop_reason).toBe('tool_use');
    const use = res.content.find((b) => b.type === 'tool_use');
    expect(use).toMatchObject({ type: 'tool_use', name: 'lookup', input: { term: 'gateway' } });
    expect(h.lastModelRequest().tools).toEqual([{ type: 'function', function: { name: 'lookup', description: 'Look a term up', parameters: tool.input_schema } }]);

    h.models.enqueue({ toolCalls: [{ name: 'lookup', arguments: { term: 'proof' } }] });
    const final = await anthropicClient(h.t, a.key)
      .messages.stream({ model: 'svc-auto', max_tokens: 100, tools: [tool], messages: [{ role: 'user', content: 'What is a proof?' }] })
      .finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'lookup', input: { term: 'proof' } })]);

    h.models.enqueue({ content: 'A gateway forwards calls.' });
    const id = (use as { id: string }).id;
    const answer = await anthropicClient(h.t, a.key).messages.create({
      model: 'svc-auto',
      max_tokens: 100,
      tools: [tool],
      messages: [
        { role: 'user', content: 'What is a gateway?' },
        { role: 'assistant', content: [{ type: 'tool_use', id, name: 'lookup', input: { term: 'gateway' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'It forwards calls.' }] },
      ],
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'A gateway forwards calls.' }]);
    expect(h.lastModelRequest().messages.at(-1)).toEqual({ role: 'tool', tool_call_id: id, content: 'It forwards calls.' });
  });

  it('tool_choice { type: "none" } withholds the tools from the model', async () => {
    h.models.enqueue({ content: 'No lookup.' });
    const res = await anthropicClient(h.t, a.key).messages.create({
      model: 'svc-auto',
      max_tokens: 100,
      tools: [tool],
      tool_choice: { type: 'none' },
      messages: [{ role: 'user', content: 'What is a gateway?' }],
    });
    expect(res.content).toEqual([{ type: 'text', text: 'No lookup.' }]);
    expect(h.lastModelRequest().tools).toBeUndefined();
  });

  it('forwards tool_choice any and a named tool in the answering provider\'s form', async () => {
    const client = anthropicClient(h.t, a.key);
    const ask = { max_tokens: 100, tools: [tool], messages: [{ role: 'user' as const, content: 'What is a gateway?' }] };
    // The Anthropic provider answers a premium address.
    h.models.enqueue({ toolCalls: [{ name: 'lookup', arguments: { term: 'gateway' } }] });
    const res = await client.messages.create({ model: PREMIUM_MODEL, ...ask, tool_choice: { type: 'any' } });
    expect(res.stop_reason).toBe('tool_use');
    expect(h.lastModelRequest()).toMatchObject({ model: PREMIUM_MODEL, tool_choice: { type: 'any' } });
    h.models.enqueue({ toolCalls: [{ name: 'lookup', arguments: { term: 'gateway' } }] });
    await client.messages.stream({ model: PREMIUM_MODEL, ...ask, tool_choice: { type: 'tool', name: 'lookup' } }).finalMessage();
    expect(h.lastModelRequest()).toMatchObject({ model: PREMIUM_MODEL, stream: true, tool_choice: { type: 'tool', name: 'lookup' } });

    // svc-auto picks the OpenAI-compatible model: its wire form.
    h.models.enqueue({ toolCalls: [{ name: 'lookup', arguments: { term: 'gateway' } }] });
    await client.messages.create({ model: 'svc-auto', ...ask, tool_choice: { type: 'any' } });
    expect(h.lastModelRequest()).toMatchObject({ model: STANDARD_MODEL, tool_choice: 'required' });
    h.models.enqueue({ toolCalls: [{ name: 'lookup', arguments: { term: 'gateway' } }] });
    await client.messages.create({ model: 'svc-auto', ...ask, tool_choice: { type: 'tool', name: 'lookup' } });
    expect(h.lastModelRequest()).toMatchObject({ tool_choice: { type: 'function', function: { name: 'lookup' } } });

    // { type: "auto" } is the default: nothing is sent.
    h.models.enqueue({ content: 'A router.' });
    await client.messages.create({ model: PREMIUM_MODEL, ...ask, tool_choice: { type: 'auto' } });
    expect(h.lastModelRequest().tools).toHaveLength(1);
    expect(h.lastModelRequest()).not.toHaveProperty('tool_choice');
  });

  it('400 invalid_request_error for a named tool not among tools (no model call)', async () => {
    const before = h.models.requests.length;
    const err = await anthropicError(
      anthropicClient(h.t, a.key).messages.create({
        model: 'svc-auto',
        max_tokens: 100,
        tools: [tool],
        tool_choice: { type: 'tool', name: 'translate' },
        messages: [{ role: 'user', content: 'What is a gateway?' }],
      }),
    );
    expect(err.status).toBe(400);
    expect(err.error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/tool_choice.*translate/) } });
    for (const tool_choice of [{ type: 'any' }, { type: 'sometimes' }, 'any']) {
      const res = await rawMessages({ model: 'svc-auto', max_tokens: 100, tool_choice, messages: [{ role: 'user', content: 'x' }] });
      expect(res.status, JSON.stringify(tool_choice)).toBe(400);
      expect(await res.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/tool_choice/) } });
    }
    expect(h.models.requests.length).toBe(before);
  });

  it('svc-sensitive stays on the local model', async () => {
    const before = h.models.requests.length;
    const res = await anthropicClient(h.t, a.key).messages.create({ model: 'svc-sensitive', max_tokens: 100, messages: [{ role: 'user', content: 'Secret' }] });
    expect(res.model).toBe(LOCAL_MODEL_NAME);
    const named = await anthropicClient(h.t, a.key).messages.create({ model: 'claude-opus-4-1+sensitive', max_tokens: 100, messages: [{ role: 'user', content: 'Secret' }] });
    expect(named.model).toBe(LOCAL_MODEL_NAME);
    expect(h.models.requests.length).toBe(before);
    const heavy = await anthropicClient(h.t, a.key).messages.create({ model: 'claude-opus-4-1', max_tokens: 100, messages: [{ role: 'user', content: 'Hard' }] });
    expect(heavy.model).toBe(PREMIUM_MODEL);
  });
});

describe('POST /v1/messages/count_tokens', () => {
  it('counts the prompt tokens without calling a model or metering', async () => {
    const before = h.models.requests.length;
    const client = anthropicClient(h.t, a.key);
    const short = await client.messages.countTokens({ model: 'svc-auto', messages: [{ role: 'user', content: 'Hi' }] });
    const long = await client.messages.countTokens({
      model: 'svc-auto',
      system: 'You are a careful assistant.',
      messages: [{ role: 'user', content: 'Please summarise the following long paragraph about gateways and proofs.' }],
    });
    expect(short.input_tokens).toBeGreaterThan(0);
    expect(long.input_tokens).toBeGreaterThan(short.input_tokens);
    expect(h.models.requests.length).toBe(before);
    const res = await api(h.t.baseUrl, a.key).post('/v1/messages/count_tokens', { model: 'svc-auto', messages: [{ role: 'user', content: 'Hi' }] });
    expect(res.body).toEqual({ input_tokens: short.input_tokens });
    expect(res.headers.get('x-svc-proof')).toMatch(/^prf_/);
  });

  it('refuses like a call: 400 invalid_request_error, 404 not_found_error, 501 invalid_request_error', async () => {
    const count = (body: unknown) => api(h.t.baseUrl, a.key).post('/v1/messages/count_tokens', body);
    const empty = await count({ model: 'svc-auto', messages: [] });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
    const unknown = await count({ model: 'agent:ghost', messages: [{ role: 'user', content: 'x' }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found_error');
    const debate = await count({ model: 'debate:x', messages: [{ role: 'user', content: 'x' }] });
    expect(debate.status).toBe(501);
    expect(debate.body.error.type).toBe('invalid_request_error');
  });
});

describe('POST /v1/messages errors (Anthropic shape)', () => {
  const post = (body: unknown, key = a.key) => api(h.t.baseUrl, key).post('/v1/messages', body);

  it('400 invalid_request_error for missing or empty messages, or no user message', async () => {
    for (const body of [
      { model: 'svc-auto', max_tokens: 10 },
      { model: 'svc-auto', max_tokens: 10, messages: [] },
      { model: 'svc-auto', max_tokens: 10, messages: [{ role: 'assistant', content: 'Hi' }] },
      { model: 'svc-auto', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'image', source: {} }] }] },
      { model: 'svc-auto', max_tokens: 'ten', messages: [{ role: 'user', content: 'x' }] },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
    }
    const viaSdk = await anthropicError(anthropicClient(h.t, a.key).messages.create({ model: 'svc-auto', max_tokens: 10, messages: [] }));
    expect(viaSdk.status).toBe(400);
    expect(viaSdk.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('404 not_found_error for an unknown agent slug; 501 invalid_request_error for debate:', async () => {
    const nf = await anthropicError(
      anthropicClient(h.t, a.key).messages.create({ model: 'agent:nobody', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(nf.status).toBe(404);
    expect(nf.error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const debate = await post({ model: 'debate:panel', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    expect(debate.status).toBe(501);
    expect(debate.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
  });

  it('404 not_found_error for an unknown x-svc-conversation', async () => {
    const res = await api(h.t.baseUrl, a.key, { 'x-svc-conversation': 'conv_nope' }).post('/v1/messages', {
      model: 'svc-auto',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('not_found_error');
  });

  it('429 rate_limit_error without retry-after when the allowance is spent (plain and stream); nothing consumed', async () => {
    const poor = await h.t.tenant();
    await exhaustAllowance(h.t, poor);
    const before = h.models.requests.length;
    const err = await anthropicError(
      anthropicClient(h.t, poor.key).messages.create({ model: 'svc-auto', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(err.status).toBe(429);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(err.headers?.get('retry-after')).toBeNull();
    const streamed = await rawMessages({ model: 'svc-auto', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] }, poor.key);
    expect(streamed.status).toBe(429);
    expect(streamed.headers.get('retry-after')).toBeNull();
    expect((await streamed.json()).error.type).toBe('rate_limit_error');
    expect(h.models.requests.length).toBe(before);
    expect(await h.t.app.services.orm.em.fork().count(ProofCertificate, { workspaceId: poor.workspaceId })).toBe(0);
  });

  it('500 api_error when the model fails; mid-stream it is an event: error', async () => {
    h.models.enqueue({ status: 400 });
    const res = await post({ model: 'svc-auto', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ type: 'error', error: { type: 'api_error', message: expect.any(String) } });

    h.models.enqueue({ status: 400 });
    const streamed = await rawMessages({ model: 'svc-auto', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(streamed.status).toBe(200);
    const events = sseEvents(await streamed.text());
    expect(events[0].event).toBe('message_start');
    expect(events.at(-1)).toEqual({ event: 'error', data: { type: 'error', error: { type: 'api_error', message: expect.any(String) } } });

    h.models.enqueue({ status: 400 });
    const failure = await anthropicClient(h.t, a.key)
      .messages.stream({ model: 'svc-auto', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(failure).toBeInstanceOf(Anthropic.APIError);
  });

  it('authentication-stage errors keep the native shape', async () => {
    const none = await api(h.t.baseUrl).post('/v1/messages', { model: 'svc-auto', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    expect(none.status).toBe(401);
    expect(typeof none.body.error).toBe('string');
    const agentsOnly = await h.t.key(a, { scopes: ['agents'] });
    const denied = await post({ model: 'svc-auto', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }, agentsOnly);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'scope_denied', error: expect.any(String) });
    // The key is judged before the body, on both routes.
    for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
      const bad = await api(h.t.baseUrl, agentsOnly).post(path, { model: 'svc-auto', messages: [] });
      expect(bad.status, path).toBe(403);
      expect(bad.body).toMatchObject({ code: 'scope_denied', error: expect.any(String) });
    }
    const readOnly = await h.t.key(a, { scopes: ['engine'], readonly: true });
    const ro = await post({ model: 'svc-auto', max_tokens: 'ten' }, readOnly);
    expect(ro.status).toBe(403);
    expect(ro.body).toMatchObject({ code: 'read_only_key', error: expect.any(String) });
  });
});
