import { Agent, OpenAIProvider, Runner, getDefaultModel, getDefaultModelSettings, setTracingDisabled, tool } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TestTenant } from '../support/app.js';
import { startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';

/*
 * The OpenAI Agents SDK with its default model settings (issue 31): an agent created without a model
 * runs on the SDK's default (a gpt-5.x model: `reasoning.effort: "none"` and `text.verbosity: "low"` on
 * the Responses API, `reasoning_effort: "none"` and `verbosity: "low"` on chat completions), and so
 * does an agent naming a gpt-5.x mini model. The harness's scripted server plays both providers: a
 * gpt-5.x name of the frontier family is answered by the Anthropic model (premium, the heaviest
 * configured), a mini one by the OpenAI-compatible model (standard).
 */

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  // No trace is exported anywhere (the SDK's default exporter would call the OpenAI platform).
  setTracingDisabled(true);
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
});
afterAll(() => h.close());

const MINI = 'gpt-5.4-mini';

const weather = tool({
  name: 'weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `clear in ${city}`,
});

it('the SDK default model is a gpt-5.x one whose default settings carry effort none and verbosity low', () => {
  expect(getDefaultModel()).toMatch(/^gpt-5\./);
  // The premise of these tests: if a newer SDK changes its defaults, they still run, but say so here.
  expect(getDefaultModelSettings()).toEqual({ reasoning: { effort: 'none' }, text: { verbosity: 'low' } });
  expect(getDefaultModelSettings(MINI)).toEqual({ reasoning: { effort: 'none' }, text: { verbosity: 'low' } });
});

describe.each([
  ['Responses API', true],
  ['Chat Completions', false],
])('OpenAI Agents SDK over %s', (_name, useResponses) => {
  const runner = () =>
    new Runner({ modelProvider: new OpenAIProvider({ apiKey: a.key, baseURL: `${h.t.baseUrl}/v1`, useResponses }), tracingDisabled: true });

  it('an agent without a model answers: effort none becomes thinking off on the Anthropic model, verbosity dropped', async () => {
    h.models.enqueue({ content: 'Hello from the default.' });
    const result = await runner().run(new Agent({ name: 'Assistant', instructions: 'Be brief.' }), 'Say hello.');
    expect(result.finalOutput).toBe('Hello from the default.');
    const sent = h.lastModelRequest();
    expect(sent.model).toBe('scripted-premium');
    expect(sent.thinking).toEqual({ type: 'disabled' });
    expect(sent.verbosity).toBeUndefined();
    expect(sent.system).toContain('Be brief.');
  });

  it('an agent naming a gpt-5.x mini model answers: effort none and verbosity low reach the OpenAI-compatible model as sent', async () => {
    h.models.enqueue({ content: 'Hello from the mini.' });
    const result = await runner().run(new Agent({ name: 'Assistant', instructions: 'Be brief.', model: MINI }), 'Say hello.');
    expect(result.finalOutput).toBe('Hello from the mini.');
    expect(h.lastModelRequest()).toMatchObject({ model: 'scripted-standard', reasoning_effort: 'none', verbosity: 'low' });
  });

  it('streams with the default settings', async () => {
    h.models.enqueue({ chunks: ['One ', 'two ', 'three'] });
    const result = await runner().run(new Agent({ name: 'Assistant', model: MINI }), 'Count.', { stream: true });
    let text = '';
    for await (const piece of result.toTextStream()) text += piece;
    await result.completed;
    expect(text).toBe('One two three');
    expect(result.finalOutput).toBe('One two three');
    expect(h.lastModelRequest()).toMatchObject({ stream: true, reasoning_effort: 'none', verbosity: 'low' });
  });

  it('calls a tool with the default settings, and the tool result goes back to the model', async () => {
    h.models.enqueue({ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] }, { content: 'Clear in Paris.' });
    const result = await runner().run(new Agent({ name: 'Assistant', tools: [weather] }), 'Weather in Paris?');
    expect(result.finalOutput).toBe('Clear in Paris.');
    const sent = h.lastModelRequest();
    // On chat completions the SDK leaves its implicit effort out for a gpt-5.6 model with tools.
    expect(sent.thinking).toEqual(useResponses ? { type: 'disabled' } : undefined);
    const lastTurn = (sent.messages as { role: string; content: { type: string; content?: string }[] }[]).at(-1);
    expect(lastTurn?.content[0]).toMatchObject({ type: 'tool_result', content: 'clear in Paris' });
  });
});
