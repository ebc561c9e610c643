import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { createPerson } from '../../src/modules/people/people.service.js';
import { systemClock } from '../../src/lib/clock.js';
import { createAgent, persona } from '../support/agents.js';
import { api } from '../support/api.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { browser } from '../people/support.js';

/**
 * Durable runs on the real entry point (issue 15, "Execution"): a server process killed with SIGKILL in
 * the middle of a run, and a new one that finishes it after the lease without sending the outbound step
 * again; an outbound step cut off mid-request is never sent twice (it fails as outcome unknown); two
 * processes share the runs of one database, never running the same step twice. PostgreSQL only
 * (several processes on one database).
 */
const available = await postgresAvailable();

let models: ScriptedModelServer;
let receiver: WebhookReceiver;
const started: ServerProcess[] = [];
const databases: TestDatabase[] = [];
const releases: (() => void)[] = [];

beforeAll(async () => {
  if (!available) return;
  models = await startScriptedModelServer({ delayMs: 150 });
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  for (const proc of started.splice(0)) await proc.kill();
  for (const db of databases.splice(0)) await db.drop();
});
afterAll(async () => {
  await models?.close();
  await receiver?.close();
});

async function start(db: TestDatabase): Promise<ServerProcess> {
  const proc = await startServerProcess({
    DATABASE_URL: db.url!,
    SVC_MODEL_BASE_URL: models.baseUrl,
    SVC_MODEL_API_KEY: 'scripted',
    SVC_MODEL: 'scripted-standard',
    SVC_FLOW_LEASE_MS: '1500',
    SVC_FLOW_POLL_MS: '100',
    LOG_LEVEL: 'info',
  });
  started.push(proc);
  return proc;
}

async function query<T extends pg.QueryResultRow>(db: TestDatabase, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url! });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A signed-in person of the database's only workspace (made through the service's own code, in this process). */
async function signedInPerson(db: TestDatabase, baseUrl: string) {
  const [{ id: workspaceId }] = await query<{ id: string }>(db, 'select id from workspace limit 1');
  await query(db, 'update workspace set seats = 5 where id = $1', [workspaceId]);
  const app = await createApp({ config: loadConfig({ DATABASE_URL: db.url!, SVC_BACKGROUND_JOBS: 'off', LOG_LEVEL: 'silent', SVC_DATA_DIR: 'memory://' }) });
  try {
    await createPerson({ em: app.services.orm.em.fork(), clock: systemClock }, workspaceId!, { email: 'ops@example.com', password: 'correct horse battery', role: 'admin' });
  } finally {
    await app.close();
  }
  const person = browser(baseUrl, { ip: '10.55.0.1' });
  expect((await person.signIn('ops@example.com', 'correct horse battery')).status).toBe(200);
  return person;
}

const runOf = (baseUrl: string, key: string, runId: string) => api(baseUrl, key).get(`/engine/runs/${runId}`).then((r) => r.body.run);

describe.skipIf(!available)('durable runs across processes', () => {
  it('a process killed mid-run: another finishes the run after the lease, without sending the outbound step again', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const a = await start(db);
    await expect.poll(() => a.firstKey).not.toBe('');
    const key = a.firstKey;
    const c = api(a.baseUrl, key);
    receiver.behave('/kill/out', { kind: 'status', status: 200 });
    const agentId = await createAgent({ baseUrl: a.baseUrl } as never, key, persona('Closer'));
    const flow = await c.post('/engine/flows', {
      name: 'Survives',
      graph: {
        nodes: [
          { key: 'start', type: 'trigger.manual' },
          { key: 'ok', type: 'approval', config: { question: 'Send the order?' } },
          { key: 'send', type: 'http.request', config: { method: 'POST', url: receiver.url('/kill/out'), body: '{"order":"{{input.order}}"}' } },
          { key: 'think', type: 'agent.ask', config: { agentId, prompt: 'Confirm order {{input.order}}' } },
          { key: 'done', type: 'transform', config: { template: '{{steps.think.answer}}' } },
        ],
        edges: [
          { from: 'start', to: 'ok' },
          { from: 'ok', to: 'send' },
          { from: 'send', to: 'think' },
          { from: 'think', to: 'done' },
        ],
      },
    });
    expect(flow.status).toBe(201);
    const runId = (await c.post(`/engine/flows/${flow.body.flow.id}/run`, { input: { order: 'A-1' } })).body.run.id;
    await expect.poll(async () => (await runOf(a.baseUrl, key, runId)).status, { timeout: 20_000 }).toBe('waiting_approval');

    // The model holds its answer: the run is in its agent step, after the outbound step, when A dies.
    let release!: () => void;
    models.enqueue({ until: new Promise<void>((r) => (release = r)) });
    releases.push(() => release());
    const asked = models.requests.length;
    const person = await signedInPerson(db, a.baseUrl);
    const approval = (await c.get('/engine/approvals?status=open')).body.approvals[0];
    expect((await person.post(`/engine/approvals/${approval.id}/decide`, { decision: 'approve' })).status).toBe(200);
    await expect.poll(() => models.requests.length, { timeout: 20_000 }).toBeGreaterThan(asked);
    expect(receiver.requestsTo('/kill/out')).toHaveLength(1);
    const [running] = await query<{ status: string; worker_id: string }>(db, `select status, worker_id from flow_step where run_id = $1 and node_key = 'think'`, [runId]);
    expect(running!.status).toBe('running');

    a.signal('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');

    const b = await start(db);
    await expect.poll(async () => (await runOf(b.baseUrl, key, runId)).status, { timeout: 30_000, interval: 200 }).toBe('succeeded');
    expect(receiver.requestsTo('/kill/out')).toHaveLength(1);
    const steps = await query<{ node_key: string; attempts: number; worker_id: string; idempotency_key: string | null }>(
      db,
      'select node_key, attempts, worker_id, idempotency_key from flow_step where run_id = $1',
      [runId],
    );
    const by = Object.fromEntries(steps.map((s) => [s.node_key, s]));
    expect(by.send).toMatchObject({ attempts: 1, worker_id: running!.worker_id, idempotency_key: `${runId}:send` });
    expect(by.think!.attempts).toBe(2);
    expect(by.think!.worker_id).not.toBe(running!.worker_id);
    const run = await runOf(b.baseUrl, key, runId);
    expect(run.steps.find((s: { nodeKey: string }) => s.nodeKey === 'done').summary.length).toBeGreaterThan(0);
  }, 90_000);

  it('an outbound step cut off mid-request is not sent again: the run fails as outcome unknown', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const a = await start(db);
    await expect.poll(() => a.firstKey).not.toBe('');
    const key = a.firstKey;
    const c = api(a.baseUrl, key);
    let release!: () => void;
    receiver.behave('/cut/out', { kind: 'status', status: 200, until: new Promise<void>((r) => (release = r)) });
    releases.push(() => release());
    const flow = await c.post('/engine/flows', {
      name: 'At most once',
      graph: {
        nodes: [
          { key: 'start', type: 'trigger.manual' },
          { key: 'ok', type: 'approval', config: { question: 'Send?' } },
          { key: 'send', type: 'http.request', config: { method: 'POST', url: receiver.url('/cut/out'), body: '{}' } },
        ],
        edges: [
          { from: 'start', to: 'ok' },
          { from: 'ok', to: 'send' },
        ],
      },
    });
    const runId = (await c.post(`/engine/flows/${flow.body.flow.id}/run`)).body.run.id;
    await expect.poll(async () => (await runOf(a.baseUrl, key, runId)).status, { timeout: 20_000 }).toBe('waiting_approval');
    const person = await signedInPerson(db, a.baseUrl);
    const approval = (await c.get('/engine/approvals?status=open')).body.approvals[0];
    await person.post(`/engine/approvals/${approval.id}/decide`, { decision: 'approve' });
    await receiver.waitFor(1, { path: '/cut/out', timeoutMs: 20_000 });
    a.signal('SIGKILL');
    await a.exited;

    const b = await start(db);
    await expect.poll(async () => (await runOf(b.baseUrl, key, runId)).status, { timeout: 30_000, interval: 200 }).toBe('failed');
    const run = await runOf(b.baseUrl, key, runId);
    expect(run.errorCode).toBe('outbound_outcome_unknown');
    expect(run.steps.find((s: { nodeKey: string }) => s.nodeKey === 'send')).toMatchObject({ status: 'failed', errorCode: 'outbound_outcome_unknown' });
    expect(receiver.requestsTo('/cut/out')).toHaveLength(1);
  }, 90_000);

  it('two processes share the runs of one database and never run the same step twice', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const a = await start(db);
    await expect.poll(() => a.firstKey).not.toBe('');
    const key = a.firstKey;
    const b = await start(db);
    const agentId = await createAgent({ baseUrl: a.baseUrl } as never, key, persona('Sharer'));
    const flow = await api(a.baseUrl, key).post('/engine/flows', {
      name: 'Shared',
      graph: {
        nodes: [
          { key: 'start', type: 'trigger.manual' },
          { key: 'ask', type: 'agent.ask', config: { agentId, prompt: 'Item {{input.n}}' } },
          { key: 'end', type: 'transform', config: { template: 'done {{input.n}}' } },
        ],
        edges: [
          { from: 'start', to: 'ask' },
          { from: 'ask', to: 'end' },
        ],
      },
    });
    const asked = models.requests.length;
    const runs: string[] = [];
    for (let n = 0; n < 24; n++) {
      const via = n % 2 === 0 ? a : b;
      runs.push((await api(via.baseUrl, key).post(`/engine/flows/${flow.body.flow.id}/run`, { input: { n } })).body.run.id);
    }
    await expect
      .poll(async () => (await query<{ n: string }>(db, `select count(*) as n from flow_run where status = 'succeeded'`))[0]!.n, { timeout: 60_000, interval: 250 })
      .toBe('24');
    const steps = await query<{ run_id: string; node_key: string; attempts: number; worker_id: string }>(
      db,
      `select run_id, node_key, attempts, worker_id from flow_step where node_key in ('ask', 'end')`,
    );
    expect(steps).toHaveLength(48);
    expect(steps.every((s) => s.attempts === 1)).toBe(true);
    expect(new Set(steps.map((s) => s.worker_id)).size).toBe(2);
    // Each agent step asked the model once: no step ran in both processes.
    const prompts = models.requests
      .slice(asked)
      .map((r) => JSON.stringify(r))
      .filter((text) => /Item \d+/.test(text));
    expect(prompts.length).toBe(24);
  }, 120_000);
});
