/**
 * The floor of bench/webhooks-throughput.ts, in a process of its own: the receiver hit directly by a plain
 * undici keep-alive client (one Agent, no database, no signing, no SSRF check) with bodies and headers of
 * the same size as a delivery's. Prints one JSON line.
 *
 *   npx tsx bench/webhooks-floor.ts '{"origin":"http://127.0.0.1:N","paths":["/a",...],"total":20000,
 *     "concurrency":256,"latencyRounds":300}'
 *
 * - burst: `total` POSTs spread over `paths` round-robin, `concurrency` at a time → requests/s;
 * - latency: `latencyRounds` rounds, each sending one request to every path at once and waiting for all
 *   of them → p50/p99 of send → response (the floor of event → first attempt).
 */
import { Agent } from 'undici';

interface Spec {
  origin: string;
  paths: string[];
  total: number;
  concurrency: number;
  latencyRounds: number;
  connections: number;
}
const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const agent = new Agent({ connections: spec.connections, keepAliveTimeout: 60_000, pipelining: 1 });
const now = () => performance.timeOrigin + performance.now();
const headers = {
  'content-type': 'application/json',
  'user-agent': 'Svc-Webhooks/1.0',
  'x-svc-event': 'flow.run.finished',
  'x-svc-signature': 'sha256=' + '0'.repeat(64),
  'x-svc-delivery': 'whd_' + '0'.repeat(24),
  'webhook-id': 'whd_' + '0'.repeat(24),
  'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
  'webhook-signature': 'v1,' + 'A'.repeat(44),
};
const body = (runId: string) => JSON.stringify({ runId, flowId: 'flw_bench', flowName: 'Bench', status: 'succeeded', actionable: false });

async function send(path: string, runId: string): Promise<number> {
  const t0 = now();
  const res = await agent.request({ origin: spec.origin, path, method: 'POST', headers, body: body(runId) });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`floor: status ${res.statusCode}`);
  return now() - t0;
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

// Latency first (connections warm afterwards would flatter it less than the burst's).
const delays: number[] = [];
for (let r = 0; r < spec.latencyRounds; r++) {
  delays.push(...(await Promise.all(spec.paths.map((p) => send(p, `floor-lat-${r}`)))));
}
delays.sort((a, b) => a - b);

let next = 0;
const t0 = now();
await Promise.all(
  Array.from({ length: spec.concurrency }, async () => {
    for (let i = next++; i < spec.total; i = next++) await send(spec.paths[i % spec.paths.length]!, `floor-${i}`);
  }),
);
const seconds = (now() - t0) / 1000;
await agent.close();
process.stdout.write(JSON.stringify({ total: spec.total, seconds, rps: spec.total / seconds, p50: pct(delays, 50), p99: pct(delays, 99), timed: delays.length }) + '\n');
