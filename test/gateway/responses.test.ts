import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MODEL_NAME } from '../../src/modules/models/local.provider.js';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { createAgent, persona } from '../support/agents.js';
import { PREMIUM_MODEL, STANDARD_MODEL, exhaustAllowance, openaiClient, openaiError, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';
import { sseEvents } from '../support/sse.js';

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
  await createAgent(h.t, a.key, persona('Ada'));
});
afterAll(() => h.close());

const weather = { type: 'function' as const, name: 'weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false };

describe('POST /v1/responses (official openai client)', () => {
  it('answers text input with instructions: output message, usage, x-svc-proof and a certificate', async () => {
    h.models.enqueue({ content: 'Forty-two.', usage: { prompt: 12, completion: 3 } });
    const { data, response } = await openaiClient(h.t, a.key)
      .responses.create({ model: 'svc-auto', instructions: 'Be brief.', input: 'Answer?' })
      .withResponse();
    expect(data).toMatchObject({ object: 'response', status: 'completed', model: STANDARD_MODEL, instructions: 'Be brief.' });
    expect(data.output_text).toBe('Forty-two.');
    expect(data.output[0]).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Forty-two.' }] });
    expect(data.usage).toMatchObject({ input_tokens: 12, output_tokens: 3, total_tokens: 15 });
    expect(h.lastModelRequest().messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Answer?' },
    ]);
    const proofId = response.headers.get('x-svc-proof');
    const cert = await api(h.t.baseUrl, a.key).get(`/v1/proofs/${proofId}`);
    expect(cert.body).toMatchObject({ route: 'POST /v1/responses', modelAddress: 'svc-auto', model: STANDARD_MODEL });
  });

  it('input items: messages, function_call and function_call_output map to the conversation; tools and tool_choice are forwarded', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, { content: 'Sunny in Paris.' });
    const client = openaiClient(h.t, a.key);
    const first = await client.responses.create({ model: PREMIUM_MODEL, input: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weather], tool_choice: 'required' });
    expect(h.lastModelRequest()).toMatchObject({ tool_choice: { type: 'any' }, tools: [{ name: 'weather' }] });
    const call = first.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'weather', arguments: '{"city":"Paris"}' });
    if (call?.type !== 'function_call') throw new Error('no call');
    const second = await client.responses.create({
      model: STANDARD_MODEL,
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
        { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"clear"}' },
      ],
      tools: [weather],
    });
    expect(second.output_text).toBe('Sunny in Paris.');
    expect(h.lastModelRequest().messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: call.call_id, type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: call.call_id, content: '{"sky":"clear"}' },
    ]);
  });

  it('streams the named events in order; .stream() assembles the final response', async () => {
    h.models.enqueue({ chunks: ['Hel', 'lo'], usage: { prompt: 5, completion: 2 } });
    const stream = openaiClient(h.t, a.key).responses.stream({ model: STANDARD_MODEL, input: 'Hi' });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    const final = await stream.finalResponse();
    expect(text).toBe('Hello');
    expect(final.output_text).toBe('Hello');
    expect(final.usage).toMatchObject({ input_tokens: 5, output_tokens: 2 });
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('streams tool calls as function_call items; the raw stream has event names, numbered events and x-svc-proof', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] });
    const res = await api(h.t.baseUrl, a.key).post('/v1/responses', { model: STANDARD_MODEL, input: 'Weather in Oslo?', tools: [weather], stream: true });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(res.headers.get('x-svc-proof')).toMatch(/^prf_/);
    const events = sseEvents(res.text);
    expect(events.every((e) => e.event === e.data.type)).toBe(true);
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.event).slice(2)).toEqual([
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.at(-1)?.data.response.output[0]).toMatchObject({ type: 'function_call', name: 'weather', arguments: '{"city":"Oslo"}' });
  });

  it('text.format json_schema: forwarded as response_format, parsed by responses.parse', async () => {
    h.models.enqueue({ content: '{"city":"Lyon"}' });
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const res = await openaiClient(h.t, a.key).responses.parse({
      model: STANDARD_MODEL,
      input: 'Which city?',
      text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } },
    });
    expect(h.lastModelRequest().response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } });
    expect(res.output_parsed).toEqual({ city: 'Lyon' });
    const local = await openaiClient(h.t, a.key).responses.create({
      model: 'svc-sensitive',
      input: 'Which city?',
      text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } },
    });
    expect(local.model).toBe(LOCAL_MODEL_NAME);
    expect(Object.keys(JSON.parse(local.output_text))).toEqual(['city']);
  });

  it('agent addresses answer through the chat pipeline', async () => {
    h.models.enqueue({ content: 'I am Ada.' });
    const res = await openaiClient(h.t, a.key).responses.create({ model: 'agent:ada', input: 'Who are you?' });
    expect(res.output_text).toBe('I am Ada.');
  });

  it('previous_response_id and item_reference are refused clearly (400 naming the field); nothing runs', async () => {
    const before = h.models.requests.length;
    const client = openaiClient(h.t, a.key);
    const prev = await openaiError(client.responses.create({ model: STANDARD_MODEL, input: 'Go on', previous_response_id: 'resp_x' }));
    expect(prev.status).toBe(400);
    expect(prev.error).toMatchObject({ type: 'invalid_request_error', param: 'previous_response_id' });
    expect(prev.message).toMatch(/stores no responses/);
    const ref = await openaiError(
      client.responses.create({ model: STANDARD_MODEL, input: [{ role: 'user', content: 'Hi' }, { type: 'item_reference', id: 'msg_1' }] }),
    );
    expect(ref.error).toMatchObject({ param: 'input[1]' });
    expect(h.models.requests.length).toBe(before);
  });

  it('errors in the OpenAI shape: missing model, no user input, unknown agent, n/a tool types, debate:', async () => {
    const post = (body: unknown) => api(h.t.baseUrl, a.key).post('/v1/responses', body);
    expect((await post({ input: 'x' })).body.error).toMatchObject({ type: 'invalid_request_error', param: 'model' });
    expect((await post({ model: 'svc-auto', input: [{ role: 'system', content: 'x' }] })).body.error).toMatchObject({ param: 'messages' });
    expect((await post({ model: 'svc-auto', input: 'x', tools: [{ type: 'web_search' }] })).body.error).toMatchObject({ param: 'tools[0].type' });
    const unknown = await post({ model: 'agent:nobody', input: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect((await post({ model: 'debate:x', input: 'x' })).status).toBe(501);
    expect((await post('{not json')).body.error).toMatchObject({ type: 'invalid_request_error' });
  });

  it('a model failure mid-stream is an error event then response.failed; plain it is a 500', async () => {
    // The provider retries once: two failures per call.
    h.models.enqueue({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const plain = await api(h.t.baseUrl, a.key).post('/v1/responses', { model: STANDARD_MODEL, input: 'x' });
    expect(plain.status).toBe(500);
    expect(plain.body.error).toMatchObject({ type: 'server_error', code: 'server_error' });
    const streamed = sseEvents((await api(h.t.baseUrl, a.key).post('/v1/responses', { model: STANDARD_MODEL, input: 'x', stream: true })).text);
    expect(streamed.map((e) => e.event).slice(-2)).toEqual(['error', 'response.failed']);
    expect(streamed.at(-2)?.data).toMatchObject({ type: 'error', code: 'server_error', message: expect.any(String) });
  });

  it('402 insufficient_quota when the allowance is spent; nothing runs', async () => {
    const b = await h.t.tenant();
    await exhaustAllowance(h.t, b);
    const before = h.models.requests.length;
    const err = await openaiError(openaiClient(h.t, b.key).responses.create({ model: STANDARD_MODEL, input: 'x' }));
    expect(err.status).toBe(402);
    expect(err.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    expect(h.models.requests.length).toBe(before);
  });
});
