/**
 * Hybrid retrieval: recall@5 on the labelled question set, with and without vectors, and the cost of the
 * in-process vector ranking (the fallback without pgvector) against the size of the searched scope.
 *
 *   npx tsx bench/retrieval.ts                 (about a minute on PostgreSQL)
 *   SVC_EMBEDDINGS_BASE_URL=http://127.0.0.1:11434/v1 SVC_EMBEDDINGS_MODEL=nomic-embed-text npx tsx bench/retrieval.ts
 *
 * Uses DATABASE_URL when set, else a throwaway database on the local PostgreSQL server, else the
 * embedded database (SVC_TEST_EMBEDDED=1 forces it).
 * - Recall: the twelve documents of test/fixtures/labelled/corpus are uploaded over HTTP into a
 *   workspace of an app without embeddings and of an app with them (the endpoint given in the
 *   environment, else bench/support/ngram-embeddings.ts, a model-free character-trigram embedder); each
 *   answerable question is asked through `POST /v1/knowledge/query` (topK 5, the chat turn's default).
 *   A question is found when, for each of its answers, one of the five passages contains the answer's
 *   quote. Also recall@1, by kind of question.
 * - Cost: SCAN_SIZES passages with random unit vectors of 384 and 1 536 dimensions in one workspace;
 *   the median time of `vectorCandidates` (read the vectors of the scope, rank them, keep 50), 20 queries.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, listen, type RunningApp } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { unitVector } from '../src/modules/knowledge/embeddings.js';
import { runPendingIngestion } from '../src/modules/knowledge/ingestion.worker.js';
import { storeEmbeddings, vectorCandidates } from '../src/modules/knowledge/vector-store.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase, type TestDatabase } from '../test/support/database.js';
import { startNgramEmbeddings } from './support/ngram-embeddings.js';

const SCAN_SIZES = (process.env.SCAN_SIZES ?? '1000,5000,20000').split(',').map(Number);
const here = fileURLToPath(new URL('.', import.meta.url));
const fixtures = join(here, '../test/fixtures/labelled');

interface Question {
  id: string;
  question: string;
  answerable: boolean;
  kind: string;
  answers?: { document: string; section: string; quote: string }[];
}
const questions = (JSON.parse(readFileSync(join(fixtures, 'questions.json'), 'utf8')) as { questions: Question[] }).questions.filter((q) => q.answerable);
const corpus = readdirSync(join(fixtures, 'corpus')).filter((f) => f.endsWith('.md'));

const external = process.env.SVC_EMBEDDINGS_BASE_URL;
const ngram = external ? null : await startNgramEmbeddings();
const embeddingsEnv = {
  SVC_EMBEDDINGS_BASE_URL: external ?? ngram!.baseUrl,
  SVC_EMBEDDINGS_MODEL: process.env.SVC_EMBEDDINGS_MODEL ?? 'ngram-trigram-512',
  ...(process.env.SVC_EMBEDDINGS_API_KEY ? { SVC_EMBEDDINGS_API_KEY: process.env.SVC_EMBEDDINGS_API_KEY } : {}),
};

interface Started {
  app: RunningApp;
  base: string;
  db: TestDatabase;
  close(): Promise<void>;
}

let engine = '';

async function start(env: Record<string, string>): Promise<Started> {
  const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, dataDir: 'memory://', drop: async () => {} } : await createTestDatabase();
  engine = db.url ? 'PostgreSQL' : 'embedded PGlite';
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SVC_BACKGROUND_JOBS: 'off',
    SVC_DATA_DIR: db.dataDir,
    SVC_RATE_KNOWLEDGE_QUERY: '1000000',
    SVC_RATE_UPLOAD: '1000000',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...env,
  });
  const app = await createApp({ config, log: createLogger('silent') });
  const server = await listen(app.http, 0, '127.0.0.1');
  return {
    app,
    db,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await db.drop();
    },
  };
}

async function tenant(app: RunningApp) {
  const { workspace, user, issued } = await createWorkspace({ em: app.services.orm.em.fork(), clock: app.services.clock }, { name: 'bench', plan: 'cabinet', seats: 100 });
  return { workspaceId: workspace.id, userId: user.id, key: issued.secret };
}

// ---------------------------------------------------------------------------------------------- recall

interface Outcome {
  at5: boolean;
  at1: boolean;
}

async function recall(env: Record<string, string>): Promise<{ outcomes: Map<string, Outcome>; unreachable: number; queryMs: number[] }> {
  const s = await start(env);
  try {
    const t = await tenant(s.app);
    for (const file of corpus) {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(join(fixtures, 'corpus', file))], { type: 'text/markdown' }), file);
      const res = await fetch(`${s.base}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${t.key}` }, body: form });
      if (res.status !== 202) throw new Error(`upload ${file}: ${res.status} ${await res.text()}`);
    }
    await runPendingIngestion(s.app.services);
    const texts = (await s.app.services.orm.em.fork().execute<{ text: string }[]>('select text from knowledge_chunk where workspace_id = ?', [t.workspaceId])).map((r) => r.text);
    const contains = (text: string, quote: string) => text.replace(/\s+/g, ' ').includes(quote.replace(/\s+/g, ' '));
    const unreachable = questions.filter((q) => q.answers!.some((a) => !texts.some((x) => contains(x, a.quote)))).length;
    const outcomes = new Map<string, Outcome>();
    const queryMs: number[] = [];
    for (const q of questions) {
      const started = performance.now();
      const res = await fetch(`${s.base}/v1/knowledge/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: q.question, topK: 5 }),
      });
      const body = (await res.json()) as { results: { text: string }[] };
      queryMs.push(performance.now() - started);
      const found = (results: { text: string }[]) => q.answers!.every((a) => results.some((r) => contains(r.text, a.quote)));
      outcomes.set(q.id, { at5: found(body.results), at1: found(body.results.slice(0, 1)) });
    }
    return { outcomes, unreachable, queryMs };
  } finally {
    await s.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}% (${n}/${d})`;

const fullText = await recall({});
const hybrid = await recall(embeddingsEnv);

const kinds = [...new Set(questions.map((q) => q.kind))];
console.log(`\nRecall on the labelled set (${questions.length} answerable questions, ${corpus.length} documents), ${engine}`);
console.log(`embeddings: ${external ? `${embeddingsEnv.SVC_EMBEDDINGS_MODEL} at ${external}` : 'model-free character-trigram embedder (bench/support/ngram-embeddings.ts)'}`);
console.log(`questions whose quote no passage holds (chunking): ${fullText.unreachable}\n`);
console.log('| Questions | n | Full text recall@5 | Hybrid recall@5 | Full text recall@1 | Hybrid recall@1 |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const kind of ['all', ...kinds]) {
  const qs = questions.filter((q) => kind === 'all' || q.kind === kind);
  const count = (r: typeof fullText, k: keyof Outcome) => qs.filter((q) => r.outcomes.get(q.id)![k]).length;
  console.log(
    `| ${kind} | ${qs.length} | ${pct(count(fullText, 'at5'), qs.length)} | ${pct(count(hybrid, 'at5'), qs.length)} | ${pct(count(fullText, 'at1'), qs.length)} | ${pct(count(hybrid, 'at1'), qs.length)} |`,
  );
}
const gained = questions.filter((q) => !fullText.outcomes.get(q.id)!.at5 && hybrid.outcomes.get(q.id)!.at5).map((q) => q.id);
const lost = questions.filter((q) => fullText.outcomes.get(q.id)!.at5 && !hybrid.outcomes.get(q.id)!.at5).map((q) => q.id);
console.log(`\nfound only with vectors: ${gained.join(', ') || 'none'}; found only without: ${lost.join(', ') || 'none'}`);
console.log(`query over HTTP, median: full text ${median(fullText.queryMs).toFixed(1)} ms, hybrid ${median(hybrid.queryMs).toFixed(1)} ms (includes embedding the query)`);

// ------------------------------------------------------------------------------------------------ cost

const cost = await start({ ...embeddingsEnv, SVC_EMBEDDINGS_MAX_SCAN: String(Math.max(...SCAN_SIZES)) });
try {
  const em = () => cost.app.services.orm.em.fork();
  let seed = 7;
  const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  const vector = (dims: number) => unitVector(Array.from({ length: dims }, rand));
  console.log('\nIn-process vector ranking (no pgvector): one search over the scope, median of 20\n');
  console.log('| Passages in scope | Dimensions | Vectors read | Median | p90 |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const dims of [384, 1536]) {
    const t = await tenant(cost.app);
    const form = new FormData();
    form.append('file', new Blob(['# Seed\n\nA passage.'], { type: 'text/markdown' }), 'seed.md');
    await fetch(`${cost.base}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${t.key}` }, body: form });
    await runPendingIngestion(cost.app.services);
    const [source] = await em().execute<{ id: string }[]>('select id from knowledge_source where workspace_id = ?', [t.workspaceId]);
    let filled = 0;
    for (const size of SCAN_SIZES) {
      await em().execute(
        `insert into knowledge_chunk (id, workspace_id, source_id, ordinal, section, page, text, token_estimate, search_vector, created_at)
         select 'kchk_bench_${dims}_' || g, ?, ?, g, '', 1, 'bench passage', 2, to_tsvector('simple', 'bench passage'), now()
           from generate_series(?::int, ?::int) g`,
        [t.workspaceId, source!.id, filled + 1, size],
      );
      for (let from = filled + 1; from <= size; from += 500) {
        const rows = Array.from({ length: Math.min(500, size - from + 1) }, (_, i) => ({ chunkId: `kchk_bench_${dims}_${from + i}`, workspaceId: t.workspaceId, vector: vector(dims) }));
        await storeEmbeddings(em(), { model: embeddingsEnv.SVC_EMBEDDINGS_MODEL, engine: 'in-process', now: new Date(), rows });
      }
      filled = size;
      const ms: number[] = [];
      let read = 0;
      for (let i = 0; i < 21; i++) {
        const started = performance.now();
        const c = await vectorCandidates(em(), {
          engine: 'in-process',
          model: embeddingsEnv.SVC_EMBEDDINGS_MODEL,
          query: vector(dims),
          workspaceId: t.workspaceId,
          scope: { kind: 'workspace' },
          limit: 50,
          maxScan: Math.max(...SCAN_SIZES),
        });
        if (i > 0) ms.push(performance.now() - started);
        read = c.ranked.length;
      }
      ms.sort((a, b) => a - b);
      console.log(`| ${size.toLocaleString('en')} | ${dims} | ${((size * dims * 4) / 1e6).toFixed(0)} MB | ${median(ms).toFixed(0)} ms | ${ms[Math.floor(ms.length * 0.9)]!.toFixed(0)} ms |`);
      if (read !== 50) throw new Error(`expected 50 candidates, got ${read}`);
    }
  }
} finally {
  await cost.close();
  ngram?.server.close();
}
