/**
 * Knowledge: ingestion throughput and query latency.
 *
 *   npx tsx bench/knowledge.ts        (INGEST_MB=4 per run, INGEST_RUNS=3, QUERIES=300 by default; about a minute)
 *
 * One process, loopback only. Uses DATABASE_URL when set, else a throwaway database on the local
 * PostgreSQL server (127.0.0.1:5432), else the embedded database.
 * - Ingestion: a generated Markdown document of INGEST_MB megabytes (headings, prose, key-value facts,
 *   FAQ lines) is uploaded over HTTP, then the job is timed from claim to commit (parse, chunk, facts,
 *   Q&A on the app's parsing thread, contradiction check, bulk insert of the chunks with their search
 *   vectors, events), with the longest event-loop stall meanwhile; then the same parsing in this thread.
 * - Query: two workspaces holding 1 000 and 100 000 chunks of synthetic prose (Zipf-like vocabulary of
 *   5 000 words), inserted 20 000 at a time by INSERT ... SELECT over unnest() of the texts, the vectors
 *   computed by PostgreSQL; then QUERIES natural-language queries of 2 to 4 words each, one at a time,
 *   over HTTP (`POST /v1/knowledge/query`, topK 5) from a process of its own (bench/support/post-load.ts),
 *   and the same through the service function alone, in this process. Beside them: the statements the app
 *   sent per HTTP query and this process's CPU per HTTP query (both over the timed queries).
 * - CHUNKS=1000 (comma-separated) searches only the sizes named; PROFILE=/tmp/k writes a .cpuprofile of the
 *   timed HTTP queries of the first size (/tmp/k-1000.cpuprofile); KNOWLEDGE_ANSWERS_OUT=<file> writes every
 *   HTTP answer (the fill and the queries are seeded: two runs' rankings compare answer for answer).
 */
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/core/context.js';
import { createLogger } from '../src/lib/logger.js';
import { analyseDocument } from '../src/modules/knowledge/ingestion.js';
import { claimIngestionJob, processIngestionJob } from '../src/modules/knowledge/ingestion.worker.js';
import { flushSearchIndex } from '../src/modules/knowledge/knowledge.repository.js';
import { searchItems } from '../src/modules/knowledge/query.service.js';
import { authenticateSecret } from '../src/modules/keys/keys.service.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase } from '../test/support/database.js';

const INGEST_MB = Number(process.env.INGEST_MB ?? 4);
const INGEST_RUNS = Number(process.env.INGEST_RUNS ?? 3);
const QUERIES = Number(process.env.QUERIES ?? 300);
/** Workspace sizes searched (passages), e.g. CHUNKS=1000 for the request's own cost. */
const CHUNKS = (process.env.CHUNKS ?? '1000,100000').split(',').map(Number);
/** PROFILE=<file>: a .cpuprofile of this process over the timed HTTP queries of the first size (`<file>` gets its size). */
const PROFILE = process.env.PROFILE;

const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, dataDir: 'memory://', drop: async () => {} } : await createTestDatabase();
const config = loadConfig({
  LOG_LEVEL: 'silent',
  SVC_BACKGROUND_JOBS: 'off',
  SVC_DATA_DIR: db.dataDir,
  SVC_DB_POOL_MAX: '20',
  SVC_RATE_KNOWLEDGE_QUERY: '1000000',
  SVC_RATE_UPLOAD: '1000000',
  ...(db.url ? { DATABASE_URL: db.url } : {}),
  // SVC_SEARCH_RANK_CANDIDATES=0 measures exact ranking beside the default bound (docs/performance.md)
  ...(process.env.SVC_SEARCH_RANK_CANDIDATES ? { SVC_SEARCH_RANK_CANDIDATES: process.env.SVC_SEARCH_RANK_CANDIDATES } : {}),
});
const app = await createApp({ config, log: createLogger('silent') });

// Statements sent per HTTP query: every statement the ORM driver's pg clients send (the app runs in this process),
// counted while the timed HTTP queries run (the test/platform/rest-statements.test.ts way of counting).
let statementsSent = 0;
if (db.url) {
  const driverPg = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/postgresql'))('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const original = driverPg.Client.prototype.query;
  driverPg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    statementsSent++;
    return original.apply(this, args);
  };
}
const server = await listen(app.http, 0, '127.0.0.1');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const services = app.services;
const engine = db.url ? 'PostgreSQL' : 'embedded PGlite';

async function tenant(name: string) {
  const { workspace, user, issued } = await createWorkspace({ em: services.orm.em.fork(), clock: services.clock }, { name, plan: 'cabinet', seats: 1000 });
  return { workspaceId: workspace.id, userId: user.id, key: issued.secret };
}

// ------------------------------------------------------------------------------------------ vocabulary

let seed = 42;
const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff);
const syllables = ['ka', 'lo', 'mi', 'ren', 'tor', 'sa', 'vel', 'dun', 'pri', 'mos', 'el', 'tra', 'quo', 'ni', 'bar', 'sel'];
const VOCAB = Array.from({ length: 5000 }, (_, i) => {
  let w = '';
  for (let n = i + 7; w.length < 4 || n > 0; n = Math.floor(n / 16)) w += syllables[n % 16];
  return w;
});
/** Zipf-like: low indexes are frequent. */
const word = () => VOCAB[Math.floor(Math.pow(rand(), 3) * VOCAB.length)];
const sentence = (n = 8 + Math.floor(rand() * 12)) => {
  const words = Array.from({ length: n }, word);
  return `${words[0][0].toUpperCase()}${words.join(' ').slice(1)}.`;
};

function markdown(bytes: number): Buffer {
  const parts: string[] = [];
  let size = 0;
  for (let s = 0; size < bytes; s++) {
    const block = [
      `## Section ${s} ${word()}`,
      Array.from({ length: 5 }, () => sentence()).join(' '),
      `The ${word()} ${word()} fee is ${Math.floor(rand() * 500)} EUR, valid until 2027-0${1 + (s % 9)}-15.`,
      `How does ${word()} ${word()} work? ${sentence()}`,
      Array.from({ length: 4 }, () => sentence()).join(' '),
    ].join('\n\n');
    parts.push(block);
    size += Buffer.byteLength(block) + 2;
  }
  return Buffer.from(parts.join('\n\n'), 'utf8');
}

// ------------------------------------------------------------------------------------------ ingestion

async function uploadDoc(key: string, bytes: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'text/markdown' }), name);
  const res = await fetch(`${base}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  if (res.status !== 202) throw new Error(`upload ${res.status} ${await res.text()}`);
  return ((await res.json()) as { source: { id: string } }).source.id;
}

const ingestTenant = await tenant('ingest');
const runs: { mb: number; ms: number; analyseMs: number; chunks: number; facts: number; jobStallMs: number; inThreadStallMs: number }[] = [];
/** The longest gap between the ticks of a 20 ms interval timer while `fn` runs: how long the event loop stalled. */
async function longestStall(fn: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let max = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last);
    last = now;
  }, 20);
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  return Math.max(max, performance.now() - last);
}
for (let i = 0; i < INGEST_RUNS; i++) {
  const bytes = markdown(INGEST_MB * 1024 * 1024);
  const id = await uploadDoc(ingestTenant.key, bytes, `doc-${i}.md`);
  const job = await claimIngestionJob(services);
  if (!job) throw new Error('no job');
  const started = performance.now();
  // Parsing runs on the app's parsing thread (started by the first run, about 0.4 s of it).
  const jobStallMs = await longestStall(() => processIngestionJob(services, job));
  const ms = performance.now() - started;
  const [row] = await services.orm.em.fork().execute(`select status, chunk_count, fact_count from knowledge_source where id = ?`, [id]);
  if (row.status !== 'ready') throw new Error(`ingestion ended ${row.status}`);
  // The CPU part alone (parse, chunk, facts, Q&A), on the same bytes, in this thread, for the split.
  const a = performance.now();
  const inThreadStallMs = await longestStall(() => analyseDocument({ bytes, filename: 'again.md', mimeType: 'text/markdown' }));
  const analyseMs = performance.now() - a;
  runs.push({ mb: bytes.length / 1024 / 1024, ms, analyseMs, chunks: Number(row.chunk_count), facts: Number(row.fact_count), jobStallMs, inThreadStallMs });
}

// ------------------------------------------------------------------------------------------ query

async function fill(workspaceId: string, userId: string, chunks: number): Promise<void> {
  const em = services.orm.em.fork();
  const sourceId = `ksrc_bench_${chunks}`;
  const now = new Date();
  await em.execute(
    `insert into knowledge_source (id, workspace_id, user_id, name, mime_type, size_bytes, sha256, format, status, chunk_count, created_at, updated_at)
     values (?, ?, ?, ?, 'text/markdown', 0, '', 'markdown', 'ready', ?, ?, ?)`,
    [sourceId, workspaceId, userId, `bench-${chunks}.md`, chunks, now, now],
  );
  // 60 words per chunk drawn with the same skew as the ingestion text; 20 000 chunks per INSERT ... SELECT,
  // the texts sent as one parameter and the search vectors computed by PostgreSQL.
  const BATCH = 20_000;
  for (let from = 0; from < chunks; from += BATCH) {
    const n = Math.min(BATCH, chunks - from);
    const texts = Array.from({ length: n }, () => Array.from({ length: 60 }, word).join(' '));
    await em.execute(
      `insert into knowledge_chunk (id, workspace_id, source_id, ordinal, section, page, text, token_estimate, search_vector, created_at)
       select 'kchk_b' || ? || '_' || (? + g), ?, ?, ? + g, 'Section ' || ((? + g) % 500), 1 + (? + g) / 40, txt, 80,
              setweight(to_tsvector('simple', 'section ' || ((? + g) % 500)), 'A') || setweight(to_tsvector('simple', txt), 'B'), ?
         from unnest(string_to_array(?, chr(10))) with ordinality as rows(txt, g)`,
      [chunks, from, workspaceId, sourceId, from, from, from, from, now, texts.join('\n')],
    );
  }
  await em.execute('analyze knowledge_chunk');
  // What an ingestion does once its passages are committed (ingestion.worker.ts): the search index's
  // pending list merged, so the searches below read the index alone. Before 2026-11-27 this fill left up to
  // 4 MB of pending entries (437 pages, 2 439 passages at 100 000) that every search read in full.
  await flushSearchIndex(em);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const queryText = () => {
  const n = 2 + Math.floor(rand() * 3);
  // Mid-frequency words: the ones people search for are neither the commonest nor unseen.
  return `What about ${Array.from({ length: n }, () => VOCAB[50 + Math.floor(rand() * 1500)]).join(' ')}?`;
};

/** Sends the bodies one after another from a process of its own (bench/support/post-load.ts). */
async function postsFromChild(spec: { url: string; headers: Record<string, string>; bodies: unknown[]; keepAnswers?: boolean }) {
  const bodyFile = join(tmpdir(), `knowledge-bench-${process.pid}.json`);
  writeFileSync(bodyFile, JSON.stringify({ bodies: spec.bodies }));
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./support/post-load.ts', import.meta.url)), JSON.stringify({ url: spec.url, headers: spec.headers, bodyFile, runs: 0, keepAnswers: spec.keepAnswers })],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`post-load exited ${code}`))));
  });
  rmSync(bodyFile, { force: true });
  const r = JSON.parse(out.trim().split('\n').pop()!) as { ms: number[]; statuses: number[]; answers?: unknown[] };
  const failed = r.statuses.find((st) => st !== 200);
  if (failed) throw new Error(`POST ${spec.url}: ${failed}`);
  return { ms: r.ms, answers: r.answers ?? [] };
}

const results: { chunks: number; fillS: number; http: number[]; service: number[]; hits: number; statements: number; cpuMs: number }[] = [];
/** Every HTTP answer, written to KNOWLEDGE_ANSWERS_OUT when set: two runs' rankings compared (the fill and queries are seeded). */
const answersOut: { chunks: number; answers: unknown[] }[] = [];
for (const chunks of CHUNKS) {
  const t = await tenant(`query-${chunks}`);
  const started = performance.now();
  await fill(t.workspaceId, t.userId, chunks);
  const fillS = (performance.now() - started) / 1000;
  const http: number[] = [];
  const service: number[] = [];
  let hits = 0;
  const caller = await authenticateSecret(services.orm.em.fork(), services.clock, t.key);
  // Over HTTP, from a process of its own (bench/support/post-load.ts): 20 warm-up queries, then QUERIES.
  const queries = Array.from({ length: QUERIES }, () => queryText());
  const headers = { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' };
  await postsFromChild({ url: `${base}/v1/knowledge/query`, headers, bodies: Array.from({ length: 20 }, () => ({ query: queryText() })) });
  const sentBefore = statementsSent;
  const profiling = PROFILE && chunks === CHUNKS[0] ? new Session() : undefined;
  if (profiling) {
    profiling.connect();
    await profiling.post('Profiler.enable');
    await profiling.post('Profiler.start');
  }
  const cpuBefore = process.cpuUsage();
  const answered = await postsFromChild({ url: `${base}/v1/knowledge/query`, headers, bodies: queries.map((query) => ({ query, topK: 5 })), keepAnswers: true });
  const cpu = process.cpuUsage(cpuBefore);
  const statements = (statementsSent - sentBefore) / QUERIES;
  if (profiling) {
    const { profile } = await profiling.post('Profiler.stop');
    writeFileSync(PROFILE!.replace(/(\.cpuprofile)?$/, `-${chunks}.cpuprofile`), JSON.stringify(profile));
    profiling.disconnect();
  }
  http.push(...answered.ms);
  for (const a of answered.answers as { results: unknown[] }[]) hits += a.results.length;
  answersOut.push({ chunks, answers: answered.answers });
  // The search alone, in this process (no HTTP, no client).
  for (const q of queries) {
    const ctx = createContext(services, caller);
    const s = performance.now();
    await searchItems(ctx, { workspaceId: t.workspaceId, query: q, topK: 5, scope: { kind: 'workspace' } });
    service.push(performance.now() - s);
  }
  results.push({ chunks, fillS, http, service, hits: hits / QUERIES, statements, cpuMs: (cpu.user + cpu.system) / 1000 / QUERIES });
}

// ------------------------------------------------------------------------------------------ report

const f = (n: number, d = 1) => n.toFixed(d);
console.log(`\nKnowledge bench on ${engine}\n`);
console.log('| Run | Document | Chunks | Facts | Ingestion time | of which parsing and extraction | Throughput | Longest event-loop stall: job | same parsing in the main thread |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
runs.forEach((r, i) =>
  console.log(
    `| ${i + 1} | ${f(r.mb, 2)} MB Markdown | ${r.chunks} | ${r.facts} | ${f(r.ms / 1000, 2)} s | ${f(r.analyseMs / 1000, 2)} s | ${f(r.mb / (r.ms / 1000), 2)} MB/s | ${f(r.jobStallMs, 0)} ms | ${f(r.inThreadStallMs, 0)} ms |`,
  ),
);
console.log('\n| Chunks in workspace | Bulk fill | Queries | Avg results | Statements per HTTP query | Server CPU per HTTP query | HTTP p50 | HTTP p99 | Search only p50 | Search only p99 |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of results) {
  console.log(
    `| ${r.chunks.toLocaleString('en')} | ${f(r.fillS)} s | ${QUERIES} | ${f(r.hits)} | ${db.url ? f(r.statements, 2) : 'n/a'} | ${f(r.cpuMs, 2)} ms | ${f(pct(r.http, 50), 2)} ms | ${f(pct(r.http, 99), 2)} ms | ${f(pct(r.service, 50), 2)} ms | ${f(pct(r.service, 99), 2)} ms |`,
  );
}

if (process.env.KNOWLEDGE_ANSWERS_OUT) writeFileSync(process.env.KNOWLEDGE_ANSWERS_OUT, JSON.stringify(answersOut));

server.closeAllConnections();
server.close();
await app.close();
await db.drop();
