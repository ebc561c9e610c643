import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import { AnthropicProvider } from '../../src/modules/models/anthropic.provider.js';
import { OpenAICompatibleProvider } from '../../src/modules/models/openai-compatible.provider.js';
import { sdkFetch, type SdkFetch } from '../../src/modules/models/sdk-fetch.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { collect } from '../support/model-streams.js';

describe("the agents' SDK calls (issue 28: the chat turn's model call)", () => {
  let server: ScriptedModelServer;
  beforeAll(async () => {
    server = await startScriptedModelServer();
  });
  afterAll(() => server.close());
  afterEach(() => vi.restoreAllMocks());

  it("go through the official SDKs over the provider's own dispatcher, never Node's global fetch", async () => {
    const globalFetch = vi.spyOn(globalThis, 'fetch');
    const openai = new OpenAICompatibleProvider({ model: 'gpt-test', modelClass: 'standard', baseURL: server.baseUrl, apiKey: 'sk-test', maxRetries: 0 });
    const anthropic = new AnthropicProvider({ model: 'claude-test', modelClass: 'advanced', apiKey: 'sk-ant', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
    const ask = [{ role: 'user' as const, content: 'Say hello' }];
    for (const provider of [openai, anthropic]) {
      server.enqueue({ content: 'Hello', usage: { prompt: 3, completion: 1 } }, { chunks: ['Hel', 'lo'], usage: { prompt: 3, completion: 2 } });
      expect((await provider.complete({ messages: ask })).content).toBe('Hello');
      const { deltas, result } = await collect(provider.stream({ messages: ask }));
      expect(deltas).toEqual(['Hel', 'lo']);
      expect(result.usage).toEqual({ promptTokens: 3, completionTokens: 2, totalTokens: 5 });
    }
    expect(globalFetch).not.toHaveBeenCalled();
  });
});

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

describe('sdkFetch', () => {
  let http: Server;
  let base: string;
  let handler: Handler;
  let client: SdkFetch;
  const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

  beforeAll(async () => {
    http = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        handler(req, body, res);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    client = sdkFetch();
  });
  afterAll(async () => {
    await client.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  afterEach(() => {
    seen.length = 0;
    vi.restoreAllMocks();
  });

  it('sends the method, headers and body as given, asks for the codings fetch decodes, and answers status, headers and body', async () => {
    handler = (_req, _body, res) => {
      res.setHeader('x-multi', ['a', 'b']);
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req_1' }).end('{"ok":true}');
    };
    const res = await client.fetch(`${base}/v1/things?x=1`, {
      method: 'post',
      headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer sk' }),
      body: '{"a":1}',
    });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('req_1');
    expect(res.headers.get('x-multi')).toBe('a, b');
    expect(await res.json()).toEqual({ ok: true });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/v1/things?x=1',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk', 'accept-encoding': 'gzip, deflate, br' },
    });
  });

  it('decodes a gzip answer and a br error body, as fetch does', async () => {
    handler = (req, _body, res) => {
      if (req.url === '/gzip') res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('{"zipped":1}'));
      else res.writeHead(429, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(brotliCompressSync('{"error":{"message":"slow down"}}'));
    };
    const zipped = await client.fetch(`${base}/gzip`);
    expect(zipped.headers.get('content-encoding')).toBeNull();
    expect(await zipped.json()).toEqual({ zipped: 1 });
    const refused = await client.fetch(`${base}/br`);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toBe('{"error":{"message":"slow down"}}');
  });

  it('follows a redirect, sending the body again on a 307', async () => {
    handler = (req, _body, res) => {
      if (req.url === '/old') res.writeHead(307, { location: '/new' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"moved":true}');
    };
    const res = await client.fetch(`${base}/old`, { method: 'POST', body: 'again' });
    expect(await res.json()).toEqual({ moved: true });
    expect(seen.map((s) => [s.url, s.body])).toEqual([
      ['/old', 'again'],
      ['/new', 'again'],
    ]);
  });

  it('hands an event stream over as it arrives, and an abort ends it with an AbortError', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      void held.then(() => res.write('data: second\n\n'));
    };
    const abort = new AbortController();
    const res = await client.fetch(`${base}/stream`, { method: 'POST', body: '{}', signal: abort.signal });
    const reader = res.body!.getReader();
    // The first event is readable while the server still holds the rest.
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    release();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: second\n\n');
    const pending = reader.read();
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects a call aborted before its answer with an AbortError (what the SDK reads as its timeout)', async () => {
    handler = () => {};
    const abort = new AbortController();
    const pending = client.fetch(`${base}/never`, { method: 'POST', body: '{}', signal: abort.signal });
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('answers a 204 without a body', async () => {
    handler = (_req, _body, res) => res.writeHead(204).end();
    const res = await client.fetch(`${base}/empty`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it('leaves a body it does not send itself (a form) to the global fetch', async () => {
    handler = (_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const globalFetch = vi.spyOn(globalThis, 'fetch');
    const form = new FormData();
    form.set('file', 'content');
    await client.fetch(`${base}/upload`, { method: 'POST', body: form });
    expect(globalFetch).toHaveBeenCalledTimes(1);
  });

  it('reads a JSON answer once: text() and json() answer from what was read, with no web stream of its bytes (issue 28, chatturn4)', async () => {
    handler = (req, _body, res) => {
      const text = req.url === '/bom' ? '\uFEFF{"ok":2}' : req.url === '/broken' ? '{"ok":' : '{"ok":1}';
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(text);
    };
    const res = await client.fetch(`${base}/json`, { method: 'POST', body: '{}' });
    // Global fetch's Response would hold a ReadableStream of the bytes read, which json() would read again.
    expect(res.body).toBeNull();
    expect(await res.json()).toEqual({ ok: 1 });
    expect(await res.text()).toBe('{"ok":1}');
    // As fetch's body does: a byte order mark is not part of the text, a broken body rejects with a SyntaxError.
    expect(await (await client.fetch(`${base}/bom`)).json()).toEqual({ ok: 2 });
    await expect((await client.fetch(`${base}/broken`)).json()).rejects.toBeInstanceOf(SyntaxError);
  });

  it("gives the SDK a JSON answer and a JSON error it reads as it reads fetch's", async () => {
    handler = (req, _body, res) => {
      if (req.headers.authorization === 'Bearer bad') {
        res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': 'req_bad' }).end('{"error":{"message":"no such key","type":"invalid_request_error"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_ok' });
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }] }));
    };
    const ask = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
    const answer = await new OpenAI({ baseURL: `${base}/v1`, apiKey: 'good', maxRetries: 0, fetch: client.fetch }).chat.completions.create(ask);
    expect(answer.choices[0]!.message.content).toBe('Hello');
    expect(answer._request_id).toBe('req_ok');
    const refused = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'bad', maxRetries: 0, fetch: client.fetch }).chat.completions.create(ask);
    await expect(refused).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(refused).rejects.toMatchObject({ status: 401, requestID: 'req_bad', error: { message: 'no such key' } });
  });

  it('gives the SDK a connection failure it reports as its connection error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const sdk = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'sk', maxRetries: 0, fetch: client.fetch });
    await expect(sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });
});
