/**
 * An OpenAI-compatible embeddings server on loopback for benchmarks, with no model: a text's vector is
 * the hashed counts of its character trigrams (inside words, case and accents folded) and of its words,
 * in DIMS dimensions. It knows no meaning — "refund" and "money back" stay far apart — but it matches
 * word forms that full-text search without stemming misses ("booked" / "booking", "depart" /
 * "departure") and tolerates typos. It stands in for a real model where none can be reached; point
 * SVC_EMBEDDINGS_BASE_URL at a real endpoint to measure one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const NGRAM_DIMS = 512;

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const hash = (s: string) => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
};

export function ngramVector(text: string): number[] {
  const v = new Array<number>(NGRAM_DIMS).fill(0);
  for (const w of fold(text).split(' ')) {
    if (!w) continue;
    v[hash(`w:${w}`) % NGRAM_DIMS]! += 1;
    const padded = `<${w}>`;
    for (let i = 0; i + 3 <= padded.length; i++) v[hash(padded.slice(i, i + 3)) % NGRAM_DIMS]! += 0.5;
  }
  return v;
}

export async function startNgramEmbeddings(): Promise<{ baseUrl: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string | string[] };
      const input = Array.isArray(body.input) ? body.input : [body.input];
      const text = JSON.stringify({ object: 'list', model: body.model, data: input.map((t, index) => ({ object: 'embedding', index, embedding: ngramVector(t) })) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}
