import { createRequire } from 'node:module';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type RunningApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { createContext, type ServiceContext } from '../../src/core/context.js';
import { createLogger } from '../../src/lib/logger.js';
import { authenticateSecret } from '../../src/modules/keys/keys.service.js';
import { ProofCertificate } from '../../src/modules/proofs/proof.entity.js';
import { pendingProof, verifyProof } from '../../src/modules/proofs/proofs.service.js';
import type { PendingReport } from '../../src/modules/verify/report-writes.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

// A verifier report's certificate, report and control: one statement per workspace batch (app.reportWrites).
let t: TestApp;
let second: RunningApp | undefined;

beforeAll(async () => {
  t = await startTestApp();
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

const reportOf = (ctx: ServiceContext, i: number): PendingReport => {
  const proof = pendingProof(ctx, { route: 'POST /v1/verify', modelAddress: 'verifier', model: 'svc-verifier/rules-1', requestHash: 'a'.repeat(64), answer: `report ${i}`, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } });
  const workspaceId = ctx.caller.workspace.id;
  return {
    proof,
    report: {
      id: `vrf_writes_${workspaceId}_${i}`,
      workspaceId,
      keyId: ctx.caller.limits.meter,
      userId: ctx.caller.user.id,
      language: 'en',
      text: `Claim ${i}.`,
      against: 'passages',
      collectionIds: null,
      passageCount: 1,
      claims: JSON.stringify([{ text: `Claim ${i}.`, start: 0, end: 8, verdict: 'unverifiable', rule: 'none', evidence: [] }]),
      supported: 0,
      contradicted: 0,
      unverifiable: 1,
      certificateId: proof.id,
    },
    control: { workspaceId, keyId: ctx.caller.limits.meter, userId: ctx.caller.user.id, route: 'POST /v1/verify' },
  };
};

const rowsOf = async (workspaceId: string) => {
  const em = t.app.services.orm.em.fork();
  const certificates = await em.find(ProofCertificate, { workspaceId }, { orderBy: { seq: 'asc' } });
  const reports = await em.execute<{ id: string; certificate_id: string; created_at: Date; claims: unknown }[]>(
    `select id, certificate_id, created_at, claims from verify_report where workspace_id = ? order by seq`,
    [workspaceId],
  );
  const controls = await em.execute<{ created_at: Date; kind: string; questions: number }[]>(
    `select created_at, kind, questions from usage_ledger where workspace_id = ? and route = 'POST /v1/verify' order by created_at`,
    [workspaceId],
  );
  return { certificates, reports, controls };
};

describe('a verifier report: its certificate, the report and its control in one statement', () => {
  it('concurrent reports of a workspace: one unbroken chain, each report and control at its certificate time', async () => {
    const tenant = await t.tenant();
    const ctx = await ctxOf(tenant);
    const items = Array.from({ length: 6 }, (_, i) => reportOf(ctx, i));
    const done = await Promise.all(items.map((item) => t.app.services.reportWrites.submit(tenant.workspaceId, item)));
    const { certificates, reports, controls } = await rowsOf(tenant.workspaceId);
    expect(certificates.map((c) => c.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    for (let i = 1; i < certificates.length; i++) expect(certificates[i]!.prevHash).toBe(certificates[i - 1]!.hash);
    for (const c of certificates) expect((await verifyProof(ctx, c.id)).valid).toBe(true);
    expect(reports).toHaveLength(6);
    expect(controls).toHaveLength(6);
    expect(controls.every((c) => c.kind === 'control' && c.questions === 0)).toBe(true);
    for (const [i, item] of items.entries()) {
      const report = reports.find((r) => r.id === item.report.id)!;
      const cert = certificates.find((c) => c.id === item.proof.id)!;
      expect(report.certificate_id).toBe(cert.id);
      expect(new Date(report.created_at).toISOString()).toBe(cert.createdAt.toISOString());
      expect(done[i]!.createdAt.toISOString()).toBe(cert.createdAt.toISOString());
      expect(report.claims).toEqual(JSON.parse(item.report.claims));
    }
  });

  it('a batch overtaken by another process is rolled back whole (certificate, report, control) and sent again after the real head', async () => {
    if (!second) return; // the embedded database admits one app: no second process to overtake
    const tenant = await t.tenant();
    const [one, two] = await Promise.all([ctxOf(tenant), ctxOf(tenant, second)]);
    const here = createRequire(import.meta.url);
    const driverPg = createRequire(here.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;
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
      await t.app.services.reportWrites.submit(tenant.workspaceId, reportOf(one, 1)); // this process remembers seq 1
      await second.services.reportWrites.submit(tenant.workspaceId, reportOf(two, 2)); // the other appends seq 2
      // This process links after seq 1 again: the unique (workspace, seq) refuses it, the report and control are rolled back with it.
      await t.app.services.reportWrites.submit(tenant.workspaceId, reportOf(one, 3));
    } finally {
      driverPg.Client.prototype.query = original;
    }
    expect(sent).toHaveLength(4);
    const { certificates, reports, controls } = await rowsOf(tenant.workspaceId);
    expect(certificates.map((c) => c.seq)).toEqual([1, 2, 3]);
    expect(certificates[2]!.prevHash).toBe(certificates[1]!.hash);
    expect(reports.map((r) => r.id)).toEqual([1, 2, 3].map((i) => `vrf_writes_${tenant.workspaceId}_${i}`));
    expect(controls).toHaveLength(3);
  });
});
