/**
 * The verifier's engine alone on bench/verify.ts's first input (10 000 words against 200 passages), RUNS
 * times in this process, after one warm-up: the CPU time per run from `process.cpuUsage()` (user + system),
 * meaningful as a ratio between two builds run back to back on a loaded machine, and the engine's wall p50.
 * For a profile: `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/verify-engine.ts`.
 *
 *   npx tsx bench/verify-engine.ts        (RUNS=20)
 */
import { loadTagger } from '../src/lib/language/entities.js';
import { Verifier } from '../src/modules/verify/engine.js';
import { verifyInput } from './support/verify-input.js';

const RUNS = Number(process.env.RUNS ?? 20);
const { text, passages } = verifyInput(10_000, 200);
loadTagger();

async function once(): Promise<number> {
  const v = new Verifier(text);
  await v.addPassages(passages);
  return (await v.verify(text)).length;
}

const claims = await once();
const cpu: number[] = [];
const wall: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const c = process.cpuUsage();
  const t = performance.now();
  await once();
  wall.push(performance.now() - t);
  const d = process.cpuUsage(c);
  cpu.push((d.user + d.system) / 1000);
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(JSON.stringify({ claims, runs: RUNS, cpuP50Ms: +p50(cpu).toFixed(1), cpuMeanMs: +(cpu.reduce((a, b) => a + b, 0) / RUNS).toFixed(1), wallP50Ms: +p50(wall).toFixed(1), load: (await import('node:os')).loadavg().map((x) => +x.toFixed(1)) }));
