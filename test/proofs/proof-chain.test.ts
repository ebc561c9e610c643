import { createRequire } from 'node:module';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type RunningApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { createContext, type ServiceContext } from '../../src/core/context.js';
import type { PendingAnswer } from '../../src/modules/gateway/answer-writes.js';
import { createLogger } from '../../src/lib/logger.js';
import { authenticateSecret } from '../../src/modules/keys/keys.service.js';
import { ProofCertificate } from '../../src/modules/proofs/proof.entity.js';
import { issueProof, pendingProof, verifyProof } from '../../src/modules/proofs/proofs.service.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let second: RunningApp | undefined;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
  b = await t.tenant();
  // A second app on the same database: its own connection pool, as another server process would have.
  // The embedded database admits one app at a time; there the one app plays both parts.
  if (t.db.url) {
    const config = loadConfig({ LOG_LEVEL: 'silent', SVC_BACKGROUND_JOBS: 'off', SVC_DATA_DIR: 'memory://', DATABASE_URL: t.db.url });
    second = await createApp({ config, clock: t.clock, log: createLogger('silent') });
  }
});
afterAll(async () => {
  await second?.close();
  await t.close();
});

const ctxOf = async (tenant: TestTenant, app: RunningApp = t.app) =>
  createContext(app.services, await authenticateSecret(app.services.orm.em.fork(), t.clock, tenant.key));

const input = (i: number) => ({
  route: 'POST /v1/agents/:id/chat/stream',
  modelAddress: 'agent:ada',
  model: 'scripted',
  request: { message: `hello ${i}`, n: i },
  answer: `answer ${i}`,
  usage: { promptTokens: 10, completionTokens: i, totalTokens: 10 + i },
});

describe('issueProof (used by the gateway and by streamed chat turns)', () => {
  it('keeps one unbroken chain per workspace under concurrent appends from two apps and two workspaces', async () => {
    const contexts = await Promise.all([ctxOf(a), ctxOf(b), ctxOf(a, second ?? t.app), ctxOf(b, second ?? t.app)]);
    const ids = await Promise.all(Array.from({ length: 80 }, (_, i) => issueProof(contexts[i % 4], input(i))));
    expect(new Set(ids.map((r) => r.id)).size).toBe(80);
    for (const tenant of [a, b]) {
      const rows = await t.app.services.orm.em.fork().find(ProofCertificate, { workspaceId: tenant.workspaceId }, { orderBy: { seq: 'asc' } });
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(rows[0].prevHash).toBeNull();
      for (let i = 1; i < rows.length; i++) expect(rows[i].prevHash).toBe(rows[i - 1].hash);
      const ctx = await ctxOf(tenant);
      for (const row of rows) expect((await verifyProof(ctx, row.id)).valid).toBe(true);
    }
  });

  it('honours a reserved id and records the conversation', async () => {
    const ctx = await ctxOf(a);
    const { id } = await issueProof(ctx, { ...input(1), id: 'prf_reserved_1', conversationId: 'conv_1' });
    expect(id).toBe('prf_reserved_1');
    const row = await t.app.services.orm.em.fork().findOneOrFail(ProofCertificate, { id });
    expect(row.conversationId).toBe('conv_1');
    expect((await verifyProof(ctx, id)).valid).toBe(true);
  });
});

describe('a gateway answer: its certificate and its ledger entry in one statement (app.answerWrites)', () => {
  // the ORM's driver has its own copy of pg (as in test/gateway/statements.test.ts)
  const here = createRequire(import.meta.url);
  const driverPg = createRequire(here.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;

  const answerOf = (ctx: ServiceContext, i: number): PendingAnswer => ({
    proof: pendingProof(ctx, { ...input(i), route: 'POST /v1/chat/completions', modelAddress: 'svc-auto' }),
    consumption: {
      workspace: ctx.caller.workspace,
      keyId: ctx.caller.limits.meter,
      userId: ctx.caller.user.id,
      limited: false,
      holdIds: [],
      entry: { route: 'POST /v1/answer-writes-test', modelClass: 'standard', usage: input(i).usage, model: 'scripted' },
      questions: 1,
    },
  });

  it('a batch overtaken by another process is rolled back whole and sent again after the real head', async () => {
    if (!second) return; // the embedded database admits one app: no second process to overtake
    const tenant = await t.tenant();
    const [one, two] = await Promise.all([ctxOf(tenant), ctxOf(tenant, second)]);
    const sent: string[] = [];
    const original = driverPg.Client.prototype.query;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    (driverPg.Client.prototype as any).query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      const text = typeof first === 'string' ? first : (first?.text ?? '');
      if (text.startsWith('with chain as')) sent.push(text);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return (original as any).apply(this, args);
    };
    try {
      await t.app.services.answerWrites.submit(tenant.workspaceId, answerOf(one, 1)); // this process remembers seq 1
      await second.services.answerWrites.submit(tenant.workspaceId, answerOf(two, 2)); // the other appends seq 2
      // This process links after seq 1 again: the unique (workspace, seq) refuses it, svc_record is rolled back with it.
      await t.app.services.answerWrites.submit(tenant.workspaceId, answerOf(one, 3));
    } finally {
      driverPg.Client.prototype.query = original;
    }
    expect(sent).toHaveLength(4);
    const rows = await t.app.services.orm.em.fork().find(ProofCertificate, { workspaceId: tenant.workspaceId }, { orderBy: { seq: 'asc' } });
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(rows[2].prevHash).toBe(rows[1].hash);
    expect(rows[1].prevHash).toBe(rows[0].hash);
    for (const row of rows) expect((await verifyProof(one, row.id)).valid).toBe(true);
    const [ledger] = await t.app.services.orm.em
      .fork()
      .execute<{ n: number }[]>(`select count(*)::int as n from usage_ledger where workspace_id = ? and route = 'POST /v1/answer-writes-test'`, [tenant.workspaceId]);
    expect(ledger.n).toBe(3);
  });
});
