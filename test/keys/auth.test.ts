import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { persona } from '../support/agents.js';

let t: TestApp;
let owner: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.tenant();
});
afterAll(() => t.close());

describe('authentication', () => {
  it('401 for a missing key, in the native shape', async () => {
    const res = await api(t.baseUrl).get('/v1/agents');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/missing api key/i);
    expect(res.body.code).toBeUndefined();
  });

  it('401 for an invalid key', async () => {
    const res = await api(t.baseUrl, 'svc_not_a_key').get('/v1/agents');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/invalid or revoked/i);
  });

  it('accepts the key in x-api-key', async () => {
    const res = await fetch(`${t.baseUrl}/v1/agents`, { headers: { 'x-api-key': owner.key } });
    expect(res.status).toBe(200);
  });

  it('401 for a revoked key, effective at the next call', async () => {
    const key = await t.key(owner);
    expect((await api(t.baseUrl, key).get('/v1/agents')).status).toBe(200);
    const { ApiKey } = await import('../../src/modules/keys/api-key.entity.js');
    const em = t.app.services.orm.em.fork();
    const { sha256Hex } = await import('../../src/lib/secrets.js');
    const row = await em.findOneOrFail(ApiKey, { secretHash: sha256Hex(key) });
    row.revokedAt = t.clock.now();
    await em.flush();
    const res = await api(t.baseUrl, key).get('/v1/agents');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/invalid or revoked/i);
  });

  it('401 for an expired key, with its own message', async () => {
    const key = await t.key(owner, { expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    expect((await api(t.baseUrl, key).get('/v1/agents')).status).toBe(200);
    t.clock.advance(61_000);
    const res = await api(t.baseUrl, key).get('/v1/agents');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/expired/i);
  });

  it('401 when the key user no longer exists', async () => {
    const other = await t.user(owner.workspaceId);
    const conn = t.app.services.orm.em.fork().getConnection();
    await conn.execute('delete from app_user where id = ?', [other.userId]);
    const res = await api(t.baseUrl, other.key).get('/v1/agents');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/user not found/i);
  });
});

describe('shared key lookups (issue 28)', () => {
  it('calls with one key that arrive together share one lookup, hydrated once: they get the same entities', async () => {
    const { authenticate } = await import('../../src/pipeline/pipeline.js');
    const { ApiKey } = await import('../../src/modules/keys/api-key.entity.js');
    const key = await t.key(owner);
    const em = t.app.services.orm.em;
    const maps = vi.spyOn(Object.getPrototypeOf(em), 'map');
    const callers = await Promise.all(Array.from({ length: 6 }, () => authenticate(t.app.services, { authorization: `Bearer ${key}` })));
    // the first call finds the key idle and is looked up alone; the five behind it share the next lookup,
    // whose row is the same: its entities are the first lookup's
    const keyMaps = maps.mock.calls.filter(([entity]) => entity === ApiKey).length;
    maps.mockRestore();
    expect(keyMaps).toBe(1);
    expect(new Set(callers.map((c) => (c.kind === 'key' ? c.key : undefined))).size).toBe(1);
    expect(new Set(callers.map((c) => c.workspace)).size).toBe(1);
    expect(callers.every((c) => c.kind === 'key' && c.workspace.id === owner.workspaceId)).toBe(true);
  });

  it('a key looked up again is hydrated again only when its key, user or workspace row changed', async () => {
    const { authenticate } = await import('../../src/pipeline/pipeline.js');
    const { ApiKey } = await import('../../src/modules/keys/api-key.entity.js');
    const key = await t.key(owner, { name: 'before' });
    const em = t.app.services.orm.em;
    const conn = em.fork().getConnection();
    const auth = () => authenticate(t.app.services, { authorization: `Bearer ${key}` });
    const maps = vi.spyOn(Object.getPrototypeOf(em), 'map');
    const keyMaps = () => maps.mock.calls.filter(([entity]) => entity === ApiKey).length;
    try {
      const first = await auth();
      const again = await auth();
      expect(keyMaps()).toBe(1);
      expect(again.workspace).toBe(first.workspace);
      await conn.execute('update api_key set name = ? where id = ?', ['after', first.kind === 'key' ? first.key.id : '']);
      const renamed = await auth();
      expect(keyMaps()).toBe(2);
      expect(renamed.kind === 'key' && renamed.key.name).toBe('after');
      await conn.execute('update workspace set name = name || ? where id = ?', [' (renamed)', owner.workspaceId]);
      const moved = await auth();
      expect(keyMaps()).toBe(3);
      expect(moved.workspace.name).toMatch(/\(renamed\)$/);
      await conn.execute('update workspace set suspended = true where id = ?', [owner.workspaceId]);
      await expect(auth()).rejects.toMatchObject({ code: 'client_suspended' });
      await conn.execute('update workspace set suspended = false where id = ?', [owner.workspaceId]);
      expect((await auth()).workspace.suspended).toBe(false);
    } finally {
      maps.mockRestore();
      await conn.execute('update workspace set suspended = false where id = ?', [owner.workspaceId]);
    }
  });
});

describe('scopes', () => {
  it('a restricted key without the family scope gets 403 scope_denied naming the scope', async () => {
    const key = await t.key(owner, { scopes: ['webhooks'] });
    const res = await api(t.baseUrl, key).get('/v1/agents');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('scope_denied');
    expect(res.body.error).toContain('agents');
  });

  it('a restricted key holding the scope passes', async () => {
    const key = await t.key(owner, { scopes: ['agents', 'knowledge'] });
    expect((await api(t.baseUrl, key).get('/v1/agents')).status).toBe(200);
  });

  it('a legacy key (no capability scope, or only legacy module scopes) reaches every route', async () => {
    const key = await t.key(owner, { scopes: ['chat', 'documents'] });
    expect((await api(t.baseUrl, key).get('/v1/agents')).status).toBe(200);
    expect((await api(t.baseUrl, key).post('/v1/agents', persona('Ada'))).status).toBe(201);
  });

  it('a read-only key reads but every write is 403 read_only_key', async () => {
    const key = await t.key(owner, { readonly: true });
    const ro = api(t.baseUrl, key);
    expect((await ro.get('/v1/agents')).status).toBe(200);
    const created = await api(t.baseUrl, owner.key).post('/v1/agents', persona('Ada'));
    for (const res of [
      await ro.post('/v1/agents', persona('Ada')),
      await ro.put(`/v1/agents/${created.body.agent.id}`, { name: 'x' }),
      await ro.delete(`/v1/agents/${created.body.agent.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('read_only_key');
    }
  });

  it('the readonly scope name makes a key read-only too', async () => {
    const key = await t.key(owner, { scopes: ['readonly', 'agents'] });
    const res = await api(t.baseUrl, key).post('/v1/agents', persona('Ada'));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('read_only_key');
  });

  it('scope is checked before read-only', async () => {
    const key = await t.key(owner, { scopes: ['proof'], readonly: true });
    const res = await api(t.baseUrl, key).post('/v1/agents', persona('Ada'));
    expect(res.body.code).toBe('scope_denied');
  });
});

describe('suspension', () => {
  it('a suspended workspace gets 403 client_suspended, and works again once unsuspended', async () => {
    const other = await t.tenant();
    const { setSuspended } = await import('../../src/modules/provisioning/provisioning.service.js');
    const actx = { em: t.app.services.orm.em.fork(), clock: t.clock };
    await setSuspended(actx, other.workspaceId, true);
    const res = await api(t.baseUrl, other.key).get('/v1/agents');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('client_suspended');
    await setSuspended({ em: t.app.services.orm.em.fork(), clock: t.clock }, other.workspaceId, false);
    expect((await api(t.baseUrl, other.key).get('/v1/agents')).status).toBe(200);
  });
});
