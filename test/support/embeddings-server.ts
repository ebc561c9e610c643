/**
 * An OpenAI-compatible embeddings server on loopback (`POST /v1/embeddings`) that embeds from a script:
 * each **concept** is one dimension, and a text's vector counts the concept's words and phrases it holds
 * (case and accents folded), so the test decides which texts mean the same thing ("refund" and "money
 * back") while sharing no word. A few more dimensions hash the remaining words, so texts with words in
 * common stay somewhat close, as with a real model. Every request body is kept in `requests`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmbeddingsServer {
  /** OpenAI-style root, ending with `/v1`. */
  baseUrl: string;
  requests: { model: string; input: string[] }[];
  /** The vector the server gives a text (before the client scales it to unit length). */
  vectorOf(text: string): number[];
  /** While set, every request is answered with this HTTP status. */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Dimensions for the words no concept claims. */
const HASHED = 16;

export async function startEmbeddingsServer(opts: { concepts?: Record<string, string[]> } = {}): Promise<EmbeddingsServer> {
  const concepts = Object.values(opts.concepts ?? {}).map((phrases) => phrases.map(fold));
  const conceptWords = new Set(concepts.flat().flatMap((p) => p.split(' ')));
  const requests: EmbeddingsServer['requests'] = [];
  let failing: number | null = null;

  const vectorOf = (text: string): number[] => {
    const folded = ` ${fold(text)} `;
    const v: number[] = Array.from({ length: concepts.length + HASHED }, () => 0);
    concepts.forEach((phrases, i) => {
      for (const p of phrases) v[i]! += folded.split(` ${p} `).length - 1;
    });
    for (const w of folded.trim().split(' ')) {
      if (!w || conceptWords.has(w)) continue;
      let h = 0;
      for (const ch of w) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
      v[concepts.length + (h % HASHED)]! += 0.25;
    }
    if (!v.some((x) => x !== 0)) v[v.length - 1] = 0.01;
    return v;
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => send(res, 500, { error: { message: String(err) } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') return send(res, 404, { error: { message: 'not found' } });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string | string[]; encoding_format?: string };
    const input = Array.isArray(body.input) ? body.input : [body.input];
    requests.push({ model: body.model, input });
    if (failing !== null) return send(res, failing, { error: { message: 'scripted failure', type: 'server_error' } });
    if (body.encoding_format && body.encoding_format !== 'float') return send(res, 400, { error: { message: 'only float encoding is scripted' } });
    send(res, 200, {
      object: 'list',
      model: body.model,
      data: input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })),
      usage: { prompt_tokens: input.join(' ').length, total_tokens: input.join(' ').length },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    vectorOf,
    failWith(status) {
      failing = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
