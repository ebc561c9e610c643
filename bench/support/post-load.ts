/**
 * A sequential HTTP load generator in a process of its own (never inside the server's):
 *
 *   node --import tsx bench/support/post-load.ts '<spec JSON>'
 *
 * spec: { url, headers, bodyFile, runs }. Sends the body read from `bodyFile` `runs` times, one after
 * another, and prints one JSON line: { ms: number[], statuses: number[], last: <the last answer's JSON> }.
 */
import { readFileSync } from 'node:fs';

const spec = JSON.parse(process.argv[2] ?? '{}') as { url: string; headers: Record<string, string>; bodyFile: string; runs: number };
const body = readFileSync(spec.bodyFile, 'utf8');
const ms: number[] = [];
const statuses: number[] = [];
let last: unknown = null;
for (let i = 0; i < spec.runs; i++) {
  const started = performance.now();
  const res = await fetch(spec.url, { method: 'POST', headers: spec.headers, body });
  last = await res.json().catch(() => null);
  ms.push(performance.now() - started);
  statuses.push(res.status);
}
process.stdout.write(`${JSON.stringify({ ms, statuses, last })}\n`);
