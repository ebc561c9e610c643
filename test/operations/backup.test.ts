import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, listen, type RunningApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { createWorkspace } from '../../src/modules/provisioning/provisioning.service.js';
import { api } from '../support/api.js';
import { runCli } from '../support/cli.js';

/**
 * Backup and restore of the embedded database through the real CLI (`svc backup`, `svc restore`): after a
 * round trip into another data directory, the proof chain still verifies and the API key still
 * authenticates. While the server runs, the backup is refused (PGlite is one process: stop, copy, start).
 */
const root = mkdtempSync(join(tmpdir(), 'svc-backup-'));
const embedded = { DATABASE_URL: undefined, SVC_BACKGROUND_JOBS: 'off' };

async function serve(dataDir: string, clock: ManualClock): Promise<{ app: RunningApp; base: string; close(): Promise<void> }> {
  const config = loadConfig({ LOG_LEVEL: 'silent', SVC_DEPLOYMENT: 'onprem', SVC_BACKGROUND_JOBS: 'off', SVC_DATA_DIR: dataDir });
  const app = await createApp({ config, clock, log: createLogger('silent') });
  const server: Server = await listen(app.http, 0, '127.0.0.1');
  return {
    app,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await app.close();
    },
  };
}

describe('svc backup and svc restore (embedded database)', { timeout: 600_000 }, () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('round-trips the database: the proof chain verifies and the key authenticates', async () => {
    const clock = new ManualClock(new Date('2026-11-02T09:00:00Z'));
    const source = join(root, 'source');
    const first = await serve(source, clock);
    let key: string;
    let certificateId: string;
    let summary: any;
    try {
      const ws = await createWorkspace({ em: first.app.services.orm.em.fork(), clock }, { name: 'Backed up', plan: 'cabinet', seats: 2 });
      key = ws.issued.secret;
      const client = api(first.base, key);
      for (const text of ['The invoice total is 120 euros.', 'The contract ends on 31 March 2027.']) {
        const report = await client.post('/v1/verify', { text, passages: [{ source: 'contract.pdf', content: 'The invoice total is 120 euros. The contract ends on 31 March 2027.' }] });
        expect(report.status).toBe(201);
        certificateId = report.body.report.certificateId;
        clock.advance(1000);
      }
      summary = (await client.get('/v1/registre/summary')).body;
      expect(summary.chain).toMatchObject({ length: 2, valid: true });

      // The server holds the data directory: the backup is refused, readably.
      const busy = await runCli({ ...embedded, SVC_DATA_DIR: source }, 'backup', '--out', join(root, 'busy.tgz'));
      expect(busy.code).not.toBe(0);
      expect(busy.stderr).toMatch(/in use by another process/);
    } finally {
      await first.close();
    }

    const file = join(root, 'svc-backup.tgz');
    const backup = await runCli({ ...embedded, SVC_DATA_DIR: source }, 'backup', '--out', file);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.json.backup).toMatchObject({ file, bytes: expect.any(Number) });
    expect(backup.json.backup.bytes).toBeGreaterThan(1000);

    const target = join(root, 'restored');
    const restore = await runCli({ ...embedded, SVC_DATA_DIR: target }, 'restore', '--from', file);
    expect(restore.code, restore.stderr).toBe(0);
    // An existing database is never overwritten.
    const again = await runCli({ ...embedded, SVC_DATA_DIR: target }, 'restore', '--from', file);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/not empty/);

    const second = await serve(target, clock);
    try {
      const client = api(second.base, key!);
      expect((await client.get('/v1/agents')).status).toBe(200);
      const restored = (await client.get('/v1/registre/summary')).body;
      expect(restored.chain).toEqual(summary.chain);
      expect(restored.chain.valid).toBe(true);
      const proof = await client.get(`/v1/proofs/${certificateId!}/verify`);
      expect(proof.status).toBe(200);
      expect(proof.body.valid).toBe(true);
      // The chain goes on from where it was: a new certificate links to the restored ones.
      const more = await client.post('/v1/verify', { text: 'The invoice total is 120 euros.', passages: [{ source: 'a', content: 'The invoice total is 120 euros.' }] });
      expect(more.status).toBe(201);
      expect((await client.get('/v1/registre/summary')).body.chain).toMatchObject({ length: 3, valid: true });
      // The audit log came along (the workspace's first key).
      expect((await client.get('/v1/audit?action=key.created')).body.entries).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('refuses readably: not a backup, no --out, and PostgreSQL (pg_dump instead)', async () => {
    const junk = join(root, 'junk.tgz');
    writeFileSync(junk, 'not a tarball');
    const bad = await runCli({ ...embedded, SVC_DATA_DIR: join(root, 'junk-target') }, 'restore', '--from', junk);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/is not a backup of the embedded database/);
    const noOut = await runCli({ ...embedded, SVC_DATA_DIR: join(root, 'empty') }, 'backup');
    expect(noOut.code).not.toBe(0);
    expect(noOut.stderr).toMatch(/--out is required/);
    const pg = await runCli({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/postgres' }, 'backup', '--out', join(root, 'x.tgz'));
    expect(pg.code).not.toBe(0);
    expect(pg.stderr).toMatch(/pg_dump/);
  });
});
