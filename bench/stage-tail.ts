/**
 * Where the slowest gateway calls wait (docs/performance.md, "The gateway's p99: where the slowest calls
 * wait"): reads a service log written with SVC_STAGE_TIMING=on and LOG_LEVEL=info (e.g. by
 * `BENCH_STAGE_LOG=<file> npx tsx bench/gateway-side-by-side.ts`) and cuts each `POST /v1/chat/completions`
 * call's time, from its arrival to its response's end, into consecutive segments:
 *
 *   arrival → authentication starts (body read, express) · the key lookup's wait for the lookup in flight ·
 *   the lookup · the rest of authentication · authentication → admission · the rate count and admission's
 *   wait for the batch in flight · that statement · the rest of admission · admission → model · the model ·
 *   model → answer write · the answer write's wait for the batch in flight · that statement · → response end
 *
 * and prints, per segment, the median and p99 over all calls and the mean over the slowest 1 % (by total),
 * with the event loop's delay (`loop`) beside them.
 *
 *   npx tsx bench/stage-tail.ts <log file> [--skip-s=2]   (--skip-s: seconds of the log's start left out)
 */
import { readFileSync } from 'node:fs';

interface Stages {
  totalMs: number;
  spent: Record<string, number>;
  at: Record<string, number>;
}
interface Line {
  msg?: string;
  route?: string;
  time?: string;
  stages?: Stages;
}

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/stage-tail.ts <log file> [--skip-s=2]');
const skipS = Number(process.argv.find((a) => a.startsWith('--skip-s='))?.slice(9) ?? 0);

const lines: Line[] = [];
for (const text of readFileSync(file, 'utf8').split('\n')) {
  if (!text.startsWith('{')) continue;
  try {
    lines.push(JSON.parse(text) as Line);
  } catch {
    // a line cut by the end of the run
  }
}
const calls = lines.filter((l) => l.msg === 'request finished' && l.route === '/v1/chat/completions' && l.stages);
if (calls.length === 0) throw new Error(`${file}: no gateway call with stages (SVC_STAGE_TIMING=on, LOG_LEVEL=info?)`);
const first = Date.parse(calls[0]!.time!);
const kept = calls.filter((l) => Date.parse(l.time!) - first >= skipS * 1000).map((l) => l.stages!);

/** Consecutive segments of one call, in ms; they add up to its total. */
function segments(s: Stages): Record<string, number> {
  const at = (stage: string) => s.at[stage] ?? 0;
  const spent = (stage: string) => s.spent[stage] ?? 0;
  const startOf = (stage: string) => at(stage) - spent(stage);
  const submitted = (stage: string) => at(`${stage}.queued`) - spent(`${stage}.queued`);
  const cuts: [string, number][] = [
    ['arrival → authentication', startOf('pipeline.authenticate')],
    ['key lookup: wait for the one in flight', at('key_lookup.queued')],
    ['key lookup: statement', at('key_lookup')],
    ['authentication: rest', at('pipeline.authenticate')],
    ['authentication → admission', startOf('pipeline.admission')],
    ['rate + admission: wait for the batch in flight', at('rate_admission_write.queued')],
    ['rate + admission: statement', at('rate_admission_write')],
    ['admission: rest', at('pipeline.admission')],
    ['admission → model', startOf('model.call')],
    ['model', at('model.call')],
    ['model → answer write', submitted('answer_write')],
    ['answer write: wait for the batch in flight', at('answer_write.queued')],
    ['answer write: statement', at('answer_write')],
    ['answer write → response end', s.totalMs],
  ];
  const out: Record<string, number> = {};
  let last = 0;
  for (const [name, end] of cuts) {
    out[name] = end - last;
    last = end;
  }
  out['event-loop delay at arrival (loop)'] = spent('loop');
  out['total'] = s.totalMs;
  return out;
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const all = kept.map(segments);
const byTotal = [...all].sort((a, b) => b.total! - a.total!);
const slowest = byTotal.slice(0, Math.max(1, Math.floor(all.length / 100)));
const mean = (rows: Record<string, number>[], k: string) => rows.reduce((n, r) => n + r[k]!, 0) / rows.length;

const f = (n: number) => n.toFixed(2);
const out: string[] = [];
out.push(`${all.length} calls (${calls.length - kept.length} of the first ${skipS} s left out); slowest 1 %: ${slowest.length} calls, total ≥ ${f(slowest.at(-1)!.total!)} ms`);
out.push('');
out.push('| segment | p50 ms, all | p99 ms, all | mean ms, slowest 1 % | share of the slowest 1 %\'s total |');
out.push('| --- | ---: | ---: | ---: | ---: |');
const slowTotal = mean(slowest, 'total');
for (const k of Object.keys(all[0]!)) {
  const sorted = all.map((r) => r[k]!).sort((a, b) => a - b);
  const share = k === 'total' || k.startsWith('event-loop') ? '' : `${((mean(slowest, k) / slowTotal) * 100).toFixed(1)} %`;
  out.push(`| ${k} | ${f(quantile(sorted, 0.5))} | ${f(quantile(sorted, 0.99))} | ${f(mean(slowest, k))} | ${share} |`);
}
console.log(out.join('\n'));
