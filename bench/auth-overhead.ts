/**
 * What authentication, the per-key rate limit and the allowance check add to a request.
 *
 *   npx tsx bench/auth-overhead.ts     (DURATION_S=5 per variant, CONCURRENCY=16, ROUNDS=5 by default)
 *
 * One process, loopback only. Uses DATABASE_URL when set, else a throwaway database on the local
 * PostgreSQL server (127.0.0.1:5432), else the embedded database. Four variants of one trivial route
 * (`{ ok: true }`), each hammered by CONCURRENCY keep-alive clients for DURATION_S seconds in all,
 * the variants taking turns in ROUNDS slices:
 *   bare      plain express handler, no key
 *   auth      mount(): key lookup (hash), user, workspace, service context
 *   auth+rate same, the key has ratePerMinute (one upsert on rate_counter per request)
 *   metered   same, plus assertCanConsume (per-key budget from the 15 s cache, allowance from the ledger)
 */
import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { Pool } from 'undici';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { createContext } from '../src/core/context.js';
import { authenticateSecret, issueKey } from '../src/modules/keys/keys.service.js';
import { assertCanConsume, recordConsumption } from '../src/modules/usage/metering.service.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { mount } from '../rest/route.js';
import { createTestDatabase } from '../test/support/database.js';

const DURATION_MS = Number(process.env.DURATION_S ?? 5) * 1000;
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, dataDir: 'memory://', drop: async () => {} } : await createTestDatabase();
const config = loadConfig({
  LOG_LEVEL: 'silent',
  SVC_BACKGROUND_JOBS: 'off',
  SVC_DATA_DIR: db.dataDir,
  SVC_DB_POOL_MAX: '20',
  ...(db.url ? { DATABASE_URL: db.url } : {}),
});
const app = await createApp({ config, log: createLogger('silent') });
const services = app.services;
const actx = { em: services.orm.em.fork(), clock: services.clock };
const { workspace, user } = await createWorkspace(actx, { name: 'bench', plan: 'cabinet', seats: 1000 });
const owner = { workspaceId: workspace.id, userId: user.id };
const plainKey = (await issueKey({ em: services.orm.em.fork(), clock: services.clock }, owner, {})).secret;
const limitedKey = (
  await issueKey({ em: services.orm.em.fork(), clock: services.clock }, owner, { ratePerMinute: 1_000_000_000, monthlyQuestionLimit: 1_000_000 })
).secret;

const router = Router();
router.get('/bench/bare', (_req, res) => {
  res.json({ ok: true });
});
const base = { method: 'get', summary: 'bench', tag: 'bench', scope: null, responses: {} } as const;
mount(router, services, { ...base, path: '/bench/auth', handler: async () => ({ status: 200, body: { ok: true } }) });
mount(router, services, {
  ...base,
  path: '/bench/metered',
  handler: async (ctx) => {
    await assertCanConsume(ctx, { feature: 'gateway' });
    return { status: 200, body: { ok: true } };
  },
});
const http = express();
http.use(router);
const server = await listen(http, 0, '127.0.0.1');
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// A realistic ledger: 500 answers this month for the allowance and budget sums to read.
const caller = await authenticateSecret(services.orm.em.fork(), services.clock, limitedKey);
for (let i = 0; i < 500; i++) {
  await recordConsumption(createContext(services, caller), {
    route: 'bench',
    modelClass: 'standard',
    usage: { promptTokens: 1000, completionTokens: 500, totalTokens: 1500 },
  });
}

interface Variant {
  name: string;
  path: string;
  key?: string;
  latencies: number[];
  errors: number;
  ms: number;
}

/** One slice of load on one variant: CONCURRENCY keep-alive clients for `ms` (after a short warm-up). */
async function slice(pool: Pool, v: Variant, ms: number): Promise<void> {
  const headers = v.key ? { authorization: `Bearer ${v.key}` } : {};
  const warmEnd = performance.now() + 200;
  const end = warmEnd + ms;
  const worker = async () => {
    for (;;) {
      const started = performance.now();
      if (started >= end) return;
      const res = await pool.request({ path: v.path, method: 'GET', headers });
      await res.body.text();
      const done = performance.now();
      if (res.statusCode !== 200) v.errors++;
      if (started >= warmEnd) v.latencies.push(done - started);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  v.ms += ms;
}

const variants: Variant[] = [
  { name: 'bare', path: '/bench/bare' },
  { name: 'auth', path: '/bench/auth', key: plainKey },
  { name: 'auth+rate', path: '/bench/auth', key: limitedKey },
  { name: 'metered', path: '/bench/metered', key: limitedKey },
].map((v) => ({ ...v, latencies: [], errors: 0, ms: 0 }));

// Variants take turns in short slices so that load from elsewhere on the machine hits them alike.
const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
for (let round = 0; round < ROUNDS; round++) {
  for (const v of variants) await slice(pool, v, DURATION_MS / ROUNDS);
}
await pool.close();

const results = variants.map((v) => {
  const sorted = [...v.latencies].sort((x, y) => x - y);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return { name: v.name, errors: v.errors, rps: sorted.length / (v.ms / 1000), p50: pct(50), p99: pct(99) };
});
const bare = results[0];
const driver = config.databaseUrl ? 'postgresql' : 'pglite';
console.log(`driver=${driver} concurrency=${CONCURRENCY} duration=${DURATION_MS / 1000}s per variant in ${ROUNDS} rounds node=${process.version}`);
console.log('variant     req/s    p50 ms  p99 ms  req/s vs bare  p50 vs bare  errors');
for (const r of results) {
  console.log(
    [
      r.name.padEnd(10),
      r.rps.toFixed(0).padStart(7),
      r.p50.toFixed(2).padStart(8),
      r.p99.toFixed(2).padStart(7),
      (r.rps / bare.rps).toFixed(3).padStart(14),
      (r.p50 / bare.p50).toFixed(1).padStart(12) + 'x',
      String(r.errors).padStart(7),
    ].join(' '),
  );
}

server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));
await app.close();
await db.drop();
