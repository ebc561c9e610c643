import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { runCli } from '../support/cli.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { postgresAvailable } from '../support/database.js';

let t: TestApp;

const svc = (...args: string[]) => runCli({ DATABASE_URL: t.db.url }, ...args);

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
  }, 240_000);
});
