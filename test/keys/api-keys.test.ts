import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/core/context.js';
import { ApiKey } from '../../src/modules/keys/api-key.entity.js';
import { assertWithinRights, type KeyRights } from '../../src/modules/keys/keys-admin.service.js';
import { isRestricted } from '../../src/core/scopes.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let a: TestTenant;
let b: TestTenant;
const START = '2026-11-02T10:00:00.000Z';

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
  b = await t.tenant();
});
afterAll(() => t?.close());
beforeEach(() => t.clock.set(START));

const dev = (key: string) => api(t.baseUrl, key);

describe('POST /developer/api-keys', () => {
  it('201 with the secret once; the new key works with its attributes', async () => {
    const res = await dev(a.key).post('/developer/api-keys', {
      name: 'ci',
      scopes: ['agents'],
      readonly: true,
      ratePerMinute: 10,
      monthlyQuestionLimit: 100,
      expiresAt: '2027-01-01T00:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.key).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'ci',
      preview: expect.any(String),
      scopes: ['agents'],
      readonly: true,
      ratePerMinute: 10,
      monthlyQuestionLimit: 100,
      expiresAt: '2027-01-01T00:00:00.000Z',
      revokedAt: null,
      createdAt: START,
      secret: expect.stringMatching(/^svc_/),
    });
    const k = dev(res.body.key.secret);
    expect((await k.get('/v1/agents')).status).toBe(200);
    expect((await k.post('/v1/agents', {})).body.code).toBe('read_only_key');
    expect((await k.get('/v1/verify/usage')).body.code).toBe('scope_denied');
    const list = await dev(a.key).get('/developer/api-keys');
    expect(JSON.stringify(list.body)).not.toContain(res.body.key.secret);
  });

  it('"readonly" in scopes makes a read-only key; a key created without attributes is unrestricted', async () => {
    const ro = await dev(a.key).post('/developer/api-keys', { scopes: ['readonly'] });
    expect(ro.body.key).toMatchObject({ scopes: [], readonly: true });
    const plain = await dev(a.key).post('/developer/api-keys', {});
    expect(plain.status).toBe(201);
    expect(plain.body.key).toMatchObject({ name: null, scopes: [], readonly: false, ratePerMinute: null, monthlyQuestionLimit: null, expiresAt: null });
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['unknown scope', { scopes: ['agents', 'root'] }, 'scopes'],
    ['scopes not a list', { scopes: 'agents' }, 'scopes'],
    ['scope not a string', { scopes: [1] }, 'scopes'],
    ['ratePerMinute zero', { ratePerMinute: 0 }, 'ratePerMinute'],
    ['ratePerMinute fractional', { ratePerMinute: 1.5 }, 'ratePerMinute'],
    ['ratePerMinute as text', { ratePerMinute: '10' }, 'ratePerMinute'],
    ['monthlyQuestionLimit negative', { monthlyQuestionLimit: -3 }, 'monthlyQuestionLimit'],
    ['readonly not boolean', { readonly: 'yes' }, 'readonly'],
    ['expiresAt not a date', { expiresAt: 'tomorrow' }, 'expiresAt'],
    ['expiresAt in the past', { expiresAt: '2026-11-01T00:00:00Z' }, 'expiresAt'],
    ['name not a string', { name: 5 }, 'name'],
  ];
  for (const [label, body, field] of invalid) {
    it(`400 naming the field: ${label}`, async () => {
      const res = await dev(a.key).post('/developer/api-keys', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(field);
    });
  }
});

describe('who may manage keys', () => {
  it('restricted keys get 403 scope_denied; read-only keys may list but not change (403 read_only_key)', async () => {
    const restricted = await t.key(a, { scopes: ['agents', 'proof'] });
    for (const call of [
      () => dev(restricted).get('/developer/api-keys'),
      () => dev(restricted).post('/developer/api-keys', { scopes: ['agents'] }),
    ]) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('scope_denied');
    }
    const ro = await t.key(a, { readonly: true });
    expect((await dev(ro).get('/developer/api-keys')).status).toBe(200);
    const keyId = (await dev(a.key).post('/developer/api-keys', {})).body.key.id;
    for (const res of [
      await dev(ro).post('/developer/api-keys', { readonly: true }),
      await dev(ro).patch(`/developer/api-keys/${keyId}`, { ratePerMinute: 1 }),
      await dev(ro).delete(`/developer/api-keys/${keyId}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('read_only_key');
    }
    expect((await dev('svc_nope').get('/developer/api-keys')).status).toBe(401);
  });

  it('a key never creates or raises a key beyond its own limits and expiry (400 naming the field)', async () => {
    const limited = await t.key(a, { ratePerMinute: 30, monthlyQuestionLimit: 50, expiresAt: '2027-01-01T00:00:00Z' });
    const d = dev(limited);
    const within = { ratePerMinute: 30, monthlyQuestionLimit: 50, expiresAt: '2026-12-01T00:00:00Z' };
    const created = await d.post('/developer/api-keys', within);
    expect(created.status).toBe(201);
    const beyond: [Record<string, unknown>, string][] = [
      [{ ...within, ratePerMinute: 31 }, 'ratePerMinute'],
      [{ ...within, ratePerMinute: null }, 'ratePerMinute'],
      [{ ...within, monthlyQuestionLimit: 51 }, 'monthlyQuestionLimit'],
      [{ ratePerMinute: 1, monthlyQuestionLimit: 1 }, 'expiresAt'],
      [{ ...within, expiresAt: '2027-06-01T00:00:00Z' }, 'expiresAt'],
    ];
    for (const [body, field] of beyond) {
      const res = await d.post('/developer/api-keys', body);
      expect([res.status, res.body.field]).toEqual([400, field]);
    }
    const id = created.body.key.id;
    const raise = await d.patch(`/developer/api-keys/${id}`, { monthlyQuestionLimit: 60 });
    expect([raise.status, raise.body.field]).toEqual([400, 'monthlyQuestionLimit']);
    const clear = await d.patch(`/developer/api-keys/${id}`, { ratePerMinute: null });
    expect([clear.status, clear.body.field]).toEqual([400, 'ratePerMinute']);
    // A key cannot raise itself either.
    type Listed = { id: string; ratePerMinute: number; monthlyQuestionLimit: number };
    const selfId = (await d.get('/developer/api-keys')).body.keys.find((k: Listed) => k.monthlyQuestionLimit === 50 && k.ratePerMinute === 30 && k.id !== id).id;
    expect((await d.patch(`/developer/api-keys/${selfId}`, { ratePerMinute: 100 })).status).toBe(400);
    // Lowering is always allowed.
    const lower = await d.patch(`/developer/api-keys/${id}`, { monthlyQuestionLimit: 20 });
    expect([lower.status, lower.body.key.monthlyQuestionLimit]).toEqual([200, 20]);
  });

  it('the rights rule itself: scopes a subset, never unrestricted from restricted, never writable from read-only; only raises refused', () => {
    const caller = (scopes: string[], readonly = false, limits: Partial<KeyRights> = {}): Caller => {
      const key = Object.assign(new ApiKey(), {
        id: 'key_x',
        scopes,
        readonly,
        ratePerMinute: limits.ratePerMinute ?? null,
        monthlyQuestionLimit: limits.monthlyQuestionLimit ?? null,
        expiresAt: limits.expiresAt ?? null,
      });
      return { kind: 'key', key, scopes, readonly, restricted: isRestricted(scopes) } as unknown as Caller;
    };
    const rights = (r: Partial<KeyRights>): KeyRights => ({
      scopes: [],
      readonly: false,
      ratePerMinute: null,
      monthlyQuestionLimit: null,
      expiresAt: null,
      ...r,
    });
    const code = (fn: () => void) => {
      try {
        fn();
        return 'ok';
      } catch (e) {
        // A refused limit names its field (validation_failed); the other refusals by their code.
        const err = e as { code: string; details: { field?: string } };
        return err.details.field ?? err.code;
      }
    };
    const restricted = caller(['agents', 'proof']);
    expect(code(() => assertWithinRights(restricted, rights({ scopes: ['agents'] })))).toBe('ok');
    expect(code(() => assertWithinRights(restricted, rights({ scopes: ['agents', 'webhooks'] })))).toBe('scope_denied');
    expect(code(() => assertWithinRights(restricted, rights({ scopes: [] })))).toBe('scope_denied');
    expect(code(() => assertWithinRights(restricted, rights({ scopes: ['chat'] })))).toBe('scope_denied'); // legacy only = unrestricted
    // Narrowing a key that already holds more is not a raise.
    expect(code(() => assertWithinRights(restricted, rights({ scopes: ['webhooks'] }), rights({ scopes: ['webhooks', 'engine'] })))).toBe('ok');
    expect(code(() => assertWithinRights(restricted, rights({ scopes: ['webhooks', 'light'] }), rights({ scopes: ['webhooks'] })))).toBe('scope_denied');
    const ro = caller([], true);
    expect(code(() => assertWithinRights(ro, rights({ readonly: true })))).toBe('ok');
    expect(code(() => assertWithinRights(ro, rights({ readonly: false })))).toBe('read_only_key');
    expect(code(() => assertWithinRights(ro, rights({ readonly: false }), rights({ readonly: false })))).toBe('ok');
    const unrestricted = caller(['chat']);
    expect(code(() => assertWithinRights(unrestricted, rights({ scopes: ['partner'] })))).toBe('ok');
    expect(code(() => assertWithinRights(unrestricted, rights({})))).toBe('ok');
    const capped = caller([], false, { monthlyQuestionLimit: 10 });
    expect(code(() => assertWithinRights(capped, rights({ monthlyQuestionLimit: 10 })))).toBe('ok');
    expect(code(() => assertWithinRights(capped, rights({})))).toBe('monthlyQuestionLimit');
    expect(code(() => assertWithinRights(capped, rights({ monthlyQuestionLimit: 20 }), rights({})))).toBe('ok');
    expect(code(() => assertWithinRights(capped, rights({ monthlyQuestionLimit: 20 }), rights({ monthlyQuestionLimit: 15 })))).toBe('monthlyQuestionLimit');
  });
});

describe('GET, PATCH, DELETE /developer/api-keys', () => {
  it("lists the caller's own keys, oldest first, without secrets", async () => {
    const c = await t.tenant();
    const other = await t.user(c.workspaceId);
    await dev(c.key).post('/developer/api-keys', { name: 'second' });
    const res = await dev(c.key).get('/developer/api-keys');
    expect(res.status).toBe(200);
    expect(res.body.keys.map((k: { name: string }) => k.name)).toEqual(['first key', 'second']);
    for (const k of res.body.keys) expect(k).not.toHaveProperty('secret');
    expect((await dev(other.key).get('/developer/api-keys')).body.keys).toHaveLength(1);
  });

  it('PATCH changes limits, scopes and expiry, effective at the next call; null clears', async () => {
    const created = (await dev(a.key).post('/developer/api-keys', { name: 'bot', monthlyQuestionLimit: 5 })).body.key;
    const k = dev(created.secret);
    const res = await dev(a.key).patch(`/developer/api-keys/${created.id}`, {
      scopes: ['proof'],
      ratePerMinute: 1,
      monthlyQuestionLimit: 500,
      expiresAt: '2026-12-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.key).toMatchObject({ name: 'bot', scopes: ['proof'], ratePerMinute: 1, monthlyQuestionLimit: 500, expiresAt: '2026-12-01T00:00:00.000Z' });
    expect((await k.get('/v1/agents')).body.code).toBe('scope_denied');
    expect((await k.get('/v1/verify/usage')).status).toBe(429); // second request this minute
    const cleared = await dev(a.key).patch(`/developer/api-keys/${created.id}`, { ratePerMinute: null, expiresAt: null, scopes: null, name: null });
    expect(cleared.body.key).toMatchObject({ name: null, scopes: ['proof'], ratePerMinute: null, monthlyQuestionLimit: 500, expiresAt: null });
    expect((await k.get('/v1/verify/usage')).status).toBe(200);
    const bad = await dev(a.key).patch(`/developer/api-keys/${created.id}`, { monthlyQuestionLimit: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('monthlyQuestionLimit');
    const badScope = await dev(a.key).patch(`/developer/api-keys/${created.id}`, { scopes: ['nope'] });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error).toContain('scopes');
  });

  it('DELETE revokes: 200 with the key and revokedDescendants, the next call with the key is 401, the key is listed with revokedAt', async () => {
    const created = (await dev(a.key).post('/developer/api-keys', {})).body.key;
    expect((await dev(created.secret).get('/v1/agents')).status).toBe(200);
    const del = await dev(a.key).delete(`/developer/api-keys/${created.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ key: { ...created, secret: undefined, revokedAt: START }, revokedDescendants: 0 });
    expect((await dev(created.secret).get('/v1/agents')).status).toBe(401);
    const listed = (await dev(a.key).get('/developer/api-keys')).body.keys.find((k: { id: string }) => k.id === created.id);
    expect(listed.revokedAt).toBe(START);
    expect((await dev(a.key).delete(`/developer/api-keys/${created.id}`)).status).toBe(404);
    expect((await dev(a.key).patch(`/developer/api-keys/${created.id}`, { name: 'x' })).status).toBe(404);
  });

  it("404 for unknown keys, other workspaces' and other users' keys", async () => {
    const bKey = (await dev(b.key).get('/developer/api-keys')).body.keys[0].id;
    const other = await t.user(a.workspaceId);
    const otherKey = (await dev(other.key).get('/developer/api-keys')).body.keys[0].id;
    for (const id of ['key_missing', bKey, otherKey]) {
      const p = await dev(a.key).patch(`/developer/api-keys/${id}`, { name: 'x' });
      expect(p.status).toBe(404);
      expect(p.body).toEqual({ error: `API key not found: ${id}` });
      expect((await dev(a.key).delete(`/developer/api-keys/${id}`)).status).toBe(404);
    }
    expect((await dev(b.key).get('/v1/agents')).status).toBe(200);
  });
});

describe('GraphQL keys', () => {
  it('lists keys and creates, updates and revokes with the same validation as REST', async () => {
    const c = await t.tenant();
    const g = api(t.baseUrl, c.key);
    const created = await g.graphql('mutation { createApiKey(input: { name: "gql", scopes: ["agents"], ratePerMinute: 3 }) { secret key { id name scopes ratePerMinute questionsThisMonth } } }');
    expect(created.errors).toBeUndefined();
    expect(created.data.createApiKey).toMatchObject({ secret: expect.stringMatching(/^svc_/), key: { name: 'gql', scopes: ['agents'], ratePerMinute: 3, questionsThisMonth: 0 } });
    const id = created.data.createApiKey.key.id;
    const bad = await g.graphql('mutation { createApiKey(input: { scopes: ["root"] }) { secret } }');
    const rest = await dev(c.key).post('/developer/api-keys', { scopes: ['root'] });
    expect(bad.errors?.[0].message).toBe(rest.body.error);
    const updated = await g.graphql(`mutation { updateApiKey(id: "${id}", input: { monthlyQuestionLimit: 7 }) { monthlyQuestionLimit } }`);
    expect(updated.data.updateApiKey).toEqual({ monthlyQuestionLimit: 7 });
    const revoked = await g.graphql(`mutation { revokeApiKey(id: "${id}") { revokedAt } }`);
    expect(revoked.data.revokeApiKey.revokedAt).toBe(START);
    const list = await g.graphql('{ apiKeys { name revokedAt } }');
    expect(list.data.apiKeys).toEqual([{ name: 'first key', revokedAt: null }, { name: 'gql', revokedAt: START }]);
  });
});
