import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, listen, type RunningApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { claimIngestionJob, LEASE_MS, MAX_ATTEMPTS, processIngestionJob, runPendingIngestion } from '../../src/modules/knowledge/ingestion.worker.js';
import { createWorkspace } from '../../src/modules/provisioning/provisioning.service.js';
import { api } from '../support/api.js';
import { type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { fixtures, upload } from '../support/knowledge.js';

/** Two apps on one database, one after the other, as two server processes would be. */
let db: TestDatabase;
let dataDir: string;
let tmp: string | undefined;
const clock = new ManualClock();

interface Booted {
  app: RunningApp;
  baseUrl: string;
  close(): Promise<void>;
}

async function boot(background: boolean): Promise<Booted> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SVC_DEPLOYMENT: 'onprem',
    SVC_BACKGROUND_JOBS: background ? 'on' : 'off',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    SVC_DATA_DIR: dataDir,
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

const asTestApp = (b: Booted) => ({ baseUrl: b.baseUrl }) as TestApp;

async function jobOf(b: Booted, sourceId: string) {
  const rows = await b.app.services.orm.em
    .fork()
    .execute(`select status, attempts, worker_id, lease_expires_at from knowledge_ingestion_job where source_id = ?`, [sourceId]);
  return rows[0] as { status: string; attempts: number; worker_id: string | null; lease_expires_at: Date | null };
}

async function waitForStatus(b: Booted, key: string, sourceId: string, status: string, timeoutMs = 8000): Promise<Record<string, unknown>> {
  const read = async () => (await api(b.baseUrl, key).get(`/v1/knowledge-sources/${sourceId}`)).body.source as Record<string, unknown>;
  await expect.poll(async () => (await read()).status, { timeout: timeoutMs, interval: 50 }).toBe(status);
  return read();
}

beforeAll(async () => {
  db = await createTestDatabase();
  if (db.url) dataDir = 'memory://';
  else dataDir = tmp = mkdtempSync(join(tmpdir(), 'svc-ingest-'));
});
afterAll(async () => {
  await db.drop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function tenantOn(b: Booted) {
  const created = await createWorkspace({ em: b.app.services.orm.em.fork(), clock }, { name: 'Restart', plan: 'cabinet', seats: 1 });
  return { workspaceId: created.workspace.id, userId: created.user.id, key: created.issued.secret };
}

describe('ingestion survives restarts', () => {
  it('a job left running by a closed app is resumed by the next app at start-up', async () => {
    const first = await boot(false);
    const tenant = await tenantOn(first);
    const res = await upload(asTestApp(first), tenant.key, { bytes: fixtures.text(), filename: 'refunds.txt' });
    expect(res.status).toBe(202);
    const sourceId = res.body.source.id;
    const job = await claimIngestionJob(first.app.services);
    expect(job).toMatchObject({ sourceId, attempts: 1 });
    expect((await jobOf(first, sourceId)).status).toBe('running');
    await first.close(); // the process stops in the middle of the ingestion

    const second = await boot(true);
    try {
      const left = await jobOf(second, sourceId);
      expect(left.status === 'running' || left.status === 'done').toBe(true);
      const source = await waitForStatus(second, tenant.key, sourceId, 'ready');
      expect(source.chunkCount).toBeGreaterThan(0);
      expect(await jobOf(second, sourceId)).toMatchObject({ status: 'done', attempts: 2 });
    } finally {
      await second.close();
    }
  });

  it('a job held by a process that died is resumed once its lease expires, and a late writer is ignored', async () => {
    const app = await boot(false);
    try {
      const tenant = await tenantOn(app);
      const res = await upload(asTestApp(app), tenant.key, { bytes: fixtures.markdown(), filename: 'travel.md' });
      const sourceId = res.body.source.id;
      // The dead process: it claimed the job and its lease still runs.
      await app.app.services.orm.em
        .fork()
        .execute(`update knowledge_ingestion_job set status = 'running', attempts = 1, worker_id = 'dead-host:1:x', lease_expires_at = ? where source_id = ?`, [
          new Date(clock.now().getTime() + LEASE_MS),
          sourceId,
        ]);
      expect(await runPendingIngestion(app.app.services)).toBe(0);
      clock.advance(LEASE_MS + 1);
      expect(await runPendingIngestion(app.app.services)).toBe(1);
      const source = (await api(app.baseUrl, tenant.key).get(`/v1/knowledge-sources/${sourceId}`)).body.source;
      expect(source.status).toBe('ready');
      // The dead process wakes up and tries to finish the job it no longer holds: nothing is written twice.
      const stale = { id: (await app.app.services.orm.em.fork().execute(`select id from knowledge_ingestion_job where source_id = ?`, [sourceId]))[0].id, sourceId, attempts: 1 };
      await app.app.services.orm.em.fork().execute(`update knowledge_ingestion_job set worker_id = 'dead-host:1:x' where source_id = ?`, [sourceId]);
      await processIngestionJob(app.app.services, stale);
      const chunks = await app.app.services.orm.em.fork().execute(`select count(*)::int as n from knowledge_chunk where source_id = ?`, [sourceId]);
      expect(chunks[0].n).toBe(source.chunkCount);
    } finally {
      await app.close();
    }
  });

  it('the background worker picks up an upload at once, and a job claimed too often is failed', async () => {
    const app = await boot(true);
    try {
      const tenant = await tenantOn(app);
      const res = await upload(asTestApp(app), tenant.key, { bytes: fixtures.html(), filename: 'guide.html' });
      await waitForStatus(app, tenant.key, res.body.source.id, 'ready');

      const poison = await upload(asTestApp(app), tenant.key, { bytes: fixtures.text(), filename: 'poison.txt' });
      const id = poison.body.source.id;
      await waitForStatus(app, tenant.key, id, 'ready');
      // A document whose ingestion kept crashing its process: the next claim gives up on it.
      await app.app.services.orm.em
        .fork()
        .execute(`update knowledge_ingestion_job set status = 'queued', attempts = ? where source_id = ?`, [MAX_ATTEMPTS, id]);
      await app.app.services.orm.em.fork().execute(`update knowledge_source set status = 'ingesting' where id = ?`, [id]);
      const failed = await waitForStatus(app, tenant.key, id, 'failed');
      expect(failed.error).toMatch(/repeatedly/);
    } finally {
      await app.close();
    }
  });
});
