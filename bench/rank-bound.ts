/**
 * Knowledge search's bounded ranking (issue 28): recall@5 on the labelled sets with exact ranking and with
 * the bound, and how many passages the searches matched, so the reader sees whether the bound was reached.
 *
 *   npx tsx bench/rank-bound.ts                  (BOUNDS=0,1000,100,30 by default; a few minutes)
 *
 * Deterministic (no timing): for each bound (SVC_SEARCH_RANK_CANDIDATES; 0 = every match ranked) an app on
 * a throwaway database, a workspace holding the twelve documents of test/fixtures/labelled/corpus and one
 * holding the tuning half of test/fixtures/quality (bench/support/quality-set.ts; the held-out halves are
 * never opened), each answerable question through `POST /v1/knowledge/query` at topK 5, scored as
 * bench/retrieval.ts and bench/quality.ts score them. Full text only (no embeddings endpoint), synonyms on
 * (the default). The latency side is bench/knowledge.ts at 100 000 passages (docs/performance.md).
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { runPendingIngestion } from '../src/modules/knowledge/ingestion.worker.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase } from '../test/support/database.js';
import { loadHalf, recallFigure, runRecall, uploadHalf } from './support/quality-set.js';

const BOUNDS = (process.env.BOUNDS ?? '0,1000,100,30').split(',').map(Number);
const labelled = join(fileURLToPath(new URL('.', import.meta.url)), '../test/fixtures/labelled');

interface LabelledQuestion {
  id: string;
  question: string;
  answerable: boolean;
  answers?: { quote: string }[];
}
const questions = (JSON.parse(readFileSync(join(labelled, 'questions.json'), 'utf8')) as { questions: LabelledQuestion[] }).questions.filter((q) => q.answerable);
const corpus = readdirSync(join(labelled, 'corpus')).filter((f) => f.endsWith('.md'));
const tuning = loadHalf('tuning');
const contains = (text: string, quote: string) => text.replace(/\s+/g, ' ').includes(quote.replace(/\s+/g, ' '));

async function measure(bound: number) {
  const db = await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SVC_BACKGROUND_JOBS: 'off',
    SVC_DATA_DIR: db.dataDir,
    SVC_RATE_KNOWLEDGE_QUERY: '1000000',
    SVC_RATE_UPLOAD: '1000000',
    SVC_SEARCH_RANK_CANDIDATES: String(bound),
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  });
  const app = await createApp({ config, log: createLogger('silent') });
  const server = await listen(app.http, 0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tenant = async (name: string) => {
    const { workspace, issued } = await createWorkspace({ em: app.services.orm.em.fork(), clock: app.services.clock }, { name, plan: 'cabinet', seats: 10 });
    return { workspaceId: workspace.id, key: issued.secret };
  };
  try {
    const a = await tenant('labelled');
    for (const file of corpus) {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(join(labelled, 'corpus', file))], { type: 'text/markdown' }), file);
      const res = await fetch(`${baseUrl}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${a.key}` }, body: form });
      if (res.status !== 202) throw new Error(`upload ${file}: ${res.status}`);
    }
    const b = await tenant('tuning');
    await uploadHalf({ baseUrl, key: b.key }, tuning);
    await runPendingIngestion(app.services);
    const passages = async (workspaceId: string) =>
      Number((await app.services.orm.em.fork().execute<{ n: string }[]>('select count(*) as n from knowledge_chunk where workspace_id = ?', [workspaceId]))[0]!.n);
    let found = 0;
    for (const q of questions) {
      const res = await fetch(`${baseUrl}/v1/knowledge/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: q.question, topK: 5 }),
      });
      const body = (await res.json()) as { results: { text: string }[] };
      if (q.answers!.every((x) => body.results.some((r) => contains(r.text, x.quote)))) found++;
    }
    const tuningFound = await runRecall({ baseUrl, key: b.key }, tuning);
    return {
      bound,
      labelled: { recall: found / questions.length, n: questions.length, passages: await passages(a.workspaceId) },
      tuning: { recall: recallFigure(tuningFound) ?? 0, n: tuningFound.size, passages: await passages(b.workspaceId) },
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
    await db.drop();
  }
}

const rows = [];
for (const bound of BOUNDS) rows.push(await measure(bound));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log('| Ranked candidates | Labelled set recall@5 | Tuning half recall@5 |');
console.log('| --- | ---: | ---: |');
for (const r of rows) {
  console.log(`| ${r.bound === 0 ? 'every match (exact)' : r.bound} | ${pct(r.labelled.recall)} (n ${r.labelled.n}) | ${pct(r.tuning.recall)} (n ${r.tuning.n}) |`);
}
console.log(`Passages: labelled set ${rows[0]!.labelled.passages}, tuning half ${rows[0]!.tuning.passages}.`);
