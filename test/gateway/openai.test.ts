import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conversation } from '../../src/modules/conversations/conversation.entity.js';
import { LOCAL_MODEL_NAME } from '../../src/modules/models/local.provider.js';
import { ProofCertificate } from '../../src/modules/proofs/proof.entity.js';
import { sha256 } from '../../src/modules/proofs/proofs.service.js';
import { UsageEntry } from '../../src/modules/usage/usage.entity.js';
import { setSuspended } from '../../src/modules/provisioning/provisioning.service.js';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { PREMIUM_MODEL, STANDARD_MODEL, exhaustAllowance, openaiClient, openaiError, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';
import { sseEvents } from '../support/sse.js';

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
});
afterAll(() => h.close());

describe('POST /v1/chat/completions (official openai client)', () => {
  it('answers svc-auto with the cheapest adequate remote model, with usage and x-svc-proof', async () => {
    h.models.enqueue({ content: 'Forty-two.', usage: { prompt: 12, completion: 3 } });
    const { data, response } = await openaiClient(h.t, a.key)
      .chat.completions.create({ model: 'svc-auto', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Answer?' }] })
      .withResponse();
    expect(response.status).toBe(200);
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe(STANDARD_MODEL);
    expect(data.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Forty-two.' } });
    expect(data.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 });
    expect(response.headers.get('x-svc-proof')).toMatch(/^prf_/);
    expect(h.lastModelRequest().model).toBe(STANDARD_MODEL);
    expect(h.lastModelRequest().messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Answer?' },
    ]);
  });

  it('streams data: chunks then [DONE], with the usage chunk for stream_options.include_usage', async () => {
    h.models.enqueue({ chunks: ['Hel', 'lo ', 'world'], usage: { prompt: 7, completion: 3 } });
    const { data: stream, response } = await openaiClient(h.t, a.key)
      .chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } })
      .withResponse();
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const proofId = response.headers.get('x-svc-proof');
    expect(proofId).toMatch(/^prf_/);
    let text = '';
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello world');
    expect(finish).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    const cert = await api(h.t.baseUrl, a.key).get(`/v1/proofs/${proofId}`);
    expect(cert.status).toBe(200);
    expect(cert.body.usage).toEqual({ promptTokens: 7, completionTokens: 3, totalTokens: 10 });
  });

  it('the raw stream ends with data: [DONE] and sends no usage chunk unless asked', async () => {
    h.models.enqueue({ chunks: ['a', 'b'] });
    const res = await fetch(`${h.t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    const body = await res.text();
    const events = sseEvents(body);
    expect(events.at(-1)).toEqual({ event: '', data: '[DONE]' });
    const chunks = events.slice(0, -1).map((e) => e.data);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.every((c) => c.usage === undefined)).toBe(true);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  const weather = {
    type: 'function' as const,
    function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  };

  it('passes tools through and returns the tool calls (plain)', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 20, completion: 8 } });
    const res = await openaiClient(h.t, a.key).chat.completions.create({
      model: 'svc-auto',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weather],
    });
    expect(res.choices[0].finish_reason).toBe('tool_calls');
    const call = res.choices[0].message.tool_calls?.[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    expect(h.lastModelRequest().tools).toEqual([weather]);
  });

  it('tool_choice "none" withholds the tools from the model', async () => {
    h.models.enqueue({ content: 'No tool needed.' });
    const res = await openaiClient(h.t, a.key).chat.completions.create({
      model: 'svc-auto',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weather],
      tool_choice: 'none',
    });
    expect(res.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'No tool needed.' } });
    expect(h.lastModelRequest().tools).toBeUndefined();
  });

  it('forwards tool_choice "required" and a named function in the answering provider\'s form', async () => {
    const client = openaiClient(h.t, a.key);
    const ask = { messages: [{ role: 'user' as const, content: 'Weather in Paris?' }], tools: [weather] };
    h.models.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    const res = await client.chat.completions.create({ model: 'svc-auto', ...ask, tool_choice: 'required' });
    expect(res.choices[0].finish_reason).toBe('tool_calls');
    expect(h.lastModelRequest()).toMatchObject({ model: STANDARD_MODEL, tool_choice: 'required', tools: [weather] });

    h.models.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    const stream = await client.chat.completions.create({
      model: 'svc-auto',
      ...ask,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      stream: true,
    });
    for await (const chunk of stream) void chunk;
    expect(h.lastModelRequest()).toMatchObject({ stream: true, tool_choice: { type: 'function', function: { name: 'get_weather' } } });

    // The Anthropic provider answers a premium address: its own wire form.
    h.models.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    await client.chat.completions.create({ model: PREMIUM_MODEL, ...ask, tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    expect(h.lastModelRequest()).toMatchObject({ model: PREMIUM_MODEL, tool_choice: { type: 'tool', name: 'get_weather' } });
    h.models.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
    await client.chat.completions.create({ model: PREMIUM_MODEL, ...ask, tool_choice: 'required' });
    expect(h.lastModelRequest()).toMatchObject({ model: PREMIUM_MODEL, tool_choice: { type: 'any' } });

    // "auto" is the default: nothing is sent.
    h.models.enqueue({ content: 'Sunny.' });
    await client.chat.completions.create({ model: 'svc-auto', ...ask, tool_choice: 'auto' });
    expect(h.lastModelRequest().tools).toEqual([weather]);
    expect(h.lastModelRequest()).not.toHaveProperty('tool_choice');
  });

  it('400 invalid_request_error, param tool_choice, for a named tool not among tools (no model call)', async () => {
    const before = h.models.requests.length;
    const err = await openaiError(
      openaiClient(h.t, a.key).chat.completions.create({
        model: 'svc-auto',
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'get_time' } },
      }),
    );
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_request_error');
    expect(err.type).toBe('invalid_request_error');
    expect(err.param).toBe('tool_choice');
    expect(err.message).toMatch(/get_time/);
    const noTools = await api(h.t.baseUrl, a.key).post('/v1/chat/completions', {
      model: 'svc-auto',
      messages: [{ role: 'user', content: 'x' }],
      tool_choice: 'required',
    });
    expect(noTools.status).toBe(400);
    expect(noTools.body).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', code: 'invalid_request_error', param: 'tool_choice' } });
    expect(h.models.requests.length).toBe(before);
  });

  it('passes tools through when streamed, and the tool result back to the model', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const stream = await openaiClient(h.t, a.key).chat.completions.create({
      model: 'svc-auto',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [weather],
      stream: true,
    });
    const calls: { id?: string; name?: string; args: string }[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const d of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[d.index] ??= { args: '' };
        if (d.id) calls[d.index].id = d.id;
        if (d.function?.name) calls[d.index].name = d.function.name;
        calls[d.index].args += d.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('tool_calls');
    expect(calls).toHaveLength(1);
    expect(calls[0].name).toBe('get_weather');
    expect(JSON.parse(calls[0].args)).toEqual({ city: 'Oslo' });

    h.models.enqueue({ content: 'It is 3 degrees in Oslo.' });
    const res = await openaiClient(h.t, a.key).chat.completions.create({
      model: 'svc-auto',
      tools: [weather],
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: null, tool_calls: [{ id: calls[0].id!, type: 'function', function: { name: 'get_weather', arguments: calls[0].args } }] },
        { role: 'tool', tool_call_id: calls[0].id!, content: '{"celsius":3}' },
      ],
    });
    expect(res.choices[0].message.content).toBe('It is 3 degrees in Oslo.');
    expect(h.lastModelRequest().messages.at(-1)).toEqual({ role: 'tool', tool_call_id: calls[0].id, content: '{"celsius":3}' });
  });

  it('svc-sensitive and the +sensitive suffix run on the local model: nothing reaches the model server', async () => {
    const before = h.models.requests.length;
    for (const model of ['svc-sensitive', 'svc-auto+sensitive', `${PREMIUM_MODEL}+sensitive`]) {
      const res = await openaiClient(h.t, a.key).chat.completions.create({ model, messages: [{ role: 'user', content: 'Private matter' }], tools: [weather] });
      expect(res.model).toBe(LOCAL_MODEL_NAME);
      expect(typeof res.choices[0].message.content).toBe('string');
      expect(res.usage?.total_tokens).toBeGreaterThan(0);
    }
    const stream = await openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-sensitive', messages: [{ role: 'user', content: 'Private' }], stream: true });
    for await (const chunk of stream) expect(chunk.model).toBe(LOCAL_MODEL_NAME);
    expect(h.models.requests.length).toBe(before);
  });

  it('naming a large model moves the call to the heavier class, and the ledger records the answering class', async () => {
    const res = await openaiClient(h.t, a.key).chat.completions.create({ model: 'claude-opus-4-1', messages: [{ role: 'user', content: 'Deep question' }] });
    expect(res.model).toBe(PREMIUM_MODEL);
    const exact = await openaiClient(h.t, a.key).chat.completions.create({ model: STANDARD_MODEL, messages: [{ role: 'user', content: 'Plain' }] });
    expect(exact.model).toBe(STANDARD_MODEL);
    const entries = await h.t.app.services.orm.em
      .fork()
      .find(UsageEntry, { workspaceId: a.workspaceId, route: 'POST /v1/chat/completions' }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    expect(entries.at(-2)).toMatchObject({ modelClass: 'premium', model: PREMIUM_MODEL, kind: 'question' });
    expect(entries.at(-1)).toMatchObject({ modelClass: 'standard', model: STANDARD_MODEL });
    expect(entries.at(-1)!.totalTokens).toBe(exact.usage!.total_tokens);
  });

  it('x-svc-conversation: a known conversation is recorded in the certificate, an unknown one is 404 conversation_not_found', async () => {
    const em = h.t.app.services.orm.em.fork();
    em.create(Conversation, { id: 'conv_gateway_1', workspaceId: a.workspaceId, createdAt: h.t.clock.now() });
    await em.flush();
    const { response } = await openaiClient(h.t, a.key, { 'x-svc-conversation': 'conv_gateway_1' })
      .chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'In the conversation' }] })
      .withResponse();
    const cert = await em.findOneOrFail(ProofCertificate, { id: response.headers.get('x-svc-proof')! });
    expect(cert.conversationId).toBe('conv_gateway_1');

    const err = await openaiError(
      openaiClient(h.t, a.key, { 'x-svc-conversation': 'conv_missing' }).chat.completions.create({
        model: 'svc-auto',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(err.status).toBe(404);
    expect(err.code).toBe('conversation_not_found');
    // Another workspace's conversation looks missing.
    const b = await h.t.tenant();
    const other = await api(h.t.baseUrl, b.key, { 'x-svc-conversation': 'conv_gateway_1' }).post('/v1/chat/completions', {
      model: 'svc-auto',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('conversation_not_found');
  });
});

describe('a stream the client abandons', () => {
  it('aborts the model call, meters what ran and issues the certificate x-svc-proof named, marked abandoned', async () => {
    const tenant = await h.t.tenant();
    h.models.enqueue({ chunks: ['first piece ', 'second piece'], hang: true });
    const controller = new AbortController();
    const res = await fetch(`${h.t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Tell me a long story' }], stream: true }),
      signal: controller.signal,
    });
    const proofId = res.headers.get('x-svc-proof')!;
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('second piece')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const em = h.t.app.services.orm.em;
    await expect.poll(() => em.fork().count(UsageEntry, { workspaceId: tenant.workspaceId }), { timeout: 5_000, interval: 25 }).toBe(1);
    const entries = await em.fork().find(UsageEntry, { workspaceId: tenant.workspaceId });
    expect(entries[0]).toMatchObject({ route: 'POST /v1/chat/completions', modelClass: 'standard' });
    expect(entries[0]!.completionTokens).toBeGreaterThan(0);
    const client = api(h.t.baseUrl, tenant.key);
    await expect.poll(async () => (await client.get(`/v1/proofs/${proofId}`)).status, { timeout: 5_000, interval: 25 }).toBe(200);
    const proof = (await client.get(`/v1/proofs/${proofId}`)).body;
    expect(proof).toMatchObject({ id: proofId, outcome: 'abandoned', answerHash: sha256('first piece second piece') });
    expect(proof.usage.completionTokens).toBeGreaterThan(0);
    expect((await client.get(`/v1/proofs/${proofId}/verify`)).body).toMatchObject({ valid: true });
  });
});

describe('POST /v1/chat/completions errors (OpenAI envelope)', () => {
  const post = (body: unknown, key = a.key) => api(h.t.baseUrl, key).post('/v1/chat/completions', body);

  it('400 invalid_request_error for missing or empty messages, or no user message', async () => {
    for (const body of [
      { model: 'svc-auto' },
      { model: 'svc-auto', messages: [] },
      { model: 'svc-auto', messages: [{ role: 'system', content: 'Only instructions' }] },
      { model: 'svc-auto', messages: [{ role: 'assistant', content: 'Hello' }] },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', code: 'invalid_request_error', param: 'messages' } });
    }
    const viaSdk = await openaiError(openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-auto', messages: [] }));
    expect(viaSdk.status).toBe(400);
    expect(viaSdk.code).toBe('invalid_request_error');
    expect(viaSdk.param).toBe('messages');
  });

  it('400 invalid_request_error naming the field for other malformed bodies (never a 500)', async () => {
    const cases: [unknown, string][] = [
      [{ messages: [{ role: 'user', content: 'x' }] }, 'model'],
      [{ model: 'svc-auto', messages: 'hello' }, 'messages'],
      [{ model: 'svc-auto', messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0].role'],
      [{ model: 'svc-auto', messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
      [{ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }], temperature: 9 }, 'temperature'],
      [{ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }], n: 3 }, 'n'],
      [{ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function' }] }, 'tools[0].function'],
      [{ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }], tool_choice: 'sometimes' }, 'tool_choice'],
      [{ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }], tool_choice: { type: 'function' } }, 'tool_choice'],
    ];
    for (const [body, param] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request_error', param });
    }
  });

  it('malformed JSON, non-object and oversized bodies answer in the dialect shape too', async () => {
    const raw = (path: string, body: string) =>
      fetch(`${h.t.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body });
    const bad = await raw('/v1/chat/completions', '{"model": ');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request_error', message: expect.stringMatching(/malformed json/i) });
    const array = await raw('/v1/chat/completions', '[1,2]');
    expect(array.status).toBe(400);
    expect((await array.json()).error.code).toBe('invalid_request_error');
    const anthropic = await raw('/v1/messages', '{oops');
    expect(anthropic.status).toBe(400);
    expect(await anthropic.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
    const huge = await raw('/v1/messages', JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'x'.repeat(2_000_000) }] }));
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.type).toBe('request_too_large');
    // Bodies JSON can carry but RFC 8785 cannot hash (a number beyond the double range, a lone surrogate):
    // 400 before any model runs, on all three routes; nothing metered.
    const tenant = await h.t.tenant();
    const before = h.models.requests.length;
    const unhashable: [string, string][] = [
      ['/v1/chat/completions', '{"model":"svc-auto","messages":[{"role":"user","content":"x"}],"seed":1e400}'],
      ['/v1/chat/completions', '{"model":"svc-auto","stream":true,"messages":[{"role":"user","content":"\\ud800"}]}'],
      ['/v1/messages', '{"model":"svc-auto","max_tokens":5,"messages":[{"role":"user","content":"x"}],"metadata":{"n":-1e999}}'],
      ['/v1/messages/count_tokens', '{"model":"svc-auto","messages":[{"role":"user","content":"x"}],"metadata":{"n":1e400}}'],
    ];
    for (const [path, body] of unhashable) {
      const res = await fetch(`${h.t.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' }, body });
      expect(res.status, body).toBe(400);
      const json = await res.json();
      expect(path.startsWith('/v1/messages') ? json.error.type : json.error.code).toBe('invalid_request_error');
    }
    expect(h.models.requests.length).toBe(before);
    expect(await h.t.app.services.orm.em.fork().count(UsageEntry, { workspaceId: tenant.workspaceId })).toBe(0);
    // Other routes keep the native shape.
    const native = await raw('/v1/agents', '{"name": ');
    expect(await native.json()).toEqual({ error: 'Malformed JSON body' });
  });

  it('404 model_not_found for an unknown agent slug', async () => {
    const err = await openaiError(openaiClient(h.t, a.key).chat.completions.create({ model: 'agent:nobody', messages: [{ role: 'user', content: 'x' }] }));
    expect(err.status).toBe(404);
    expect(err.code).toBe('model_not_found');
    expect(err.error).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found', param: 'model' });
  });

  it('501 address_not_supported for the reserved debate: address', async () => {
    const res = await post({ model: 'debate:ada,bob', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(501);
    expect(res.body.error).toMatchObject({ code: 'address_not_supported', param: 'model' });
    expect(typeof res.body.error.message).toBe('string');
  });

  it('402 insufficient_quota in the OpenAI envelope when no questions are left; nothing consumed, no model called', async () => {
    const poor = await h.t.tenant();
    await exhaustAllowance(h.t, poor);
    const before = h.models.requests.length;
    const err = await openaiError(openaiClient(h.t, poor.key).chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }));
    expect(err.status).toBe(402);
    expect(err.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota', param: null });
    const streamed = await post({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }], stream: true }, poor.key);
    expect(streamed.status).toBe(402);
    expect(streamed.body.error.code).toBe('insufficient_quota');
    expect(h.models.requests.length).toBe(before);
    const certs = await h.t.app.services.orm.em.fork().count(ProofCertificate, { workspaceId: poor.workspaceId });
    expect(certs).toBe(0);
  });

  it('500 server_error when the model provider fails', async () => {
    h.models.enqueue({ status: 400 });
    const err = await openaiError(openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }));
    expect(err.status).toBe(500);
    expect(err.error).toMatchObject({ type: 'server_error', code: 'server_error' });
    expect(JSON.stringify(err.error)).not.toContain('Scripted failure');
  });

  it('mid-stream failure: data: {"error":{...}} then [DONE]; the SDK raises it', async () => {
    h.models.enqueue({ status: 400 });
    const res = await fetch(`${h.t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    expect(res.status).toBe(200);
    const events = sseEvents(await res.text());
    expect(events.at(-1)).toEqual({ event: '', data: '[DONE]' });
    const error = events.at(-2)!.data;
    expect(error).toEqual({ error: { message: expect.any(String), type: 'server_error', code: 'server_error', param: null } });
    // The id the header named is a certificate of the failure, in the chain and verifiable.
    const proofId = res.headers.get('x-svc-proof')!;
    const proof = await api(h.t.baseUrl, a.key).get(`/v1/proofs/${proofId}`);
    expect(proof.status).toBe(200);
    expect(proof.body).toMatchObject({ id: proofId, outcome: 'failed', answerHash: sha256(''), usage: { completionTokens: 0 } });
    expect(proof.body.usage.promptTokens).toBeGreaterThan(0);
    expect((await api(h.t.baseUrl, a.key).get(`/v1/proofs/${proofId}/verify`)).body).toMatchObject({ valid: true });

    h.models.enqueue({ status: 400 });
    const stream = await openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }], stream: true });
    const failure = await (async () => {
      for await (const _ of stream) void _;
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
  });

  it('authentication-stage errors keep the native shape', async () => {
    const none = await api(h.t.baseUrl).post('/v1/chat/completions', { model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] });
    expect(none.status).toBe(401);
    expect(typeof none.body.error).toBe('string');

    const webhooksOnly = await h.t.key(a, { scopes: ['webhooks'] });
    const denied = await post({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }, webhooksOnly);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'scope_denied', error: expect.any(String) });

    const readOnly = await h.t.key(a, { scopes: ['engine'], readonly: true });
    const ro = await post({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }, readOnly);
    expect(ro.status).toBe(403);
    expect(ro.body).toMatchObject({ code: 'read_only_key', error: expect.any(String) });

    // The key is judged before the body: a refused key gets its 403 whatever it sent.
    for (const [key, code] of [
      [webhooksOnly, 'scope_denied'],
      [readOnly, 'read_only_key'],
    ]) {
      for (const body of [{ model: 'svc-auto' }, { model: 'svc-auto', messages: [] }, { model: 'debate:x', messages: [{ role: 'user', content: 'x' }] }]) {
        const refused = await post(body, key);
        expect(refused.status, `${code} ${JSON.stringify(body)}`).toBe(403);
        expect(refused.body).toMatchObject({ code, error: expect.any(String) });
      }
    }

    const engine = await h.t.key(a, { scopes: ['engine'], ratePerMinute: 1 });
    expect((await post({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }, engine)).status).toBe(200);
    const limited = await post({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }, engine);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', error: expect.any(String) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const budget = await h.t.key(a, { monthlyQuestionLimit: 1 });
    expect((await post({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }, budget)).status).toBe(200);
    const spent = await post({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }, budget);
    expect(spent.status).toBe(402);
    expect(spent.body).toMatchObject({ code: 'API_KEY_BUDGET_EXCEEDED', error: expect.any(String) });

    const suspended = await h.t.tenant();
    await setSuspended({ em: h.t.app.services.orm.em.fork(), clock: h.t.clock }, suspended.workspaceId, true);
    const refused = await post({ model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] }, suspended.key);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'client_suspended', error: expect.any(String) });
  });
});
