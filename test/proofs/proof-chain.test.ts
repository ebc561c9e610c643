import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type RunningApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/core/context.js';
import { createLogger } from '../../src/lib/logger.js';
import { authenticateSecret } from '../../src/modules/keys/keys.service.js';
import { ProofCertificate } from '../../src/modules/proofs/proof.entity.js';
import { issueProof, verifyProof } from '../../src/modules/proofs/proofs.service.js';
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
