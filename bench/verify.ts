/**
 * The verifier and the register of proofs (issue 13).
 *
 *   npx tsx bench/verify.ts        (RUNS=15 per verification case, CERTS=100000 by default)
 *
 * Loopback only, on a throwaway database of the local PostgreSQL server (or DATABASE_URL). The server runs
 * here; the HTTP clients of cases 1 and 2 run in a process of their own (bench/support/post-load.ts).
 *   1. POST /v1/verify: a 10 000-word text against 200 passages, end to end over HTTP (p50, p95), and the
 *      engine alone (claims, indexing, rules) on the same input.
 *   2. POST /v1/verify: the same text against a collection of 10 000 chunks (10 ready sources).
 *   3. GET /v1/registre/export of CERTS certificates: bytes, time, and the process RSS sampled every 20 ms
 *      (baseline before, peak during), next to the same export of CERTS / 10 certificates: flat memory
 *      means the peak does not grow with the chain. GET /v1/registre/summary over the same chain.
 * Texts are generated from a fixed seed, so every run reads the same words.
 */
import { spawn } from 'node:child_process';
import { createHash, sign } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { newId } from '../src/lib/ids.js';
import { insertChunks } from '../src/modules/knowledge/knowledge.repository.js';
import { canonicalJson } from '../src/modules/proofs/proofs.service.js';
import type { CertificateBody } from '../src/modules/proofs/proofs.schemas.js';
import { Verifier } from '../src/modules/verify/engine.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { issueKey } from '../src/modules/keys/keys.service.js';
import { createTestDatabase } from '../test/support/database.js';
import { verifyInput } from './support/verify-input.js';

const RUNS = Number(process.env.RUNS ?? 15);
const CERTS = Number(process.env.CERTS ?? 100_000);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const fmt = (xs: number[]) => `p50 ${quantile(xs, 0.5).toFixed(0)} ms, p95 ${quantile(xs, 0.95).toFixed(0)} ms (n=${xs.length})`;

const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, dataDir: 'memory://', drop: async () => {} } : await createTestDatabase();
const config = loadConfig({
  LOG_LEVEL: 'silent',
  SVC_BACKGROUND_JOBS: 'off',
  SVC_DATA_DIR: db.dataDir,
  SVC_DB_POOL_MAX: '20',
  SVC_RATE_VERIFY: '100000',
  ...(db.url ? { DATABASE_URL: db.url } : {}),
});
const app = await createApp({ config, log: createLogger('silent') });
const services = app.services;
const server = await listen(app.http, 0, '127.0.0.1');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const actx = () => ({ em: services.orm.em.fork(), clock: services.clock });

async function tenant() {
  const { workspace, user } = await createWorkspace(actx(), { name: 'bench', plan: 'cabinet', seats: 10 });
  const { secret } = await issueKey(actx(), { workspaceId: workspace.id, userId: user.id }, {});
  return { workspaceId: workspace.id, userId: user.id, key: secret };
}

/**
 * `runs` POST /v1/verify one after another, sent by a process of its own (bench/support/post-load.ts), so
 * the client never shares the server's event loop. Returns each call's milliseconds and the claims of the last.
 */
async function posts(key: string, body: unknown, runs: number): Promise<{ ms: number[]; claims: number }> {
  const bodyFile = join(tmpdir(), `verify-bench-${process.pid}.json`);
  writeFileSync(bodyFile, JSON.stringify(body));
  const spec = { url: `${base}/v1/verify`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, bodyFile, runs };
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/post-load.ts', import.meta.url)), JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`post-load exited ${code}`))));
  });
  rmSync(bodyFile, { force: true });
  const r = JSON.parse(out.trim().split('\n').pop()!) as { ms: number[]; statuses: number[]; last: { report?: { claims: unknown[] } } | null };
  const failed = r.statuses.find((st) => st !== 201);
  if (failed) throw new Error(`POST /v1/verify: ${failed}`);
  return { ms: r.ms, claims: r.last?.report?.claims.length ?? 0 };
}

try {
  const { text, passages, next } = verifyInput(10_000, 200);
  const t1 = await tenant();

  // 1. Against 200 passages.
  const engine: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const v = new Verifier(text);
    await v.addPassages(passages);
    await v.verify(text);
    engine.push(performance.now() - started);
  }
  const { ms: http, claims } = await posts(t1.key, { text, passages }, RUNS);
  console.log(`text: ${text.split(' ').length} words, ${text.length} characters, ${claims} claims`);
  console.log(`200 passages, engine only: ${fmt(engine)}`);
  console.log(`200 passages, POST /v1/verify over HTTP: ${fmt(http)}`);

  // 2. Against a collection of 10 000 chunks.
  const em = services.orm.em.fork();
  const collectionId = newId('col');
  const now = new Date();
  await em.execute(
    `insert into knowledge_collection (id, workspace_id, user_id, name, description, created_at, updated_at) values (?, ?, ?, 'bench', '', ?, ?)`,
    [collectionId, t1.workspaceId, t1.userId, now, now],
  );
  for (let s = 0; s < 10; s++) {
    const sourceId = newId('src');
    await em.execute(
      `insert into knowledge_source (id, workspace_id, user_id, collection_id, name, filename, mime_type, size_bytes, sha256, format, title, status, error,
         chunk_count, fact_count, contradiction_count, qa_count, ingested_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, null, 'text/plain', 0, ?, 'text', null, 'ready', null, 1000, 0, 0, 0, ?, ?, ?)`,
      [sourceId, t1.workspaceId, t1.userId, collectionId, `source-${s}.txt`, String(s).padStart(64, '0'), now, now, now],
    );
    const chunks = Array.from({ length: 1000 }, (_, i) => ({ id: newId('chk'), ordinal: i, section: '', page: 1, text: next.passageOf(4), tokenEstimate: 100 }));
    await insertChunks(em, { workspaceId: t1.workspaceId, sourceId, createdAt: now, chunks });
  }
  const { ms: coll } = await posts(t1.key, { text, collectionIds: [collectionId] }, RUNS);
  console.log(`collection of 10 000 chunks, POST /v1/verify over HTTP: ${fmt(coll)}`);

  // 3. Export of a long chain.
  const signing = services.signing.key;
  async function chainOf(count: number): Promise<string> {
    const t = await tenant();
    const emc = services.orm.em.fork();
    let prevHash: string | null = null;
    const started = Date.now();
    for (let from = 1; from <= count; from += 1000) {
      const rows: unknown[] = [];
      const values: string[] = [];
      for (let seq = from; seq < Math.min(count + 1, from + 1000); seq++) {
        const body: CertificateBody = {
          version: 1,
          id: newId('prf'),
          workspaceId: t.workspaceId,
          seq,
          createdAt: new Date(started + seq * 1000).toISOString(),
          route: seq % 3 === 0 ? 'POST /v1/verify' : 'POST /v1/chat/completions',
          modelAddress: 'svc-auto',
          model: 'bench-model',
          conversationId: null,
          requestHash: createHash('sha256').update(`req${seq}`).digest('hex'),
          answerHash: createHash('sha256').update(`ans${seq}`).digest('hex'),
          usage: { promptTokens: 10, completionTokens: 20, totalTokens: 30 },
          prevHash,
          keyId: signing.keyId,
          algorithm: 'Ed25519',
        };
        const payload = Buffer.from(canonicalJson(body), 'utf8');
        const hash = createHash('sha256').update(payload).digest('hex');
        values.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
        rows.push(body.id, t.workspaceId, seq, body.route, body.modelAddress, body.model, null, body.requestHash, body.answerHash, 10, 20, 30, prevHash, hash,
          sign(null, payload, signing.privateKey).toString('base64url'), signing.keyId, new Date(body.createdAt));
        prevHash = hash;
      }
      await emc.execute(
        `insert into proof_certificate (id, workspace_id, seq, route, model_address, model, conversation_id, request_hash, answer_hash,
           prompt_tokens, completion_tokens, total_tokens, prev_hash, hash, signature, key_id, created_at) values ${values.join(', ')}`,
        rows,
      );
    }
    return t.key;
  }

  async function exportOf(key: string): Promise<{ ms: number; bytes: number; baseMb: number; peakMb: number }> {
    global.gc?.();
    const baseMb = process.memoryUsage().rss / 2 ** 20;
    let peakMb = baseMb;
    const timer = setInterval(() => (peakMb = Math.max(peakMb, process.memoryUsage().rss / 2 ** 20)), 20);
    const started = performance.now();
    const res = await fetch(`${base}/v1/registre/export`, { headers: { authorization: `Bearer ${key}` } });
    let bytes = 0;
    const reader = res.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
    clearInterval(timer);
    if (res.status !== 200) throw new Error(`export: ${res.status}`);
    return { ms: performance.now() - started, bytes, baseMb, peakMb };
  }

  for (const count of [CERTS / 10, CERTS]) {
    const key = await chainOf(count);
    const e = await exportOf(key);
    const sumStarted = performance.now();
    const summary = (await (await fetch(`${base}/v1/registre/summary`, { headers: { authorization: `Bearer ${key}` } })).json()) as { chain: { length: number; valid: boolean } };
    const sumMs = performance.now() - sumStarted;
    console.log(
      `export of ${count} certificates: ${(e.bytes / 2 ** 20).toFixed(1)} MB gzipped in ${(e.ms / 1000).toFixed(1)} s; RSS ${e.baseMb.toFixed(0)} MB before, peak ${e.peakMb.toFixed(0)} MB (+${(e.peakMb - e.baseMb).toFixed(0)} MB); summary (chain walk, length ${summary.chain.length}, valid ${summary.chain.valid}) ${(sumMs / 1000).toFixed(1)} s`,
    );
  }
} finally {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close();
  await db.drop();
}
