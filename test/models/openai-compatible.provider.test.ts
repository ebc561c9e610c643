import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpenAICompatibleProvider } from '../../src/modules/models/openai-compatible.provider.js';
import { ProviderError, type ChatMessage, type ModelProvider, type ToolDef } from '../../src/modules/models/provider.js';
import { countMessageTokens, countTextTokens } from '../../src/modules/models/tokenizer.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { collect } from '../support/model-streams.js';

const weatherTool: ToolDef = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

// The same behaviour through the official SDK (chat, agents) and through undici directly (the gateway's forwarding path).
describe.each([
  ['the official SDK', false],
  ['undici directly (forwarding)', true],
])('OpenAICompatibleProvider through %s', (_name, forwarding) => {
  let server: ScriptedModelServer;
  let provider: ModelProvider;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    const sdk = new OpenAICompatibleProvider({
      model: 'gpt-test',
      modelClass: 'standard',
      baseURL: server.baseUrl,
      apiKey: 'sk-test',
      maxRetries: 0,
      timeoutMs: 5_000,
    });
    provider = forwarding ? sdk.forwarding : sdk;
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const ask: ChatMessage[] = [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Say hello' },
  ];

  it('completes and reports the usage the server sent', async () => {
    server.enqueue({ content: 'Hello there', usage: { prompt: 11, completion: 3 } });
    const result = await provider.complete({ messages: ask, temperature: 0.2, maxTokens: 50 });
    expect(result).toEqual({
      content: 'Hello there',
      toolCalls: [],
      usage: { promptTokens: 11, completionTokens: 3, totalTokens: 14 },
      finishReason: 'stop',
      model: 'gpt-test',
    });
    expect(server.requests[0]).toMatchObject({
      model: 'gpt-test',
      temperature: 0.2,
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hello' },
      ],
    });
    expect(server.requests[0]).not.toHaveProperty('tools');
  });

  it('answers with the default scripted text when nothing is queued', async () => {
    const result = await provider.complete({ messages: ask });
    expect(result.content).toBe('Scripted answer to: Say hello');
  });

  it('streams deltas, then the final result with the streamed usage', async () => {
    server.enqueue({ chunks: ['Hel', 'lo ', 'world'], usage: { prompt: 7, completion: 5 } });
    const { deltas, result } = await collect(provider.stream({ messages: ask }));
    expect(deltas).toEqual(['Hel', 'lo ', 'world']);
    expect(result.content).toBe('Hello world');
    expect(result.usage).toEqual({ promptTokens: 7, completionTokens: 5, totalTokens: 12 });
    expect(server.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('round-trips a tool call and its result', async () => {
    server.enqueue(
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt: 20, completion: 8 } },
      { content: 'It is sunny in Paris.', usage: { prompt: 30, completion: 6 } },
    );
    const question: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await provider.complete({ messages: question, tools: [weatherTool] });
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toHaveLength(1);
    const call = first.toolCalls[0];
    expect(call).toMatchObject({ name: 'get_weather' });
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    expect(server.requests[0]).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', description: weatherTool.description, parameters: weatherTool.parameters } }],
    });

    const second = await provider.complete({
      messages: [
        ...question,
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: call.id, content: '{"sky":"clear"}' },
      ],
      tools: [weatherTool],
    });
    expect(second.content).toBe('It is sunny in Paris.');
    expect(server.requests[1]).toMatchObject({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: call.arguments } }] },
        { role: 'tool', tool_call_id: call.id, content: '{"sky":"clear"}' },
      ],
    });
  });

  it('sends tool_choice "required" or a named function, only with tools, and nothing for auto', async () => {
    await provider.complete({ messages: ask, tools: [weatherTool], toolChoice: 'required' });
    await collect(provider.stream({ messages: ask, tools: [weatherTool], toolChoice: { name: 'get_weather' } }));
    await provider.complete({ messages: ask, tools: [weatherTool], toolChoice: 'auto' });
    await provider.complete({ messages: ask, toolChoice: 'required' });
    expect(server.requests.map((r) => r.tool_choice)).toEqual([
      'required',
      { type: 'function', function: { name: 'get_weather' } },
      undefined,
      undefined,
    ]);
    expect(server.requests[1]).toMatchObject({ stream: true });
    expect(server.requests[3]).not.toHaveProperty('tools');
  });

  it('joins streamed tool-call fragments', async () => {
    server.enqueue({
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Lyon' } },
        { name: 'get_weather', arguments: { city: 'Nice' } },
      ],
      usage: { prompt: 9, completion: 4 },
    });
    const { deltas, result } = await collect(provider.stream({ messages: ask, tools: [weatherTool] }));
    expect(deltas).toEqual([]);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['get_weather', { city: 'Lyon' }],
      ['get_weather', { city: 'Nice' }],
    ]);
    expect(result.toolCalls.every((c) => c.id.length > 0)).toBe(true);
    expect(result.usage.totalTokens).toBe(13);
  });

  it('asks for a JSON object in JSON mode and mentions JSON in the prompt', async () => {
    server.enqueue({ content: '{"answer":"yes"}' });
    const result = await provider.complete({ messages: ask, json: true });
    expect(JSON.parse(result.content)).toEqual({ answer: 'yes' });
    const body = server.requests[0] as { response_format: unknown; messages: { content: string }[] };
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[0].content).toMatch(/JSON/);
  });

  it('counts tokens itself only when the server reports no usage', async () => {
    server.enqueue({ content: 'No usage here', usage: null });
    const result = await provider.complete({ messages: ask });
    expect(result.usage).toEqual({
      promptTokens: countMessageTokens(ask),
      completionTokens: countTextTokens('No usage here'),
      totalTokens: countMessageTokens(ask) + countTextTokens('No usage here'),
    });
  });

  it('turns an HTTP 500 into a ProviderError', async () => {
    server.enqueue({ status: 500 });
    const err = await provider.complete({ messages: ask }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ provider: 'openai', status: 500, aborted: false });
  });

  it('turns an HTTP 500 on a stream into a ProviderError', async () => {
    server.enqueue({ status: 500 });
    await expect(collect(provider.stream({ messages: ask }))).rejects.toMatchObject({ name: 'ProviderError', status: 500 });
  });

  it('reports an abort mid-stream as aborted', async () => {
    server.enqueue({ chunks: ['one ', 'two '], hang: true });
    const controller = new AbortController();
    const events = provider.stream({ messages: ask, signal: controller.signal })[Symbol.asyncIterator]();
    expect(await events.next()).toEqual({ done: false, value: { type: 'delta', text: 'one ' } });
    controller.abort();
    const err = await (async () => {
      for (;;) {
        const step = await events.next();
        if (step.done) return undefined;
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ aborted: true });
  });

  it('reports an abort of a pending call as aborted', async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const pending = provider.complete({ messages: ask, signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'ProviderError', aborted: true });
  });
});

describe('the forwarding path (undici directly)', () => {
  let server: ScriptedModelServer;
  beforeAll(async () => {
    server = await startScriptedModelServer();
  });
  afterAll(() => server.close());

  const provider = (maxRetries: number) =>
    new OpenAICompatibleProvider({ model: 'gpt-test', modelClass: 'standard', baseURL: server.baseUrl, apiKey: 'sk-test', maxRetries, timeoutMs: 5_000 }).forwarding;

  it('sends the key and the body the SDK path sends, and retries a 5xx once when allowed', async () => {
    server.enqueue({ status: 503 }, { content: 'Second try.' });
    const result = await provider(1).complete({ messages: [{ role: 'user', content: 'Hi' }], temperature: 0.2 });
    expect(result.content).toBe('Second try.');
    expect(server.requests.slice(-2)).toEqual([
      { model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.2 },
      { model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.2 },
    ]);
  });

  it('does not retry a 400', async () => {
    server.enqueue({ status: 400 }, { content: 'never' });
    const before = server.requests.length;
    await expect(provider(1).complete({ messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ name: 'ProviderError', status: 400 });
    expect(server.requests.length).toBe(before + 1);
    // The step after the 400 is still queued: no retry took it.
    expect((await provider(0).complete({ messages: [{ role: 'user', content: 'Hi' }] })).content).toBe('never');
  });

  it('reads a stream written piece by piece', async () => {
    server.enqueue({ chunks: ['a', 'b', 'c', 'd', 'e'] });
    const { deltas, result } = await collect(provider(0).stream({ messages: [{ role: 'user', content: 'Hi' }] }));
    expect(deltas).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(result).toMatchObject({ content: 'abcde', finishReason: 'stop' });
  });
});
