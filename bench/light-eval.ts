/**
 * The labelled set (test/fixtures/labelled/) through light: refusal precision and rates, for choosing
 * the refusal threshold (docs/light.md).
 *
 *   npx tsx bench/light-eval.ts            (about half a minute; JSON=1 prints the raw scores)
 *
 * One process: the app on a throwaway database (DATABASE_URL, else the local PostgreSQL server, else the
 * embedded database); the twelve documents uploaded over HTTP and ingested; then for every question:
 * 1. the search and the coverage of the best passage (`searchForQuestion`, what the gate reads), and
 *    whether the top 5 passages hold the labelled quote (recall@5 of the search as it stands);
 * 2. a sweep of thresholds: at each, which questions would be refused before any model;
 * 3. the whole `POST /light/ask` over HTTP on the built-in local model at the configured threshold
 *    (refusals by the gate, and by the model declining or citing nothing).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/core/context.js';
import { createLogger } from '../src/lib/logger.js';
import { runPendingIngestion } from '../src/modules/knowledge/ingestion.worker.js';
import { authenticateSecret } from '../src/modules/keys/keys.service.js';
import { searchForQuestion } from '../src/modules/light/light.service.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase } from '../test/support/database.js';

interface Question {
  id: string;
  question: string;
  answerable: boolean;
  kind: string;
  answers?: { document: string; section: string; quote: string }[];
}

const dir = fileURLToPath(new URL('../test/fixtures/labelled/', import.meta.url));
const { questions } = JSON.parse(readFileSync(join(dir, 'questions.json'), 'utf8')) as { questions: Question[] };

const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, dataDir: 'memory://', drop: async () => {} } : await createTestDatabase();
const config = loadConfig({
  LOG_LEVEL: 'silent',
  SVC_BACKGROUND_JOBS: 'off',
  SVC_DEPLOYMENT: 'onprem',
  SVC_DATA_DIR: db.dataDir,
  SVC_RATE_UPLOAD: '1000000',
  ...(db.url ? { DATABASE_URL: db.url } : {}),
  ...(process.env.SVC_LIGHT_MIN_COVERAGE ? { SVC_LIGHT_MIN_COVERAGE: process.env.SVC_LIGHT_MIN_COVERAGE } : {}),
});
const app = await createApp({ config, log: createLogger('silent') });
const server = await listen(app.http, 0, '127.0.0.1');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const services = app.services;

try {
  const { workspace, issued } = await createWorkspace({ em: services.orm.em.fork(), clock: services.clock }, { name: 'Labelled', plan: 'cabinet', seats: 100 });
  const key = issued.secret;
  for (const file of readdirSync(join(dir, 'corpus')).sort()) {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(join(dir, 'corpus', file))], { type: 'text/markdown' }), file);
    const res = await fetch(`${base}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    if (res.status !== 202) throw new Error(`upload ${file}: ${res.status} ${await res.text()}`);
  }
  await runPendingIngestion(services);
  const caller = await authenticateSecret(services.orm.em.fork(), services.clock, key);

  const scored: { q: Question; coverage: number; recall5: boolean }[] = [];
  for (const q of questions) {
    const found = await searchForQuestion(createContext(services, caller), { question: q.question, dossier: null, topK: 5 });
    const recall5 = (q.answers ?? []).every((a) => found.passages.some((p) => p.sourceName === a.document && p.text.replace(/\s+/g, ' ').includes(a.quote)));
    scored.push({ q, coverage: found.coverage, recall5 });
  }
  if (process.env.JSON) console.log(JSON.stringify(scored.map((s) => ({ id: s.q.id, kind: s.q.kind, coverage: s.coverage, recall5: s.recall5 }))));

  const answerable = scored.filter((s) => s.q.answerable);
  const unanswerable = scored.filter((s) => !s.q.answerable);
  const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);
  console.log(`${questions.length} questions: ${answerable.length} answerable, ${unanswerable.length} not (engine: ${db.url ? 'PostgreSQL' : 'PGlite'})`);
  console.log(`recall@5 of the search (answerable): ${pct(answerable.filter((s) => s.recall5).length, answerable.length)}`);
  console.log('\nthreshold | refused: answerable (false) | not answerable (correct) | near miss | off-topic | refusal precision | answered precision');
  for (let t = 0.3; t <= 0.901; t += 0.05) {
    const refused = (s: (typeof scored)[number]) => s.coverage < t;
    const fr = answerable.filter(refused).length;
    const cr = unanswerable.filter(refused).length;
    const near = unanswerable.filter((s) => s.q.kind === 'near_miss');
    const off = unanswerable.filter((s) => s.q.kind === 'off_topic');
    const answeredWrong = unanswerable.length - cr;
    console.log(
      `${t.toFixed(2)} | ${fr}/${answerable.length} (${pct(fr, answerable.length)}) | ${cr}/${unanswerable.length} (${pct(cr, unanswerable.length)}) | ${pct(near.filter(refused).length, near.length)} | ${pct(off.filter(refused).length, off.length)} | ${pct(cr, cr + fr)} | ${pct(answerable.length - fr, answerable.length - fr + answeredWrong)}`,
    );
  }

  // The whole route at the configured threshold, on the built-in local model.
  const threshold = services.light.minCoverage;
  const outcome = { answerable: { answered: 0, refused: 0 }, unanswerable: { answered: 0, refused: 0 } };
  const reasons: Record<string, number> = {};
  for (const q of questions) {
    const res = await fetch(`${base}/light/ask`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: q.question, provider: 'local' }),
    });
    const body = (await res.json()) as { refused: boolean; refusal: { reason: string } | null };
    if (res.status !== 200) throw new Error(`ask ${q.id}: ${res.status} ${JSON.stringify(body)}`);
    const bucket = q.answerable ? outcome.answerable : outcome.unanswerable;
    if (body.refused) {
      bucket.refused++;
      const r = `${q.answerable ? 'answerable' : 'not answerable'}: ${body.refusal!.reason}`;
      reasons[r] = (reasons[r] ?? 0) + 1;
    } else bucket.answered++;
  }
  const { answerable: a, unanswerable: u } = outcome;
  console.log(`\nPOST /light/ask, local model, threshold ${threshold}:`);
  console.log(`  answerable: ${a.answered} answered, ${a.refused} refused (false refusals ${pct(a.refused, a.answered + a.refused)})`);
  console.log(`  not answerable: ${u.refused} refused (${pct(u.refused, u.answered + u.refused)}), ${u.answered} answered`);
  console.log(`  refusal precision ${pct(u.refused, u.refused + a.refused)}; refusals by reason: ${JSON.stringify(reasons)}`);
} finally {
  server.closeAllConnections();
  server.close();
  await app.close();
  await db.drop();
}
