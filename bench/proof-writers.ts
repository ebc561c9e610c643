/**
 * In process: a gateway call's certificate text, its request body's canonical JSON and the answer write's array
 * parameters, as another checkout writes them (BASE_ROOT, default /work/main) and as this one does, alternated
 * (issue 28, docs/performance.md "The gateway, thirteenth pass"): µs per call. The bytes each allocates per
 * call are bench/gateway-heap.ts's job.
 *
 *   BASE_ROOT=<main's checkout> ROUNDS=4 N=100000 npx tsx bench/proof-writers.ts
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pgArrayLiteral } from '../src/db/sql.js';
import { canonicalJson, certificateJson } from '../src/modules/proofs/canonical.js';
import type { CertificateBody } from '../src/modules/proofs/proofs.schemas.js';

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const N = Number(process.env.N ?? 100_000);

const body: CertificateBody = {
  version: 1,
  id: 'prf_01JDXYZABCDEF0123456789AB',
  workspaceId: 'ws_01JDXYZABCDEF0123456789AB',
  seq: 123456,
  createdAt: new Date(0).toISOString(),
  route: 'POST /v1/chat/completions',
  modelAddress: 'svc-auto',
  model: 'canned-small',
  conversationId: null,
  requestHash: 'a'.repeat(64),
  answerHash: 'b'.repeat(64),
  usage: { promptTokens: 12, completionTokens: 34, totalTokens: 46 },
  prevHash: 'c'.repeat(64),
  keyId: 'k'.repeat(43),
  algorithm: 'Ed25519',
};
// The bench's request body as the JSON reader gives it (bench/gateway-side-by-side.ts, streamed).
const request = JSON.parse(JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Hello?' }], stream: true, stream_options: { include_usage: true } })) as unknown;
const columns: (string | number | null)[][] = [['prf_01JDXYZABCDEF0123456789AB'], [123456], ['POST /v1/chat/completions'], ['svc-auto'], [null], ['a'.repeat(64)], [12]];

const baseRoot = resolve(process.env.BASE_ROOT ?? '/work/main');
const base = {
  ...((await import(pathToFileURL(`${baseRoot}/src/modules/proofs/canonical.ts`).href)) as { canonicalJson: typeof canonicalJson }),
  ...((await import(pathToFileURL(`${baseRoot}/src/db/sql.ts`).href)) as { pgArrayLiteral: typeof pgArrayLiteral }),
};
if (base.canonicalJson(body) !== certificateJson(body) || base.canonicalJson(request) !== canonicalJson(request)) throw new Error('not the same text');

const cases: [string, () => unknown, () => unknown][] = [
  ['certificate text', () => base.canonicalJson(body), () => certificateJson(body)],
  ["the request body's canonical JSON", () => base.canonicalJson(request), () => canonicalJson(request)],
  ['17 array parameters', () => { for (let i = 0; i < 17; i++) base.pgArrayLiteral(columns[i % columns.length]!); }, () => { for (let i = 0; i < 17; i++) pgArrayLiteral(columns[i % columns.length]!); }],
];

const time = (f: () => unknown): number => {
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) f();
  return Number(process.hrtime.bigint() - t) / N / 1000;
};

process.stdout.write(`A = ${baseRoot}, B = this checkout; load average ${loadavg()[0]!.toFixed(1)}; ${ROUNDS} rounds of ${N} runs, alternated\n`);
for (const [name, former, now] of cases) {
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) (a.push(time(former)), b.push(time(now)));
    else (b.push(time(now)), a.push(time(former)));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  process.stdout.write(`${name}: A ${a.map((x) => x.toFixed(2)).join(' / ')} µs, B ${b.map((x) => x.toFixed(2)).join(' / ')} µs; median ${median(a).toFixed(2)} -> ${median(b).toFixed(2)} (${(median(b) / median(a)).toFixed(2)}x)\n`);
}
process.stdout.write(`load average after ${loadavg()[0]!.toFixed(1)}\n`);
