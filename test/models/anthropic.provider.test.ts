import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnthropicProvider } from '../../src/modules/models/anthropic.provider.js';
import { ANTHROPIC_VERSION } from '../../src/modules/models/anthropic-messages-wire.js';
import { JSON_INSTRUCTION } from '../../src/modules/models/json-output.js';
import { ProviderError, type ChatMessage, type ModelProvider, type ToolDef } from '../../src/modules/models/provider.js';
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
])('AnthropicProvider through %s', (_name, forwarding) => {
  let server: ScriptedModelServer;
  let provider: ModelProvider;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    const sdk = new AnthropicProvider({
      model: 'claude-test',
      modelClass: 'advanced',
      apiKey: 'sk-ant-test',
      baseURL: server.anthropicBaseUrl,
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
    expect((err as Error).message).toMatch(/^anthropic model call HTTP 500: .*Scripted failure 500/);
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

describe('the Anthropic forwarding path (undici directly)', () => {
  let server: ScriptedModelServer;
  beforeAll(async () => {
    server = await startScriptedModelServer();
  });
  afterAll(() => server.close());

  const provider = (maxRetries: number, baseURL = server.anthropicBaseUrl) =>
    new AnthropicProvider({ model: 'claude-test', modelClass: 'advanced', apiKey: 'sk-ant-test', baseURL, maxRetries, timeoutMs: 5_000 }).forwarding;

  it('sends the body the SDK path sends, and retries a 5xx once when allowed', async () => {
    server.enqueue({ status: 529 }, { content: 'Second try.' });
    const result = await provider(1).complete({ messages: [{ role: 'user', content: 'Hi' }], maxTokens: 32 });
    expect(result.content).toBe('Second try.');
    const sent = { model: 'claude-test', max_tokens: 32, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };
    expect(server.requests.slice(-2)).toEqual([sent, sent]);
  });

  it('does not retry a 400', async () => {
    server.enqueue({ status: 400 }, { content: 'never' });
    const before = server.requests.length;
    await expect(provider(1).complete({ messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ name: 'ProviderError', status: 400 });
    expect(server.requests.length).toBe(before + 1);
    // The step after the 400 is still queued: no retry took it.
    expect((await provider(0).complete({ messages: [{ role: 'user', content: 'Hi' }] })).content).toBe('never');
  });

  describe('against a raw event stream', () => {
    let raw: Server;
    let base: string;
    let script: (res: ServerResponse) => void;
    const seen: IncomingHttpHeaders[] = [];
    beforeAll(async () => {
      raw = createServer((req, res) => {
        seen.push(req.headers);
        req.resume();
        req.on('end', () => script(res));
      });
      await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    });
    afterAll(
      () =>
        new Promise<void>((resolve) => {
          raw.closeAllConnections();
          raw.close(() => resolve());
        }),
    );

    const sse = (res: ServerResponse, pieces: string[]) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of pieces) res.write(piece);
      res.end();
    };
    const event = (type: string, data: Record<string, unknown>, eol = '\n') =>
      `event: ${type}${eol}data: ${JSON.stringify({ type, ...data })}${eol}${eol}`;
    const start = event('message_start', {
      message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-raw', content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } },
    });
    const text = (t: string, eol?: string) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } }, eol);
    const end =
      event('content_block_stop', { index: 0 }) +
      event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 4 } }) +
      event('message_stop', {});

    it('posts to /v1/messages with x-api-key and the SDK\'s anthropic-version', async () => {
      script = (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-raw', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }));
      };
      const sdk = new AnthropicProvider({ model: 'claude-test', modelClass: 'advanced', apiKey: 'sk-ant-test', baseURL: base, maxRetries: 0 });
      await sdk.complete({ messages: [{ role: 'user', content: 'Hi' }] });
      const bySdk = seen.at(-1);
      expect((await provider(0, base).complete({ messages: [{ role: 'user', content: 'Hi' }] })).model).toBe('claude-raw');
      expect(seen.at(-1)).toMatchObject({ 'x-api-key': 'sk-ant-test', 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json' });
      expect(seen.at(-1)).not.toHaveProperty('authorization');
      // The version the installed SDK sends: an SDK upgrade that changes it fails here.
      expect(bySdk?.['anthropic-version']).toBe(ANTHROPIC_VERSION);
    });

    it('reads events split anywhere, with CRLF lines, pings and comments between them', async () => {
      const whole = start + ': keep-alive\n\n' + event('ping', {}) + text('Bon', '\r\n') + event('ping', {}) + text('jour') + end;
      // Cut into pieces of 7 characters: events, lines and JSON split across reads.
      script = (res) => sse(res, whole.match(/[\s\S]{1,7}/g) ?? []);
      const { deltas, result } = await collect(provider(0, base).stream({ messages: [{ role: 'user', content: 'Hi' }] }));
      expect(deltas).toEqual(['Bon', 'jour']);
      expect(result).toMatchObject({ content: 'Bonjour', model: 'claude-raw', finishReason: 'stop', usage: { promptTokens: 9, completionTokens: 4, totalTokens: 13 } });
    });

    it('fails on an error event, worded with its message', async () => {
      script = (res) => sse(res, [start, text('Half'), event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })]);
      const err = await collect(provider(0, base).stream({ messages: [{ role: 'user', content: 'Hi' }] })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).toMatchObject({ provider: 'anthropic', aborted: false, message: 'anthropic model call failed: Overloaded' });
    });

    it('fails a stream that ends before message_delta', async () => {
      script = (res) => sse(res, [start, text('Half')]);
      await expect(collect(provider(0, base).stream({ messages: [{ role: 'user', content: 'Hi' }] }))).rejects.toMatchObject({
        name: 'ProviderError',
        message: 'anthropic stream ended before the answer finished',
      });
    });
  });
});
