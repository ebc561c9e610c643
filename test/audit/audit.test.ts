import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPartner } from '../../src/modules/partner/partner.service.js';
import { api } from '../support/api.js';
import { mailText } from '../support/smtp-server.js';
import { browser, linkIn, startPeopleApp, type Browser, type PeopleApp } from '../people/support.js';

/**
 * The audit log over real HTTP: each audited action leaves one entry (who, what, when, from which
 * address), written with the change; the log is read by admins only (REST and GraphQL), filtered and
 * paged; it holds no secret; the database refuses to change or delete an entry.
 */
describe('audit log', () => {
  let t: PeopleApp;
  let ws: { workspaceId: string; userId: string; key: string };
  let admin: Browser;
  let adminId: string;
  const secrets: string[] = [];
  const ADMIN_PASSWORD = 'Audit-Admin-Password-1';
  const MEMBER_PASSWORD = 'Audit-Member-Password-1';

  beforeAll(async () => {
    t = await startPeopleApp();
    ws = await t.workspace({ name: 'Audited' });
    secrets.push(ws.key, ADMIN_PASSWORD, MEMBER_PASSWORD);
    adminId = (await t.person(ws.workspaceId, { email: 'boss@example.test', password: ADMIN_PASSWORD, role: 'admin' })).id;
    await t.person(ws.workspaceId, { email: 'member@example.test', password: MEMBER_PASSWORD, role: 'member' });
    admin = browser(t.baseUrl, { ip: '203.0.113.7' });
    expect((await admin.signIn('boss@example.test', ADMIN_PASSWORD)).status).toBe(200);
    secrets.push((await admin.sessionToken())!);
  });
  afterAll(() => t?.close());

  const keyed = (key = ws.key, ip = '198.51.100.20') => api(t.baseUrl, key, { 'x-forwarded-for': ip });
  /** Every entry of the workspace, newest first, through the REST route (all pages). */
  async function allEntries(key = ws.key): Promise<any[]> {
    const out: any[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { entries: any[]; nextCursor: string | null } } = await keyed(key).get(`/v1/audit?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      out.push(...page.body.entries);
      cursor = page.body.nextCursor;
    } while (cursor);
    return out;
  }
  const only = async (action: string) => (await keyed().get(`/v1/audit?action=${action}`)).body.entries as any[];

  it('records API key creation, change and revocation by the key that did it, from its address', async () => {
    const me = keyed();
    const created = await me.post('/developer/api-keys', { name: 'ci', scopes: ['agents'], ratePerMinute: 30 }, { 'x-request-id': 'req-audit-key-1' });
    expect(created.status).toBe(201);
    secrets.push(created.body.key.secret);
    const id = created.body.key.id;
    expect((await me.patch(`/developer/api-keys/${id}`, { ratePerMinute: 10, name: 'ci-2' })).status).toBe(200);
    // A refused change leaves nothing: the entry is written with the change or not at all.
    expect((await me.patch(`/developer/api-keys/${id}`, { ratePerMinute: -1 })).status).toBe(400);
    expect((await me.delete(`/developer/api-keys/${id}`)).status).toBe(200);

    const [c] = await only('key.created').then((es) => es.filter((e) => e.target.id === id));
    expect(c).toMatchObject({
      action: 'key.created',
      target: { type: 'apiKey', id },
      actor: { type: 'key', userId: ws.userId },
      details: { name: 'ci', scopes: ['agents'], readonly: false, ratePerMinute: 30 },
      address: '198.51.100.20',
      requestId: 'req-audit-key-1',
    });
    expect(c.actor.keyId).toMatch(/^key_/);
    expect(new Date(c.at).getTime()).toBe(t.clock.now().getTime());
    const updated = (await only('key.updated')).filter((e) => e.target.id === id);
    expect(updated).toHaveLength(1);
    expect(updated[0].details.changes).toEqual({ name: { from: 'ci', to: 'ci-2' }, ratePerMinute: { from: 30, to: 10 } });
    const revoked = (await only('key.revoked')).filter((e) => e.target.id === id);
    expect(revoked).toHaveLength(1);
    expect(revoked[0].details).toMatchObject({ name: 'ci-2', revokedDescendants: 0 });
  });

  it('records sign-ins and failed sign-ins (never the e-mail typed for an unknown account)', async () => {
    const wrong = 'Wrong-Password-For-Boss';
    secrets.push(wrong);
    const refused = await browser(t.baseUrl, { ip: '192.0.2.55' }).signIn('boss@example.test', wrong);
    expect(refused.status).toBe(401);
    expect((await browser(t.baseUrl, { ip: '192.0.2.56' }).signIn('ghost@example.test', wrong)).status).toBe(401);
    const failed = await only('person.sign_in_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      actor: { type: 'anonymous', keyId: null, userId: null },
      target: { type: 'person', id: adminId },
      details: { email: 'boss@example.test', reason: 'wrong password' },
      address: '192.0.2.55',
      requestId: refused.headers.get('x-request-id'),
    });
    const signedIn = (await only('person.signed_in')).filter((e) => e.target.id === adminId);
    expect(signedIn[0]).toMatchObject({ actor: { type: 'person', userId: adminId, email: 'boss@example.test' }, address: '203.0.113.7' });
    expect(JSON.stringify(await allEntries())).not.toContain('ghost@example.test');
  });

  it('records invitations, role changes and removals by the signed-in admin', async () => {
    const inv = await admin.graphql('mutation { invitePerson(input: { email: "new@example.test", role: member }) { person { id } } }');
    const personId = inv.body.data.invitePerson.person.id;
    await expect.poll(() => t.smtp.to('new@example.test').length).toBe(1);
    const token = linkIn(mailText(t.smtp.to('new@example.test')[0])).token;
    secrets.push(token);
    const password = 'New-Person-Password-9';
    secrets.push(password);
    const guest = browser(t.baseUrl, { ip: '192.0.2.77' });
    expect((await guest.post('/auth/invitations/accept', { token, password })).status).toBe(200);
    secrets.push((await guest.sessionToken())!);
    expect((await admin.graphql(`mutation { setPersonRole(id: "${personId}", input: { role: admin }) { role } }`)).body.data.setPersonRole.role).toBe('admin');
    expect((await admin.graphql(`mutation { disablePerson(id: "${personId}") { state } }`)).body.data.disablePerson.state).toBe('disabled');

    const about = (es: any[]) => es.filter((e) => e.target.id === personId).map((e) => e.action);
    expect(about(await allEntries())).toEqual(['person.disabled', 'person.role_changed', 'person.invitation_accepted', 'person.invited']);
    const entries = (await allEntries()).filter((e) => e.target.id === personId);
    const byAction = Object.fromEntries(entries.map((e) => [e.action, e]));
    // Every entry of a request carries its id: the one the response gave back.
    expect(entries.every((e) => typeof e.requestId === 'string' && e.requestId.length > 0)).toBe(true);
    expect(byAction['person.invited']).toMatchObject({ actor: { type: 'person', userId: adminId, email: 'boss@example.test' }, details: { email: 'new@example.test', role: 'member' }, address: '203.0.113.7' });
    expect(byAction['person.invitation_accepted']).toMatchObject({ actor: { type: 'person', userId: personId }, address: '192.0.2.77' });
    expect(byAction['person.role_changed'].details).toEqual({ email: 'new@example.test', from: 'member', to: 'admin' });
    expect(byAction['person.disabled'].details).toMatchObject({ email: 'new@example.test', previousState: 'active' });
  });

  it('records webhooks created, changed, secret rotated and deleted, without the secret', async () => {
    const me = keyed();
    const created = await me.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['webhook.test'] });
    expect(created.status).toBe(201);
    const id = created.body.webhook.id;
    secrets.push(created.body.webhook.secret);
    expect((await me.put(`/v1/webhooks/${id}`, { isActive: false, description: 'paused' })).status).toBe(200);
    const rotated = await me.post(`/v1/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook.secret).toMatch(/^whsec_/);
    expect(rotated.body.webhook.secret).not.toBe(created.body.webhook.secret);
    expect(rotated.body.webhook.secretPreview).toBe(`whsec_…${rotated.body.webhook.secret.slice(-4)}`);
    secrets.push(rotated.body.webhook.secret);
    const viaGraphql = await admin.graphql(`mutation { rotateWebhookSecret(id: "${id}") { secret } }`);
    // Endpoints belong to their creator: the admin person did not create this one.
    expect(viaGraphql.body.errors?.[0].extensions.code).toBe('not_found');
    expect((await me.delete(`/v1/webhooks/${id}`)).status).toBe(204);

    const actions = (await allEntries()).filter((e) => e.target.id === id).map((e) => e.action);
    expect(actions).toEqual(['webhook.deleted', 'webhook.secret_rotated', 'webhook.updated', 'webhook.created']);
    const [updated] = await only('webhook.updated');
    expect(updated.details.changes).toEqual({ description: { from: '', to: 'paused' }, isActive: { from: true, to: false } });
    const [made] = await only('webhook.created');
    expect(made.details).toEqual({ url: 'http://127.0.0.1:9/hook', events: ['webhook.test'], description: '', isActive: true });
  });

  it('records a flow allowed to send unattended, and the permission withdrawn', async () => {
    const flow = await admin.graphql('mutation { createFlow(input: { name: "Nightly" }) { flow { id } } }');
    const id = flow.body.data.createFlow.flow.id;
    expect((await admin.graphql(`mutation { updateFlow(id: "${id}", input: { unattendedOutbound: true }) { unattendedOutbound } }`)).body.data.updateFlow.unattendedOutbound).toBe(true);
    expect((await admin.graphql(`mutation { updateFlow(id: "${id}", input: { unattendedOutbound: false }) { unattendedOutbound } }`)).body.data.updateFlow.unattendedOutbound).toBe(false);
    const entries = (await allEntries()).filter((e) => e.target.id === id);
    expect(entries.map((e) => e.action)).toEqual(['flow.unattended_outbound_withdrawn', 'flow.unattended_outbound_allowed']);
    expect(entries[1]).toMatchObject({ actor: { type: 'person', userId: adminId }, target: { type: 'flow', id }, details: { name: 'Nightly' } });
  });

  it("records a partner client's suspension in the client's log and the integrator's", async () => {
    await setPartner({ em: t.app.services.orm.em.fork(), clock: t.clock }, ws.workspaceId, { sandbox: false, graceDays: 7 });
    const me = keyed();
    const client = await me.post('/partner/clients', { name: 'Client A' });
    expect(client.status).toBe(201);
    const clientId = client.body.client.id;
    const clientKey = await me.post(`/partner/clients/${clientId}/keys`, { scopes: ['agents'] });
    expect(clientKey.status).toBe(201);
    secrets.push(clientKey.body.key.secret);
    expect((await me.patch(`/partner/clients/${clientId}`, { suspended: true })).status).toBe(200);
    expect((await me.patch(`/partner/clients/${clientId}`, { suspended: false })).status).toBe(200);

    const ours = (await allEntries()).filter((e) => e.target.id === clientId).map((e) => e.action);
    expect(ours).toEqual(['workspace.reinstated', 'workspace.suspended']);
    // The client's own log, read from the database (the client has no unrestricted key to read it with).
    const theirs = await t.app.services.orm.em
      .fork()
      .execute<{ action: string; actor_type: string; actor_key_id: string }[]>('select action, actor_type, actor_key_id from audit_entry where workspace_id = ? order by seq', [clientId]);
    expect(theirs.map((r) => r.action)).toEqual(['key.created', 'workspace.suspended', 'workspace.reinstated']);
    expect(theirs.every((r) => r.actor_type === 'key' && r.actor_key_id.startsWith('key_'))).toBe(true);
  });

  it('filters by action and time and pages with the cursor, over REST and GraphQL alike', async () => {
    const all = await allEntries();
    expect(all.length).toBeGreaterThan(10);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { entries: any[]; nextCursor: string | null } } = await keyed().get(`/v1/audit?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.body.entries.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.entries.map((e: any) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.id));

    const keys = await keyed().get('/v1/audit?action=key.created,key.revoked');
    expect(new Set(keys.body.entries.map((e: any) => e.action))).toEqual(new Set(['key.created', 'key.revoked']));

    t.clock.advance(60_000);
    const later = t.clock.now().toISOString();
    expect((await keyed().post('/developer/api-keys', { name: 'later' })).status).toBe(201);
    const recent = await keyed().get(`/v1/audit?from=${encodeURIComponent(later)}`);
    expect(recent.body.entries.map((e: any) => e.details.name)).toEqual(['later']);
    const before = await keyed().get(`/v1/audit?to=${encodeURIComponent(later)}`);
    expect(before.body.entries.some((e: any) => e.details.name === 'later')).toBe(false);

    const gql = await admin.graphql(`{ auditLog(action: "key.created", limit: 2) { entries { id action at actor { type keyId userId email } target { type id } details address requestId } nextCursor } }`);
    expect(gql.body.errors).toBeUndefined();
    const restTwo = (await keyed().get('/v1/audit?action=key.created&limit=2')).body;
    expect(gql.body.data.auditLog).toEqual(restTwo);
    const next = await admin.graphql(`query($c: String) { auditLog(action: "key.created", limit: 2, cursor: $c) { entries { id } } }`, { c: restTwo.nextCursor });
    expect(next.body.data.auditLog.entries[0].id).not.toBe(restTwo.entries[1].id);

    for (const q of ['action=key.exploded', 'from=yesterday', 'limit=0', 'cursor=nope']) {
      const bad = await keyed().get(`/v1/audit?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body).toEqual({ error: expect.any(String), field: q.split('=')[0] });
    }
  });

  it('is read by admins only: a member gets admin_required, a restricted key scope_denied, no key 401', async () => {
    const member = browser(t.baseUrl, { ip: '192.0.2.90' });
    expect((await member.signIn('member@example.test', MEMBER_PASSWORD)).status).toBe(200);
    secrets.push((await member.sessionToken())!);
    const refused = await member.graphql('{ auditLog { entries { id } } }');
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'admin_required', status: 403 });

    const agentsKey = (await keyed().post('/developer/api-keys', { scopes: ['agents', 'webhooks', 'engine', 'knowledge', 'proof', 'light', 'reflex'] })).body.key.secret;
    secrets.push(agentsKey);
    const denied = await api(t.baseUrl, agentsKey).get('/v1/audit');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: expect.any(String), code: 'scope_denied' });
    const gqlDenied = await api(t.baseUrl, agentsKey).graphql('{ auditLog { entries { id } } }');
    expect(gqlDenied.errors![0].extensions.code).toBe('scope_denied');

    const none = await api(t.baseUrl).get('/v1/audit');
    expect(none.status).toBe(401);
    // The session cookie opens GraphQL, not the REST route (docs/people.md, "Where the cookie works").
    expect((await admin.get('/v1/audit')).status).toBe(401);

    // A read-only unrestricted key reads it (a read).
    const readonlyKey = (await keyed().post('/developer/api-keys', { readonly: true })).body.key.secret;
    secrets.push(readonlyKey);
    expect((await api(t.baseUrl, readonlyKey).get('/v1/audit?limit=1')).status).toBe(200);
  });

  it('holds no secret: no key or webhook secret, password, session or link token in any entry', async () => {
    expect(secrets.length).toBeGreaterThan(10);
    const rows = await t.app.services.orm.em.fork().execute<{ row: string }[]>('select row_to_json(a)::text as row from audit_entry a');
    expect(rows.length).toBeGreaterThan(20);
    for (const { row } of rows) for (const s of secrets) expect(row).not.toContain(s);
    const served = JSON.stringify(await allEntries());
    for (const s of secrets) expect(served).not.toContain(s);
  });

  it('is append-only: the database refuses to change, delete or empty it', async () => {
    const em = t.app.services.orm.em.fork();
    await expect(em.execute(`update audit_entry set action = 'key.created'`)).rejects.toThrow(/append-only/);
    await expect(em.execute('delete from audit_entry')).rejects.toThrow(/append-only/);
    await expect(em.execute('truncate audit_entry')).rejects.toThrow(/append-only/);
    const [{ n }] = await em.execute<{ n: string }[]>('select count(*) as n from audit_entry');
    expect(Number(n)).toBeGreaterThan(20);
  });
});
