/**
 * A sequential HTTP load generator in a process of its own (never inside the server's):
 *
 *   node --import tsx bench/support/post-load.ts '<spec JSON>'
 *
 * spec: { url, headers, bodyFile, runs, keepAnswers? }. `bodyFile` holds one JSON body, sent `runs` times,
 * or `{ "bodies": [...] }`, each sent in turn (`runs` ignored). Calls go one after another. Prints one JSON
 * line: { ms: number[], statuses: number[], last: <the last answer>, answers?: <every answer> }.
 */
import { readFileSync } from 'node:fs';

const spec = JSON.parse(process.argv[2] ?? '{}') as { url: string; headers: Record<string, string>; bodyFile: string; runs: number; keepAnswers?: boolean };
const parsed = JSON.parse(readFileSync(spec.bodyFile, 'utf8')) as { bodies?: unknown[] };
const bodies = Array.isArray(parsed.bodies) ? parsed.bodies.map((b) => JSON.stringify(b)) : Array.from({ length: spec.runs }, () => JSON.stringify(parsed));
const ms: number[] = [];
const statuses: number[] = [];
const answers: unknown[] = [];
let last: unknown = null;
for (const body of bodies) {
  const started = performance.now();
  const res = await fetch(spec.url, { method: 'POST', headers: spec.headers, body });
  last = await res.json().catch(() => null);
  ms.push(performance.now() - started);
  statuses.push(res.status);
  if (spec.keepAnswers) answers.push(last);
}
process.stdout.write(`${JSON.stringify({ ms, statuses, last, ...(spec.keepAnswers ? { answers } : {}) })}\n`);
