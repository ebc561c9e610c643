import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { postgresAvailable } from '../support/database.js';

const run = promisify(execFile);
let t: TestApp;

async function svc(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'svc', '--', ...args], {
      env: { ...process.env, DATABASE_URL: t.db.url, LOG_LEVEL: 'silent' },
      cwd: new URL('../..', import.meta.url).pathname,
    });
    return { code: 0, json: JSON.parse(stdout), stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, json: null, stderr: e.stderr };
  }
}

const hasPg = await postgresAvailable();

// The CLI and the server are two processes on one database: this needs a real PostgreSQL server.
describe.skipIf(!hasPg)('CLI workspace set-partner', () => {
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('makes a workspace an integrator (live or sandbox) and prints JSON; the partner routes open to it', async () => {
    const ws = await t.tenant({ name: 'Reseller' });
    expect((await api(t.baseUrl, ws.key).get('/partner/status')).body.code).toBe('partner_required');

    const live = await svc('workspace', 'set-partner', ws.workspaceId);
    expect(live.code).toBe(0);
    expect(live.json).toEqual({ partner: { workspaceId: ws.workspaceId, mode: 'live', sandbox: false, graceDays: 7, createdAt: expect.any(String) } });
    expect((await api(t.baseUrl, ws.key).get('/partner/status')).body.partner).toMatchObject({ mode: 'live' });

    const sandbox = await svc('workspace', 'set-partner', ws.workspaceId, '--sandbox');
    expect(sandbox.json.partner).toMatchObject({ mode: 'sandbox', sandbox: true });
    expect((await api(t.baseUrl, ws.key).get('/partner/status')).body.partner).toMatchObject({ mode: 'sandbox' });

    // A client workspace cannot become an integrator; an unknown workspace is a readable error.
    const client = await api(t.baseUrl, ws.key).post('/partner/clients', { name: 'Client' });
    const refused = await svc('workspace', 'set-partner', client.body.client.id);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('cannot become an integrator');
    const unknown = await svc('workspace', 'set-partner', 'ws_nope');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('Workspace not found');
  }, 60_000);
});
