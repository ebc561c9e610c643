import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MODEL_NAME } from '../../src/modules/models/local.provider.js';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { createAgent, persona } from '../support/agents.js';
import { PREMIUM_MODEL, STANDARD_MODEL, anthropicClient, anthropicError, openaiClient, openaiError, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';
import { sseEvents } from '../support/sse.js';

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
  await createAgent(h.t, a.key, persona('Ada'));
});
afterAll(() => h.close());

const city = {
  type: 'object',
  properties: { name: { type: 'string' }, population: { type: 'integer', minimum: 1 }, capital: { type: 'boolean' } },
  required: ['name', 'population', 'capital'],
  additionalProperties: false,
};
const cityFormat = { type: 'json_schema' as const, json_schema: { name: 'city', schema: city, strict: true } };
const ask = { messages: [{ role: 'user' as const, content: 'Describe Lyon as JSON.' }] };

describe('response_format on the chat completions dialect', () => {
  it('is forwarded to an OpenAI-compatible model as sent, and its JSON answer passes', async () => {
    h.models.enqueue({ content: '{"name":"Lyon","population":522000,"capital":false}' });
    const res = await openaiClient(h.t, a.key).chat.completions.create({ model: STANDARD_MODEL, ...ask, response_format: cityFormat });
    expect(h.lastModelRequest().response_format).toEqual(cityFormat);
    expect(JSON.parse(res.choices[0].message.content ?? '')).toEqual({ name: 'Lyon', population: 522000, capital: false });
  });

  it('becomes output_config.format on an Anthropic model; json_object an instruction there', async () => {
    h.models.enqueue({ content: '{"name":"Lyon","population":522000,"capital":false}' }, { content: 'Sure: {"ok":true}' });
    const client = openaiClient(h.t, a.key);
    await client.chat.completions.create({ model: PREMIUM_MODEL, ...ask, response_format: cityFormat });
    expect(h.lastModelRequest().output_config).toEqual({ format: { type: 'json_schema', schema: city } });
    const res = await client.chat.completions.create({ model: PREMIUM_MODEL, ...ask, response_format: { type: 'json_object' } });
    expect(h.lastModelRequest().system).toMatch(/JSON object/);
    expect(res.choices[0].message.content).toBe('{"ok":true}');
  });

  it('a schema with an $id is accepted on every call, and two callers\' schemas under one $id never mix', async () => {
    const withId = (props: Record<string, unknown>, required: string[]) => ({
      type: 'json_schema' as const,
      json_schema: { name: 'shared', schema: { $id: 'https://example.test/answer.json', type: 'object', properties: props, required, additionalProperties: false } },
    });
    const first = withId({ name: { type: 'string' } }, ['name']);
    const second = withId({ count: { type: 'integer' } }, ['count']);
    const client = openaiClient(h.t, a.key);
    h.models.enqueue({ content: '{"name":"Lyon"}' }, { content: '{"name":"Lyon"}' }, { content: '{"count":3}' }, { content: '{"name":"Lyon"}' });
    for (let i = 0; i < 2; i++) {
      const res = await client.chat.completions.create({ model: STANDARD_MODEL, ...ask, response_format: first });
      expect(JSON.parse(res.choices[0].message.content ?? '')).toEqual({ name: 'Lyon' });
    }
    // Another schema under the same $id is validated by its own rules, not by the first one's.
    const counted = await client.chat.completions.create({ model: STANDARD_MODEL, ...ask, response_format: second });
    expect(JSON.parse(counted.choices[0].message.content ?? '')).toEqual({ count: 3 });
    const wrong = await openaiError(client.chat.completions.create({ model: STANDARD_MODEL, ...ask, response_format: second }));
    expect(wrong.status).toBe(500);
    expect(wrong.message).toMatch(/does not match the response_format schema/);
  });

  it('a model answer that does not match the schema is a 500 in the dialect shape, never prose', async () => {
    h.models.enqueue({ content: 'Lyon is a large city.' }, { content: '{"name":"Lyon"}' });
    const client = openaiClient(h.t, a.key);
    const prose = await openaiError(client.chat.completions.create({ model: STANDARD_MODEL, ...ask, response_format: cityFormat }));
    expect(prose.status).toBe(500);
    expect(prose.error).toMatchObject({ type: 'server_error', code: 'server_error' });
    const partial = await openaiError(client.chat.completions.create({ model: STANDARD_MODEL, ...ask, response_format: cityFormat }));
    expect(partial.status).toBe(500);
    expect(partial.message).toMatch(/does not match the response_format schema/);
  });

  it('the local model and an agent fill the schema from their answer; the JSON validates', async () => {
    const client = openaiClient(h.t, a.key);
    const local = await client.chat.completions.create({ model: 'svc-sensitive', ...ask, response_format: cityFormat });
    expect(local.model).toBe(LOCAL_MODEL_NAME);
    const value = JSON.parse(local.choices[0].message.content ?? '');
    expect(value).toMatchObject({ population: 1, capital: false });
    expect(typeof value.name).toBe('string');
    h.models.enqueue({ content: 'Lyon, about half a million people.' });
    const agent = await client.chat.completions.create({ model: 'agent:ada', ...ask, response_format: cityFormat });
    expect(JSON.parse(agent.choices[0].message.content ?? '')).toEqual({ name: 'Lyon, about half a million people.', population: 1, capital: false });
    const obj = await client.chat.completions.create({ model: 'svc-sensitive', ...ask, response_format: { type: 'json_object' } });
    expect(Object.keys(JSON.parse(obj.choices[0].message.content ?? ''))).toEqual(['answer']);
  });

  it('a schema the local model cannot fill, and an invalid schema, are 400s before any model runs', async () => {
    const before = h.models.requests.length;
    const client = openaiClient(h.t, a.key);
    const pattern = { type: 'json_schema' as const, json_schema: { name: 'code', schema: { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]{5}$' } }, required: ['code'] } } };
    const unfillable = await openaiError(client.chat.completions.create({ model: 'svc-sensitive', ...ask, response_format: pattern }));
    expect(unfillable.status).toBe(400);
    expect(unfillable.error).toMatchObject({ type: 'invalid_request_error', param: 'response_format' });
    const invalid = await openaiError(
      client.chat.completions.create({ model: STANDARD_MODEL, ...ask, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'wrong' } } } }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.error).toMatchObject({ param: 'response_format' });
    expect(h.models.requests.length).toBe(before);
  });

  it('a structured stream sends the validated JSON only, and a failure as an in-stream error', async () => {
    h.models.enqueue({ chunks: ['{"name":"Lyon",', '"population":5,', '"capital":false}'] }, { chunks: ['Not ', 'JSON'] });
    const send = () =>
      api(h.t.baseUrl, a.key).post('/v1/chat/completions', { model: STANDARD_MODEL, ...ask, response_format: cityFormat, stream: true });
    const ok = sseEvents((await send()).text);
    const text = ok.flatMap((e) => (e.data === '[DONE]' ? [] : [e.data.choices[0]?.delta.content ?? ''])).join('');
    expect(JSON.parse(text)).toEqual({ name: 'Lyon', population: 5, capital: false });
    const failed = sseEvents((await send()).text);
    expect(failed.some((e) => e.data !== '[DONE]' && e.data.choices?.[0]?.delta.content === 'Not ')).toBe(false);
    expect(failed.at(-2)?.data.error).toMatchObject({ type: 'server_error' });
  });
});

describe('output_config.format on the Anthropic dialect', () => {
  it('is forwarded to an Anthropic model and validated', async () => {
    h.models.enqueue({ content: '{"name":"Lyon","population":3,"capital":false}' });
    const res = await anthropicClient(h.t, a.key).messages.create({
      model: PREMIUM_MODEL,
      max_tokens: 100,
      ...ask,
      output_config: { format: { type: 'json_schema', schema: city } },
    });
    expect(h.lastModelRequest().output_config).toEqual({ format: { type: 'json_schema', schema: city } });
    expect(res.content[0]).toMatchObject({ type: 'text', text: '{"name":"Lyon","population":3,"capital":false}' });
  });

  it('on an OpenAI-compatible model it becomes response_format json_schema', async () => {
    h.models.enqueue({ content: '{"name":"Lyon","population":3,"capital":false}' });
    await anthropicClient(h.t, a.key).messages.create({
      model: STANDARD_MODEL,
      max_tokens: 100,
      ...ask,
      output_config: { format: { type: 'json_schema', schema: city } },
    });
    expect(h.lastModelRequest().response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema: city } });
  });
});

describe('tool_choice a model cannot honour is refused', () => {
  const weather = { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: {} } } };
  it('on the local model and an agent address: 400 param tool_choice in either dialect', async () => {
    const before = h.models.requests.length;
    const client = openaiClient(h.t, a.key);
    for (const model of ['svc-sensitive', 'agent:ada']) {
      const err = await openaiError(client.chat.completions.create({ model, ...ask, tools: [weather], tool_choice: 'required' }));
      expect(err.status).toBe(400);
      expect(err.error).toMatchObject({ type: 'invalid_request_error', param: 'tool_choice' });
    }
    const anth = await anthropicError(
      anthropicClient(h.t, a.key).messages.create({
        model: 'agent:ada',
        max_tokens: 50,
        ...ask,
        tools: [{ name: 'weather', input_schema: { type: 'object' } }],
        tool_choice: { type: 'tool', name: 'weather' },
      }),
    );
    expect(anth.status).toBe(400);
    expect(anth.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(h.models.requests.length).toBe(before);
  });

  it('auto and none stay accepted on the local model', async () => {
    const res = await openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-sensitive', ...ask, tools: [weather], tool_choice: 'auto' });
    expect(res.choices[0].finish_reason).toBe('stop');
  });
});
