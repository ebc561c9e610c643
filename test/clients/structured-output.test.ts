import { createOpenAI } from '@ai-sdk/openai';
import { generateObject, streamObject } from 'ai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TestTenant } from '../support/app.js';
import { checkedFetch } from '../support/openapi-validation.js';
import { STANDARD_MODEL, openaiClient, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
});
afterAll(() => h.close());

const City = z.object({ name: z.string(), population: z.number().int(), tags: z.array(z.string()) });

describe('structured output through the clients people use', () => {
  it('AI SDK generateObject on .chat(): response_format json_schema is forwarded and the object comes back', async () => {
    h.models.enqueue({ content: '{"name":"Lyon","population":522000,"tags":["food"]}' });
    const provider = createOpenAI({ baseURL: `${h.t.baseUrl}/v1`, apiKey: a.key, fetch: checkedFetch(h.t.baseUrl) });
    const { object } = await generateObject({ model: provider.chat(STANDARD_MODEL), schema: City, prompt: 'Describe Lyon.', maxRetries: 0 });
    expect(object).toEqual({ name: 'Lyon', population: 522000, tags: ['food'] });
    expect(h.lastModelRequest().response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: { type: 'object' } } });
  });

  it('AI SDK generateObject on the default provider (Responses API): text.format json_schema is forwarded', async () => {
    h.models.enqueue({ content: '{"name":"Nice","population":340000,"tags":[]}' });
    const provider = createOpenAI({ baseURL: `${h.t.baseUrl}/v1`, apiKey: a.key, fetch: checkedFetch(h.t.baseUrl) });
    const { object } = await generateObject({ model: provider(STANDARD_MODEL), schema: City, prompt: 'Describe Nice.', maxRetries: 0 });
    expect(object).toEqual({ name: 'Nice', population: 340000, tags: [] });
    expect(h.lastModelRequest().response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: { type: 'object' } } });
  });

  it('AI SDK generateObject on the local model (svc-sensitive): an object valid against the schema', async () => {
    const provider = createOpenAI({ baseURL: `${h.t.baseUrl}/v1`, apiKey: a.key, fetch: checkedFetch(h.t.baseUrl) });
    const { object } = await generateObject({ model: provider.chat('svc-sensitive'), schema: City, prompt: 'Describe Lyon.', maxRetries: 0 });
    expect(City.parse(object)).toEqual(object);
  });

  it('AI SDK streamObject on both providers: the validated JSON streams as one piece and parses', async () => {
    const provider = createOpenAI({ baseURL: `${h.t.baseUrl}/v1`, apiKey: a.key, fetch: checkedFetch(h.t.baseUrl) });
    for (const model of [provider.chat(STANDARD_MODEL), provider(STANDARD_MODEL)]) {
      h.models.enqueue({ chunks: ['{"name":"Lille",', '"population":236000,"tags":["north"]}'] });
      const res = streamObject({ model, schema: City, prompt: 'Describe Lille.', maxRetries: 0 });
      for await (const _partial of res.partialObjectStream) void _partial;
      expect(await res.object).toEqual({ name: 'Lille', population: 236000, tags: ['north'] });
    }
  });

  it('openai.chat.completions.parse with zodResponseFormat gives message.parsed', async () => {
    h.models.enqueue({ content: '{"name":"Lyon","population":3,"tags":[]}' });
    const res = await openaiClient(h.t, a.key).chat.completions.parse({
      model: STANDARD_MODEL,
      messages: [{ role: 'user', content: 'Describe Lyon.' }],
      response_format: zodResponseFormat(City, 'city'),
    });
    expect(res.choices[0].message.parsed).toEqual({ name: 'Lyon', population: 3, tags: [] });
    expect(h.lastModelRequest().response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'city', strict: true } });
  });
});
