/**
 * What the gateway adds to a model call: the same OpenAI-style request sent straight to the scripted
 * model server, then through `POST /v1/chat/completions` (key check, route ceiling, allowance,
 * routing, the provider call, the certificate appended to the chain, the ledger entry).
 *
 *   npx tsx bench/gateway.ts          (DURATION_S=4 per scenario by default; about 70 s in all)
 *
 * One process, loopback only. Uses DATABASE_URL when set, else a throwaway database on the local
 * PostgreSQL server (127.0.0.1:5432), else the embedded database. For 1, 10 and 100 keep-alive
 * clients, plain and streamed (`stream: true`, time to the last byte), direct and through the
 * gateway, all clients of one workspace (one proof chain, the worst case for the chain lock); a last
 * row spreads 100 clients over 10 workspaces.
 */
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase } from '../test/support/database.js';
import { startScriptedModelServer } from '../test/support/scripted-model-server.js';

const DURATION_MS = Number(process.env.DURATION_S ?? 4) * 1000;
const WARMUP_MS = 500;

const models = await startScriptedModelServer();
models.setDefault({ chunks: ['The', ' answer', ' is', ' forty', '-two', '.'], usage: { prompt: 24, completion: 6 } });

const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, dataDir: 'memory://', drop: async () => {} } : await createTestDatabase();
const config = loadConfig({
  LOG_LEVEL: 'silent',
  SVC_BACKGROUND_JOBS: 'off',
  SVC_DATA_DIR: db.dataDir,
  SVC_DB_POOL_MAX: '20',
  SVC_RATE_GATEWAY: '1000000000',
  SVC_MODEL_BASE_URL: models.baseUrl,
  SVC_MODEL: 'scripted-standard',
  SVC_MODEL_CLASS: 'standard',
  ...(db.url ? { DATABASE_URL: db.url } : {}),
});
const app = await createApp({ config, log: createLogger('silent') });
const server = await listen(app.http, 0, '127.0.0.1');
const gatewayOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const modelOrigin = new URL(models.baseUrl).origin;

const keys: string[] = [];
for (let i = 0; i < 10; i++) {
  const created = await createWorkspace({ em: app.services.orm.em.fork(), clock: app.services.clock }, { name: `bench ${i}`, plan: 'cabinet', seats: 10_000 });
  keys.push(created.issued.secret);
}

interface Result {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

async function run(target: 'direct' | 'gateway', clients: number, stream: boolean, workspaces = 1): Promise<Result> {
  const origin = target === 'direct' ? modelOrigin : gatewayOrigin;
  const pool = new Pool(origin, { connections: clients, pipelining: 1 });
  const body = (n: number) =>
    JSON.stringify({
      model: target === 'direct' ? 'scripted-standard' : 'svc-auto',
      messages: [{ role: 'user', content: `Question number ${n}?` }],
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    });
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const warmEnd = performance.now() + WARMUP_MS;
  const end = warmEnd + DURATION_MS;
  const worker = async (w: number) => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${keys[w % workspaces]}` };
    for (;;) {
      const started = performance.now();
      if (started >= end) return;
      const res = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body: body(n++) });
      const text = await res.body.text();
      const done = performance.now();
      if (res.statusCode !== 200 || (stream && !text.endsWith('data: [DONE]\n\n'))) errors++;
      if (started >= warmEnd) latencies.push(done - started);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, w) => worker(w)));
  await pool.close();
  latencies.sort((x, y) => x - y);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { requests: latencies.length, errors, rps: latencies.length / (DURATION_MS / 1000), p50: pct(50), p99: pct(99) };
}

const driver = config.databaseUrl ? 'postgresql' : 'pglite';
console.log(`driver=${driver} duration=${DURATION_MS / 1000}s per scenario node=${process.version}`);
console.log('mode      clients  direct req/s  p50 ms  p99 ms | gateway req/s  p50 ms  p99 ms | added p50 ms  added p99 ms  errors');
const row = (mode: string, clients: string, d: Result, g: Result) =>
  console.log(
    [
      mode.padEnd(8),
      clients.padStart(8),
      d.rps.toFixed(0).padStart(13),
      d.p50.toFixed(2).padStart(7),
      d.p99.toFixed(2).padStart(7),
      '|',
      g.rps.toFixed(0).padStart(13),
      g.p50.toFixed(2).padStart(7),
      g.p99.toFixed(2).padStart(7),
      '|',
      (g.p50 - d.p50).toFixed(2).padStart(12),
      (g.p99 - d.p99).toFixed(2).padStart(13),
      String(d.errors + g.errors).padStart(7),
    ].join(' '),
  );
for (const stream of [false, true]) {
  for (const clients of [1, 10, 100]) {
    const direct = await run('direct', clients, stream);
    const gateway = await run('gateway', clients, stream);
    row(stream ? 'stream' : 'plain', String(clients), direct, gateway);
  }
}
row('plain', '100/10ws', await run('direct', 100, false), await run('gateway', 100, false, 10));

server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));
await app.close();
await models.close();
await db.drop();
