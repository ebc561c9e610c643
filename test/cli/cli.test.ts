import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { runCli } from '../support/cli.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { postgresAvailable } from '../support/database.js';

let t: TestApp;

const svc = (...args: string[]) => runCli({ DATABASE_URL: t.db.url }, ...args);

const hasPg = await postgresAvailable();

// The CLI and the server are two processes on one database: this needs a real PostgreSQL server.
describe.skipIf(!hasPg)('admin CLI (two processes on one PostgreSQL)', () => {
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('creates a workspace with a working unrestricted key, users and restricted keys, revokes and suspends', async () => {
    const ws = await svc('workspace', 'create', '--name', 'Acme', '--plan', 'pro', '--seats', '3');
    expect(ws.code).toBe(0);
    expect(ws.json).toMatchObject({ workspace: { id: expect.any(String) }, user: { id: expect.any(String) }, key: { id: expect.any(String), secret: expect.stringMatching(/^svc_/) } });
    expect((await api(t.baseUrl, ws.json.key.secret).get('/v1/agents')).status).toBe(200);

    const user = await svc('user', 'create', '--workspace', ws.json.workspace.id);
    expect(user.json).toEqual({ user: { id: expect.any(String), workspaceId: ws.json.workspace.id } });

    const key = await svc('key', 'create', '--workspace', ws.json.workspace.id, '--user', user.json.user.id, '--scopes', 'webhooks', '--readonly', '--rate-per-minute', '10', '--monthly-question-limit', '100', '--expires-at', '2030-01-01T00:00:00Z');
    expect(key.json.key).toMatchObject({ id: expect.any(String), secret: expect.any(String), scopes: ['webhooks'], readonly: true, ratePerMinute: 10, monthlyQuestionLimit: 100 });
    expect((await api(t.baseUrl, key.json.key.secret).get('/v1/agents')).body.code).toBe('scope_denied');

    const revoked = await svc('key', 'revoke', key.json.key.id);
    expect(revoked.json).toMatchObject({ key: { id: key.json.key.id, revokedAt: expect.any(String) }, revokedDescendants: 0 });
    expect((await api(t.baseUrl, key.json.key.secret).get('/v1/agents')).status).toBe(401);

    expect((await svc('workspace', 'suspend', ws.json.workspace.id)).code).toBe(0);
    expect((await api(t.baseUrl, ws.json.key.secret).get('/v1/agents')).body.code).toBe('client_suspended');
    expect((await svc('workspace', 'unsuspend', ws.json.workspace.id)).code).toBe(0);
    expect((await api(t.baseUrl, ws.json.key.secret).get('/v1/agents')).status).toBe(200);
  }, 240_000);

  // Ten CLI processes, each starting tsx and opening the database: about 12 s apiece at a load average of 20 on two cores.
  it('exits non-zero with a readable message on bad input', async () => {
    for (const args of [
      ['workspace', 'create'],
      ['workspace', 'create', '--name', 'X', '--plan', 'gold'],
      ['key', 'create', '--workspace', 'ws_missing'],
      ['key', 'revoke', 'key_missing'],
      ['frobnicate', 'now'],
      ['workspace', 'create', '--name', 'X', '--seats', 'many'],
    ]) {
      const res = await svc(...args);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/error: \S/);
    }
    const ws = await svc('workspace', 'create', '--name', 'Y');
    const bad = await svc('key', 'create', '--workspace', ws.json.workspace.id, '--scopes', 'agents,wizardry');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('wizardry');
    // Integer flags must fit the database's integer columns.
    for (const [flag, args] of [
      ['seats', ['workspace', 'create', '--name', 'Z', '--seats', '2147483648']],
      ['rate-per-minute', ['key', 'create', '--workspace', ws.json.workspace.id, '--rate-per-minute', '99999999999']],
    ] as const) {
      const res = await svc(...args);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toBe(`error: --${flag} must be at most 2147483647\n`);
    }
  }, 240_000);

  it('key revoke revokes the keys a key created through the API and says how many', async () => {
    const ws = await svc('workspace', 'create', '--name', 'Lineage');
    const parent = ws.json.key;
    const made = await api(t.baseUrl, parent.secret).post('/developer/api-keys', { name: 'child' });
    const grand = await api(t.baseUrl, made.body.key.secret).post('/developer/api-keys', { name: 'grandchild' });
    expect(grand.status).toBe(201);
    const revoked = await svc('key', 'revoke', parent.id);
    expect(revoked.json.revokedDescendants).toBe(2);
    for (const secret of [parent.secret, made.body.key.secret, grand.body.key.secret]) {
      expect((await api(t.baseUrl, secret).get('/v1/agents')).status).toBe(401);
    }
  }, 240_000);
});
