import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
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

const provider = () => createOpenAI({ baseURL: `${h.t.baseUrl}/v1`, apiKey: a.key, fetch: checkedFetch(h.t.baseUrl) });

const weatherTool = () =>
  tool({
    description: 'Weather of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, sky: 'clear' }),
  });

/** The default provider `openai(modelId)` speaks the Responses API; `.chat(modelId)` chat completions. */
describe.each([
  ['default provider (Responses API)', (id: string) => provider()(id)],
  ['.chat() (Chat Completions)', (id: string) => provider().chat(id)],
])('Vercel AI SDK, %s', (_name, model) => {
  it('generateText answers, with usage', async () => {
    h.models.enqueue({ content: 'Forty-two.', usage: { prompt: 9, completion: 3 } });
    const res = await generateText({ model: model(STANDARD_MODEL), prompt: 'Answer?', maxRetries: 0 });
    expect(res.text).toBe('Forty-two.');
    expect(res.usage).toMatchObject({ inputTokens: 9, outputTokens: 3 });
  });

  it('streamText streams the text', async () => {
    h.models.enqueue({ chunks: ['Hel', 'lo ', 'there'] });
    const res = streamText({ model: model(STANDARD_MODEL), prompt: 'Hi', maxRetries: 0 });
    const parts: string[] = [];
    for await (const piece of res.textStream) parts.push(piece);
    expect(parts.join('')).toBe('Hello there');
    expect(await res.finishReason).toBe('stop');
  });

  it('tools: the model calls one, the SDK runs it and sends the result back for the final answer', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, { content: 'Clear sky in Paris.' });
    const res = await generateText({
      model: model(STANDARD_MODEL),
      prompt: 'Weather in Paris?',
      tools: { weather: weatherTool() },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(res.text).toBe('Clear sky in Paris.');
    expect(res.steps[0].toolCalls[0]).toMatchObject({ toolName: 'weather', input: { city: 'Paris' } });
    const sent = h.lastModelRequest().messages as { role: string; content: unknown }[];
    expect(sent.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('clear') });
  });

  it('streamText with tools streams the tool call and the final answer', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] }, { chunks: ['Clear ', 'in Oslo.'] });
    const res = streamText({ model: model(STANDARD_MODEL), prompt: 'Weather in Oslo?', tools: { weather: weatherTool() }, stopWhen: stepCountIs(3), maxRetries: 0 });
    let text = '';
    for await (const piece of res.textStream) text += piece;
    expect(text).toBe('Clear in Oslo.');
    expect((await res.steps)[0].toolCalls[0]).toMatchObject({ toolName: 'weather', input: { city: 'Oslo' } });
  });
});

describe('Vercel AI SDK default provider: a conversation continued with earlier answers', () => {
  it('refers to earlier assistant text by item id under the default store: true (refused, 400); with store: false it sends the text and works', async () => {
    h.models.enqueue({ content: 'Paris.' });
    const model = provider()(STANDARD_MODEL);
    const first = await generateText({ model, prompt: 'Capital of France?', maxRetries: 0 });
    const messages = [{ role: 'user' as const, content: 'Capital of France?' }, ...first.response.messages, { role: 'user' as const, content: 'And of Italy?' }];
    const before = h.models.requests.length;
    await expect(generateText({ model, messages, maxRetries: 0 })).rejects.toMatchObject({ statusCode: 400, responseBody: expect.stringContaining('item_reference') });
    expect(h.models.requests.length).toBe(before);
    h.models.enqueue({ content: 'Rome.' });
    const second = await generateText({ model, messages, providerOptions: { openai: { store: false } }, maxRetries: 0 });
    expect(second.text).toBe('Rome.');
    expect(h.lastModelRequest().messages).toEqual([
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: 'Paris.' },
      { role: 'user', content: 'And of Italy?' },
    ]);
  });
});
