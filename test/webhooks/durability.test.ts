import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, listen, type RunningApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { ManualClock, systemClock, type Clock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { claimDue, runDueDeliveries, runRetrySweep } from '../../src/modules/webhooks/dispatcher.js';
import { publishEvent } from '../../src/modules/webhooks/events.js';
import { LEASE_MS } from '../../src/modules/webhooks/schedule.js';
import { WebhookWorker } from '../../src/modules/webhooks/worker.js';
import { createWorkspace } from '../../src/modules/provisioning/provisioning.service.js';
import { api } from '../support/api.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** One server process: the app on a given database, listening on loopback. */
interface Process {
  app: RunningApp;
  baseUrl: string;
  close(): Promise<void>;
}

interface SharedDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** Real PostgreSQL when available; otherwise an embedded database in a directory, which survives a restart. */
async function sharedDatabase(): Promise<SharedDatabase> {
  const db: TestDatabase = await createTestDatabase();
  if (db.url) return { env: { DATABASE_URL: db.url }, drop: () => db.drop() };
  const dir = mkdtempSync(join(tmpdir(), 'svc-webhooks-'));
  return { env: { SVC_DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function startProcess(db: SharedDatabase, clock: Clock, opts: { background?: boolean; env?: Record<string, string> } = {}): Promise<Process> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SVC_DEPLOYMENT: 'onprem',
    SVC_BACKGROUND_JOBS: opts.background ? 'on' : 'off',
    SVC_DB_POOL_MAX: '10',
    ...db.env,
    ...opts.env,
  });
  const app = await createApp({ config, clock, log: createLogger('silent') });
  const server: Server = await listen(app.http, 0, '127.0.0.1');
  return {
    app,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}

async function tenantOf(p: Process, clock: Clock) {
  const created = await createWorkspace({ em: p.app.services.orm.em.fork(), clock }, { name: 'Durable', plan: 'cabinet', seats: 5 });
  return { workspaceId: created.workspace.id, userId: created.user.id, key: created.issued.secret };
}

const flowEvent = (workspaceId: string, runId: string) => ({
  name: 'flow.run.finished' as const,
  workspaceId,
  actorUserId: null,
  payload: { runId, flowId: 'flw_1', flowName: 'Nightly', status: 'failed', actionable: true },
});

async function publishMany(p: Process, workspaceId: string, runIds: string[]): Promise<void> {
  await p.app.services.orm.em.fork().transactional(async (em) => {
    for (const runId of runIds) await publishEvent({ em, clock: p.app.services.clock, app: p.app.services }, flowEvent(workspaceId, runId));
  });
}

async function register(p: Process, key: string, receiver: WebhookReceiver, path: string): Promise<string> {
  const res = await api(p.baseUrl, key).post('/v1/webhooks', { url: receiver.url(path), events: ['flow.run.finished'] });
  expect(res.status).toBe(201);
  receiver.secret(path, res.body.webhook.secret);
  return res.body.webhook.id;
}

const stored = async (p: Process, endpointId: string) =>
  p.app.services.orm.em
    .fork()
    .execute(`select id, attempts, next_attempt_at, lease_until from webhook_delivery where endpoint_id = ?`, [endpointId]);

/** The embedded database needs seconds to create and reopen a directory: room for that on a busy machine. */
const SLOW = 90_000;

let receiver: WebhookReceiver;
const open: Process[] = [];
const databases: SharedDatabase[] = [];

const start = async (db: SharedDatabase, clock: Clock, opts?: { background?: boolean; env?: Record<string, string> }) => {
  const p = await startProcess(db, clock, opts);
  open.push(p);
  return p;
};
const stop = async (p: Process) => {
  open.splice(open.indexOf(p), 1);
  await p.close();
};
const newDatabase = async () => {
  const db = await sharedDatabase();
  databases.push(db);
  return db;
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  while (open.length) await stop(open[open.length - 1]!);
});
afterAll(async () => {
  await receiver.close();
  for (const db of databases) await db.drop();
});

describe('restarts', { timeout: SLOW }, () => {
  it('a restart in the middle of the schedule keeps the pending retries', async () => {
    const db = await newDatabase();
    const clock = new ManualClock();
    const first = await start(db, clock);
    const tenant = await tenantOf(first, clock);
    const endpointId = await register(first, tenant.key, receiver, '/restart');
    receiver.behave('/restart', [{ kind: 'status', status: 500 }, { kind: 'status', status: 500 }, { kind: 'status', status: 500 }, { kind: 'status', status: 200 }]);
    await publishMany(first, tenant.workspaceId, ['run_restart']);
    await runDueDeliveries(first.app.services, clock.now());
    clock.advance(1000);
    await runDueDeliveries(first.app.services, clock.now());
    expect(receiver.requestsTo('/restart')).toHaveLength(2);
    await stop(first);

    const second = await start(db, clock);
    clock.advance(4000);
    await runDueDeliveries(second.app.services, clock.now());
    expect(receiver.requestsTo('/restart')).toHaveLength(3);
    clock.advance(5 * 60_000);
    await runRetrySweep(second.app.services, clock.now());
    const reqs = receiver.requestsTo('/restart');
    expect(reqs).toHaveLength(4);
    expect(new Set(reqs.map((r) => r.headers['x-svc-delivery'])).size).toBe(1);
    expect(reqs.every((r) => r.signatureValid)).toBe(true);
    const res = await api(second.baseUrl, tenant.key).get(`/v1/webhooks/${endpointId}/deliveries`);
    expect(res.body.deliveries[0]).toMatchObject({ success: true, statusCode: 200, retryCount: 3, nextRetryAt: null });
  });

  it('an attempt claimed by a process that died is made by another once the lease runs out', async () => {
    const db = await newDatabase();
    const clock = new ManualClock();
    const doomed = await start(db, clock);
    const tenant = await tenantOf(doomed, clock);
    const endpointId = await register(doomed, tenant.key, receiver, '/crash');
    await publishMany(doomed, tenant.workspaceId, ['run_crash']);
    expect(await claimDue(doomed.app.services, clock.now(), 'immediate', 10)).toHaveLength(1); // then it "dies"
    await stop(doomed);

    const survivor = await start(db, clock);
    await runDueDeliveries(survivor.app.services, clock.now());
    expect(receiver.requestsTo('/crash')).toHaveLength(0);
    clock.advance(LEASE_MS);
    await runDueDeliveries(survivor.app.services, clock.now());
    expect(receiver.requestsTo('/crash')).toHaveLength(1);
    const [row] = await stored(survivor, endpointId);
    expect(row).toMatchObject({ attempts: 1, next_attempt_at: null, lease_until: null });
  });

  it('a shutdown during an attempt releases it, uncounted, and the next start makes it (background worker)', async () => {
    const db = await newDatabase();
    // An acknowledgement timeout far beyond the test, so the hanging attempt is still in flight at the
    // shutdown however slowly this machine runs (with 10 s, a stalled run would count it as timed out).
    const running = await start(db, systemClock, { background: true, env: { SVC_WEBHOOK_TIMEOUT_MS: '100000' } });
    const tenant = await tenantOf(running, systemClock);
    const endpointId = await register(running, tenant.key, receiver, '/shutdown');
    receiver.behave('/shutdown', [{ kind: 'hang' }, { kind: 'status', status: 200 }]);
    await publishMany(running, tenant.workspaceId, ['run_shutdown']);
    await receiver.waitFor(1, { path: '/shutdown', timeoutMs: 15_000 }); // the worker's first attempt hangs
    await stop(running);
    const inspector = await start(db, systemClock);
    const [row] = await stored(inspector, endpointId);
    expect(row).toMatchObject({ attempts: 0, lease_until: null });
    await stop(inspector);

    const next = await start(db, systemClock, { background: true });
    const reqs = await receiver.waitFor(2, { path: '/shutdown', timeoutMs: 15_000 });
    expect(reqs[0]!.headers['x-svc-delivery']).toBe(reqs[1]!.headers['x-svc-delivery']);
    await expect.poll(async () => (await stored(next, endpointId))[0]?.attempts, { timeout: 15_000 }).toBe(1);
  });
});

describe('the in-process worker (real time)', { timeout: SLOW }, () => {
  it('is woken by the commit for the first attempt and by the schedule for the 1 s retry, without polling', async () => {
    const db = await newDatabase();
    const p = await start(db, systemClock);
    // Polling once a minute only: anything faster is the commit's wake-up or the retry timer.
    const worker = new WebhookWorker(p.app.services, { pollMs: 60_000, maxInFlight: 8 });
    const unsubscribe = p.app.services.webhooks.wake.subscribe(() => worker.notify());
    worker.start();
    try {
      const tenant = await tenantOf(p, systemClock);
      await register(p, tenant.key, receiver, '/worker');
      receiver.behave('/worker', [{ kind: 'status', status: 503 }, { kind: 'status', status: 200 }]);
      await publishMany(p, tenant.workspaceId, ['run_worker']);
      const [firstAttempt, retry] = await receiver.waitFor(2, { path: '/worker', timeoutMs: 20_000 });
      const gap = retry!.receivedAt - firstAttempt!.receivedAt;
      expect(gap).toBeGreaterThanOrEqual(950);
      expect(retry!.headers['x-svc-delivery']).toBe(firstAttempt!.headers['x-svc-delivery']);
    } finally {
      unsubscribe();
      await worker.stop();
    }
  });
});

describe('several processes on one database', { timeout: SLOW }, () => {
  it('two processes sweeping and running due attempts at the same time never send the same attempt twice', async () => {
    const db = await newDatabase();
    const clock = new ManualClock();
    const pg = await postgresAvailable();
    const one = await start(db, clock);
    // With PostgreSQL a second server process; embedded (single-process) databases get a second
    // concurrent runner inside the same process instead.
    const two = pg ? await start(db, clock) : one;
    const tenant = await tenantOf(one, clock);
    const endpoints = await Promise.all([0, 1, 2, 3].map((i) => register(one, tenant.key, receiver, `/multi-${i}`)));
    expect(endpoints).toHaveLength(4);
    const paths = [0, 1, 2, 3].map((i) => `/multi-${i}`);
    const requests = () => paths.flatMap((path) => receiver.requestsTo(path));
    for (const path of paths) receiver.behave(path, { kind: 'status', status: 500, delayMs: 2 });
    await publishMany(one, tenant.workspaceId, Array.from({ length: 50 }, (_, i) => `run_${i}`));

    // 200 first attempts, run by both at once.
    const [a, b] = await Promise.all([
      runDueDeliveries(one.app.services, clock.now()),
      runDueDeliveries(two.app.services, clock.now()),
    ]);
    expect(a.attempted + b.attempted).toBe(200);
    expect(requests()).toHaveLength(200);
    expect(new Set(requests().map((r) => r.headers['x-svc-delivery'])).size).toBe(200);
    if (pg) expect(Math.min(a.attempted, b.attempted)).toBeGreaterThan(0);

    for (const step of [1000, 4000]) {
      clock.advance(step);
      await Promise.all([runDueDeliveries(one.app.services, clock.now()), runDueDeliveries(two.app.services, clock.now())]);
    }
    expect(requests()).toHaveLength(600);

    // The sweep's 5-minute retry, by both processes at once: each delivery exactly once.
    for (const path of paths) receiver.behave(path, { kind: 'status', status: 200, delayMs: 2 });
    receiver.clear();
    clock.advance(5 * 60_000);
    const swept = await Promise.all([runRetrySweep(one.app.services, clock.now()), runRetrySweep(two.app.services, clock.now())]);
    expect(swept[0].attempted + swept[1].attempted).toBe(200);
    expect(swept[0].succeeded + swept[1].succeeded).toBe(200);
    const ids = requests().map((r) => String(r.headers['x-svc-delivery']));
    expect(ids).toHaveLength(200);
    expect(new Set(ids).size).toBe(200);
    clock.advance(24 * 3600_000);
    await Promise.all([runRetrySweep(one.app.services, clock.now()), runRetrySweep(two.app.services, clock.now())]);
    expect(requests()).toHaveLength(200);
  });
});
