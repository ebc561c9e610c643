import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthMessages, revokeKeyById } from '../../src/modules/keys/keys.service.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let a: TestTenant;
const START = '2026-11-02T10:00:00.000Z';

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
});
afterAll(() => t?.close());
beforeEach(() => t.clock.set(START));

const dev = (key: string) => api(t.baseUrl, key);

/** Creates a key with `parentSecret` through the API; returns its id and secret. */
async function child(parentSecret: string, name: string): Promise<{ id: string; secret: string }> {
  const res = await dev(parentSecret).post('/developer/api-keys', { name });
  expect(res.status).toBe(201);
  return { id: res.body.key.id, secret: res.body.key.secret };
}

/** root (made by the test harness, like the CLI) → child → grandchild, plus a second child. */
let families = 0;
async function family(owner: TestTenant) {
  const name = `root-${++families}`;
  const rootSecret = await t.key(owner, { name });
  const root = (await dev(rootSecret).get('/developer/api-keys')).body.keys.find((k: { name: string }) => k.name === name);
  const c1 = await child(rootSecret, 'child-1');
  const c2 = await child(rootSecret, 'child-2');
  const g1 = await child(c1.secret, 'grandchild');
  return { root: { id: root.id as string, secret: rootSecret }, c1, c2, g1 };
}

const status = async (secret: string) => {
  const res = await dev(secret).get('/v1/agents');
  return res.status === 401 ? `401 ${res.body.error}` : res.status;
};
const REVOKED = `401 ${AuthMessages.invalid}`;

describe('key lineage: revoking a key revokes the keys it created', () => {
  it('REST: DELETE revokes descendants transitively, says how many, and they fail with the revoked-key 401', async () => {
    const f = await family(a);
    for (const k of [f.root, f.c1, f.c2, f.g1]) expect(await status(k.secret)).toBe(200);
    // Revoking a middle key takes its subtree and leaves its parent and sibling alone.
    const mid = await dev(f.root.secret).delete(`/developer/api-keys/${f.c1.id}`);
    expect(mid.status).toBe(200);
    expect(mid.body).toMatchObject({ key: { id: f.c1.id, revokedAt: START }, revokedDescendants: 1 });
    expect(await status(f.c1.secret)).toBe(REVOKED);
    expect(await status(f.g1.secret)).toBe(REVOKED);
    expect(await status(f.root.secret)).toBe(200);
    expect(await status(f.c2.secret)).toBe(200);
    // Revoking the root takes what remains (child-2); already revoked keys are not counted again.
    t.clock.set('2026-11-02T11:00:00.000Z');
    const top = await dev(a.key).delete(`/developer/api-keys/${f.root.id}`);
    expect([top.status, top.body.revokedDescendants]).toEqual([200, 1]);
    for (const k of [f.root, f.c2]) expect(await status(k.secret)).toBe(REVOKED);
    const listed = (await dev(a.key).get('/developer/api-keys')).body.keys as { id: string; revokedAt: string | null }[];
    const revokedAt = (id: string) => listed.find((k) => k.id === id)?.revokedAt;
    expect([revokedAt(f.c1.id), revokedAt(f.g1.id), revokedAt(f.c2.id)]).toEqual([START, START, '2026-11-02T11:00:00.000Z']);
    // The key that revoked them was created by the harness (no parent): it lives on.
    expect(await status(a.key)).toBe(200);
  });

  it('a key inserted under an already revoked ancestor (a revocation racing a creation) fails at once', async () => {
    const f = await family(a);
    const em = t.app.services.orm.em.fork();
    // As if the creation committed after the revocation statement had walked the tree.
    await em.execute(`update api_key set revoked_at = ? where id = ?`, [new Date(START), f.root.id]);
    expect(await status(f.g1.secret)).toBe(REVOKED);
    expect(await status(f.c2.secret)).toBe(REVOKED);
  });

  it('keys made by the CLI or the harness are independent; a key revoking itself takes its children', async () => {
    const independent = await t.key(a, { name: 'independent' });
    const kid = await child(independent, 'kid');
    const self = (await dev(independent).get('/developer/api-keys')).body.keys.find((k: { name: string }) => k.name === 'independent');
    const res = await dev(independent).delete(`/developer/api-keys/${self.id}`);
    expect([res.status, res.body.revokedDescendants]).toEqual([200, 1]);
    expect(await status(kid.secret)).toBe(REVOKED);
    expect(await status(a.key)).toBe(200);
  });

  it('GraphQL revokeApiKey answers revokedDescendants (null elsewhere), with the same effect as REST', async () => {
    const f = await family(a);
    const g = api(t.baseUrl, f.root.secret);
    const res = await g.graphql(`mutation { revokeApiKey(id: "${f.c1.id}") { id revokedAt revokedDescendants } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.revokeApiKey).toEqual({ id: f.c1.id, revokedAt: START, revokedDescendants: 1 });
    expect(await status(f.g1.secret)).toBe(REVOKED);
    const list = await g.graphql('{ apiKeys { id revokedDescendants } }');
    expect(list.data.apiKeys.every((k: { revokedDescendants: number | null }) => k.revokedDescendants === null)).toBe(true);
  });

  it('the CLI revocation (revokeKeyById) revokes descendants too and reports them', async () => {
    const f = await family(a);
    const out = await revokeKeyById({ em: t.app.services.orm.em.fork(), clock: t.clock }, f.root.id);
    expect(out.revokedDescendants).toBe(3);
    expect(out.key.revokedAt?.toISOString()).toBe(START);
    for (const k of [f.root, f.c1, f.c2, f.g1]) expect(await status(k.secret)).toBe(REVOKED);
    // Revoking again keeps the dates and revokes nothing more.
    const again = await revokeKeyById({ em: t.app.services.orm.em.fork(), clock: t.clock }, f.root.id);
    expect(again.revokedDescendants).toBe(0);
  });
});
