/**
 * A canned OpenAI-compatible model server for bench/gateway-side-by-side.ts: `POST /v1/chat/completions`
 * answers a fixed small completion at once (streamed as Server-Sent Events when the body says
 * `stream: true`, with a usage chunk when `stream_options.include_usage`). Run in a process of its own:
 *
 *   PORT=0 npx tsx bench/support/canned-model.ts       (prints {"port":N} on stdout once listening)
 */
import { createServer } from 'node:http';
import { serveForBench } from './serve.js';

const MODEL = 'canned-model';
const usage = { prompt_tokens: 24, completion_tokens: 6, total_tokens: 30 };
const plain = JSON.stringify({
  id: 'chatcmpl-canned',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: MODEL,
  choices: [{ index: 0, message: { role: 'assistant', content: 'The answer is forty-two.' }, finish_reason: 'stop', logprobs: null }],
  usage,
});
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-canned', object: 'chat.completion.chunk', created: 1_700_000_000, model: MODEL, choices, ...extra })}\n\n`;
const pieces = ['The', ' answer', ' is', ' forty', '-two', '.'];
const streamed =
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]) +
  pieces.map((p) => chunk([{ index: 0, delta: { content: p }, finish_reason: null }])).join('') +
  chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
const usageChunk = chunk([], { usage });

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    let body: { stream?: boolean; stream_options?: { include_usage?: boolean } } = {};
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
      return;
    }
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(streamed + (body.stream_options?.include_usage ? usageChunk : '') + 'data: [DONE]\n\n');
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(plain) });
      res.end(plain);
    }
  });
});
serveForBench(server);
