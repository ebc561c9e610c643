import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnthropicProvider } from '../../src/modules/models/anthropic.provider.js';
import { JSON_INSTRUCTION } from '../../src/modules/models/json-output.js';
import { ProviderError, type ChatMessage, type ToolDef } from '../../src/modules/models/provider.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { collect } from '../support/model-streams.js';

const weatherTool: ToolDef = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('AnthropicProvider', () => {
  let server: ScriptedModelServer;
  let provider: AnthropicProvider;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    provider = new AnthropicProvider({
      model: 'claude-test',
      modelClass: 'advanced',
      apiKey: 'sk-ant-test',
      baseURL: server.anthropicBaseUrl,
      maxRetries: 0,
      timeoutMs: 5_000,
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const ask: ChatMessage[] = [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Say hello' },
  ];

  it('sends system messages as `system` and reports input/output tokens', async () => {
    server.enqueue({ content: 'Hello there', usage: { prompt: 12, completion: 4 } });
    const result = await provider.complete({ messages: ask, maxTokens: 64 });
    expect(result).toEqual({
      content: 'Hello there',
      toolCalls: [],
      usage: { promptTokens: 12, completionTokens: 4, totalTokens: 16 },
      finishReason: 'stop',
      model: 'claude-test',
    });
    expect(server.requests[0]).toEqual({
      model: 'claude-test',
      max_tokens: 64,
      system: 'You are terse.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }],
    });
  });

  it('streams text deltas and the final usage', async () => {
    server.enqueue({ chunks: ['Bon', 'jour', ' !'], usage: { prompt: 8, completion: 3 } });
    const { deltas, result } = await collect(provider.stream({ messages: ask }));
    expect(deltas).toEqual(['Bon', 'jour', ' !']);
    expect(result.content).toBe('Bonjour !');
    expect(result.usage).toEqual({ promptTokens: 8, completionTokens: 3, totalTokens: 11 });
    expect(server.requests[0]).toMatchObject({ stream: true });
  });

  it('maps tool calls to tool_use and tool results to tool_result blocks', async () => {
    server.enqueue(
      { content: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
      { content: 'Sunny in Paris.' },
    );
    const question: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await provider.complete({ messages: question, tools: [weatherTool] });
    expect(first.finishReason).toBe('tool_calls');
    expect(first.content).toBe('Let me check.');
    const call = first.toolCalls[0];
    expect(call.name).toBe('get_weather');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    expect(server.requests[0]).toMatchObject({
      tools: [{ name: 'get_weather', description: weatherTool.description, input_schema: weatherTool.parameters }],
    });

    const second = await provider.complete({
      messages: [
        ...question,
        { role: 'assistant', content: first.content, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: call.id, content: '{"sky":"clear"}' },
      ],
      tools: [weatherTool],
    });
    expect(second.content).toBe('Sunny in Paris.');
    expect(server.requests[1]).toMatchObject({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: call.id, name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '{"sky":"clear"}' }] },
      ],
    });
  });

  it('sends tool_choice { type: "any" } or { type: "tool", name }, only with tools, and nothing for auto', async () => {
    await provider.complete({ messages: ask, tools: [weatherTool], toolChoice: 'required' });
    await collect(provider.stream({ messages: ask, tools: [weatherTool], toolChoice: { name: 'get_weather' } }));
    await provider.complete({ messages: ask, tools: [weatherTool], toolChoice: 'auto' });
    await provider.complete({ messages: ask, toolChoice: { name: 'get_weather' } });
    expect(server.requests.map((r) => r.tool_choice)).toEqual([{ type: 'any' }, { type: 'tool', name: 'get_weather' }, undefined, undefined]);
    expect(server.requests[1]).toMatchObject({ stream: true });
    expect(server.requests[3]).not.toHaveProperty('tools');
  });

  it('assembles streamed tool input', async () => {
    server.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Lyon' } }], usage: { prompt: 5, completion: 7 } });
    const { deltas, result } = await collect(provider.stream({ messages: ask, tools: [weatherTool] }));
    expect(deltas).toEqual([]);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.toolCalls).toHaveLength(1);
    expect(JSON.parse(result.toolCalls[0].arguments)).toEqual({ city: 'Lyon' });
    expect(result.usage).toEqual({ promptTokens: 5, completionTokens: 7, totalTokens: 12 });
  });

  it('asks for JSON by instruction and cuts the object out of the answer', async () => {
    server.enqueue({ content: 'Here you go:\n```json\n{"answer":"yes"}\n```' });
    const result = await provider.complete({ messages: ask, json: true });
    expect(JSON.parse(result.content)).toEqual({ answer: 'yes' });
    expect(server.requests[0]).toMatchObject({ system: `You are terse.\n\n${JSON_INSTRUCTION}` });
    expect(server.requests[0]).not.toHaveProperty('response_format');
  });

  it('turns an HTTP 500 into a ProviderError', async () => {
    server.enqueue({ status: 500 });
    const err = await provider.complete({ messages: ask }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ provider: 'anthropic', status: 500, aborted: false });
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
