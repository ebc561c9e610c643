/**
 * What the service adds to a light question (POST /light/ask): the latency minus the model's fixed
 * delay, for an answered question (search, coverage, the model call, metering, certificate) and for a
 * refused one (search and coverage, certificate; no model), one client at a time.
 *
 *   npx tsx bench/light.ts            (RUNS=200 per case by default; about a minute)
 *
 * Loopback only. The server (the test app on real PostgreSQL when it answers, else PGlite) runs here,
 * with the twelve documents of the labelled set (test/fixtures/labelled/corpus) ingested; the scripted
 * OpenAI-compatible model answers after MODEL_DELAY_MS; the client runs in a process of its own
 * (bench/support/post-load.ts), cycling through the labelled questions of each kind.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPendingIngestion } from '../src/modules/knowledge/ingestion.worker.js';
import { startTestApp } from '../test/support/app.js';
import { startScriptedModelServer } from '../test/support/scripted-model-server.js';

const RUNS = Number(process.env.RUNS ?? 200);
const MODEL_DELAY_MS = 50;
const dir = fileURLToPath(new URL('../test/fixtures/labelled/', import.meta.url));
const { questions } = JSON.parse(readFileSync(join(dir, 'questions.json'), 'utf8')) as { questions: { question: string; answerable: boolean; kind: string }[] };

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};

const model = await startScriptedModelServer({ delayMs: MODEL_DELAY_MS });
model.setDefault({ content: 'The answer is in the policy [1].', usage: { prompt: 900, completion: 12 } });
const t = await startTestApp({ env: { SVC_MODEL_BASE_URL: model.baseUrl, SVC_MODEL_API_KEY: 'bench', SVC_MODEL: 'scripted-model', SVC_RATE_UPLOAD: '1000000', SVC_DB_POOL_MAX: '20' } });
const bodyFile = join(tmpdir(), `light-bench-${process.pid}.json`);
try {
  const tenant = await t.tenant({ seats: 1000 });
  for (const file of readdirSync(join(dir, 'corpus')).sort()) {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(join(dir, 'corpus', file))], { type: 'text/markdown' }), file);
    const res = await fetch(`${t.baseUrl}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${tenant.key}` }, body: form });
    if (res.status !== 202) throw new Error(`upload ${file}: ${res.status}`);
  }
  await runPendingIngestion(t.app.services);

  const load = (bodies: unknown[]) =>
    new Promise<{ ms: number[]; statuses: number[]; answers: { refused: boolean }[] }>((resolve, reject) => {
      writeFileSync(bodyFile, JSON.stringify({ bodies }));
      const spec = { url: `${t.baseUrl}/light/ask`, headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' }, bodyFile, runs: 0, keepAnswers: true };
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/post-load.ts', import.meta.url)), JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`post-load exited ${code}`))));
    });
  const cycle = (list: string[]) => Array.from({ length: RUNS }, (_v, i) => ({ question: list[i % list.length] }));
  // Direct questions the gate lets through, and off-topic ones it refuses.
  const answered = questions.filter((q) => q.kind === 'direct').map((q) => q.question);
  const refused = questions.filter((q) => q.kind === 'off_topic').map((q) => q.question);
  await load(cycle(answered).slice(0, 20)); // warm-up

  const rows: string[] = [];
  for (const [name, list, delay] of [
    ['answered (model called)', answered, MODEL_DELAY_MS],
    ['refused by the gate (no model)', refused, 0],
  ] as const) {
    const run = await load(cycle([...list]));
    if (run.statuses.some((s) => s !== 200)) throw new Error(`${name}: statuses ${[...new Set(run.statuses)].join(', ')}`);
    const kept = run.ms.filter((_m, i) => run.answers[i]!.refused === (delay === 0));
    const added = kept.map((m) => m - delay);
    rows.push(`| ${name} | ${kept.length} of ${run.ms.length} | ${percentile(added, 50).toFixed(1)} | ${percentile(added, 99).toFixed(1)} |`);
  }
  process.stdout.write(`POST /light/ask, one client, model delay ${MODEL_DELAY_MS} ms subtracted, ${t.db.url ? 'PostgreSQL' : 'embedded PGlite'}, 12 documents\n\n`);
  process.stdout.write('| Case | Questions measured | p50 added (ms) | p99 added (ms) |\n| --- | --- | --- | --- |\n');
  process.stdout.write(`${rows.join('\n')}\n`);
} finally {
  rmSync(bodyFile, { force: true });
  await t.close();
  await model.close();
}
