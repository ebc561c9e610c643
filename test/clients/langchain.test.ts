import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TestTenant } from '../support/app.js';
import { checkedFetch } from '../support/openapi-validation.js';
import { STANDARD_MODEL, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
});
afterAll(() => h.close());

const weather = tool(async ({ city }: { city: string }) => `clear in ${city}`, {
  name: 'weather',
  description: 'Weather of a city',
  schema: z.object({ city: z.string() }),
});

describe.each([
  ['Chat Completions', false],
  ['Responses API', true],
])('LangChain ChatOpenAI over %s', (_name, useResponsesApi) => {
  const chat = () => new ChatOpenAI({ model: STANDARD_MODEL, apiKey: a.key, configuration: { baseURL: `${h.t.baseUrl}/v1`, fetch: checkedFetch(h.t.baseUrl) }, maxRetries: 0, useResponsesApi });

  it('invoke answers', async () => {
    h.models.enqueue({ content: 'Bonjour.' });
    const res = await chat().invoke('Say hello in French.');
    expect(res.content === 'Bonjour.' || JSON.stringify(res.content).includes('Bonjour.')).toBe(true);
  });

  it('bindTools: the tool call comes back, its result goes back to the model', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, { content: 'Clear in Paris.' });
    const model = chat().bindTools([weather]);
    const first = await model.invoke([{ role: 'user', content: 'Weather in Paris?' }]);
    expect(first.tool_calls?.[0]).toMatchObject({ name: 'weather', args: { city: 'Paris' } });
    const result = await weather.invoke(first.tool_calls![0]);
    const second = await model.invoke([{ role: 'user', content: 'Weather in Paris?' }, first, result]);
    expect(JSON.stringify(second.content)).toContain('Clear in Paris.');
    const sent = h.lastModelRequest().messages as { role: string; content: string }[];
    expect(sent.at(-1)).toMatchObject({ role: 'tool', content: 'clear in Paris' });
  });

  it('streams', async () => {
    h.models.enqueue({ chunks: ['One ', 'two'] });
    let text = '';
    for await (const chunk of await chat().stream('Count.')) text += typeof chunk.content === 'string' ? chunk.content : chunk.text;
    expect(text).toBe('One two');
  });
});
