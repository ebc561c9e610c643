import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { mailText } from '../support/smtp-server.js';
import { browser, linkIn } from '../people/support.js';
import { startPartnerApp, type PartnerApp } from './support.js';

let p: PartnerApp;

beforeAll(async () => {
  p = await startPartnerApp();
});
afterAll(() => p?.close());

describe('partner status and access', () => {
  it('reports the program of an integrator: live mode, grace period, nothing overdue', async () => {
    const res = await p.partner.get('/partner/status');
    expect(res.status).toBe(200);
    expect(res.body.partner).toEqual({
      workspaceId: p.integrator.workspaceId,
      mode: 'live',
      graceDays: 7,
      clients: expect.any(Number),
      overdue: false,
      overdueInvoiceId: null,
      unpaidAfter: null,
      autoDebit: false,
      paymentsConfigured: false,
    });
  });

  it('refuses a workspace that is not an integrator with 403 partner_required, and keys without the partner scope', async () => {
    const other = await p.t.tenant({ name: 'Not a partner' });
    const res = await api(p.t.baseUrl, other.key).get('/partner/status');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'partner_required', error: expect.any(String) });

    const engineOnly = await p.t.key(p.integrator, { scopes: ['engine'] });
    const denied = await api(p.t.baseUrl, engineOnly).get('/partner/clients');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'scope_denied' });
    // The integrator's unrestricted key reaches every family, partner included.
    expect((await api(p.t.baseUrl, p.integrator.key).get('/partner/clients')).status).toBe(200);
    // A read-only partner key reads, never writes.
    const readonly = await p.t.key(p.integrator, { scopes: ['partner'], readonly: true });
    expect((await api(p.t.baseUrl, readonly).get('/partner/clients')).status).toBe(200);
    expect((await api(p.t.baseUrl, readonly).post('/partner/clients', { name: 'X' })).body.code).toBe('read_only_key');
  });
});

describe('clients', () => {
  it('creates a client workspace (201, id is the workspace id) and lists it with usage, rates and acknowledgement', async () => {
    const res = await p.partner.post('/partner/clients', { name: 'Boulangerie Martin', seats: 3 });
    expect(res.status).toBe(201);
    const client = res.body.client;
    expect(client).toMatchObject({
      id: expect.stringMatching(/^ws_/),
      name: 'Boulangerie Martin',
      seats: 3,
      suspended: false,
      sandbox: false,
      adminEmail: null,
      acknowledgement: 'no_admin',
      rates: { ratePer100Cents: null, seatRateCents: null, includedQuestionsPerSeat: null },
      usage: { month: p.t.clock.now().toISOString().slice(0, 7), questions: 0, controls: 0 },
    });
    const list = await p.partner.get('/partner/clients');
    expect(list.status).toBe(200);
    expect(list.body.clients.map((c: { id: string }) => c.id)).toContain(client.id);
    // Another integrator does not see it, and cannot touch it (404).
    const other = await p.makeIntegrator({ name: 'Other integrator' });
    const otherApi = api(p.t.baseUrl, other.key);
    expect((await otherApi.get('/partner/clients')).body.clients).toEqual([]);
    expect((await otherApi.patch(`/partner/clients/${client.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await otherApi.get(`/partner/clients/${client.id}/keys`)).status).toBe(404);
  });

  it("invites the client's manager as administrator through the people invitations", async () => {
    const res = await p.partner.post('/partner/clients', { name: 'Cabinet Durand', adminEmail: 'Manager@Durand.example' });
    expect(res.status).toBe(201);
    expect(res.body.client).toMatchObject({ adminEmail: 'manager@durand.example', acknowledgement: 'invited' });
    await expect.poll(() => p.smtp.to('manager@durand.example').length).toBe(1);
    const mail = mailText(p.smtp.to('manager@durand.example')[0]);
    expect(mail).toContain('Cabinet Durand');
    expect(mail).toContain('as admin');
    const { token } = linkIn(mail);
    // The manager accepts: the client shows the acknowledgement.
    const accepted = await browser(p.t.baseUrl).post('/auth/invitations/accept', { token, password: 'a long enough password' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ role: 'admin', workspaceId: res.body.client.id });
    const list = await p.partner.get('/partner/clients');
    expect(list.body.clients.find((c: { id: string }) => c.id === res.body.client.id).acknowledgement).toBe('accepted');
    // The same e-mail cannot be invited again for another client.
    const again = await p.partner.post('/partner/clients', { name: 'Other', adminEmail: 'manager@durand.example' });
    expect(again.status).toBe(400);
  });

  it('answers 400 naming the field for every malformed creation', async () => {
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 12 }, 'name'],
      [{ name: 'X', adminEmail: 'not-an-email' }, 'adminEmail'],
      [{ name: 'X', adminEmail: 42 }, 'adminEmail'],
      [{ name: 'X', seats: 0 }, 'seats'],
      [{ name: 'X', seats: 1.5 }, 'seats'],
    ] as const) {
      const res = await p.partner.post('/partner/clients', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const notObject = await p.partner.post('/partner/clients', '[1]');
    expect(notObject.status).toBe(400);
  });

  it('takes the rates at creation, and refuses a field it does not know instead of dropping it (issue 25)', async () => {
    const created = await p.partner.post('/partner/clients', { name: 'Rated', ratePer100Cents: 250, seatRateCents: 1500, includedQuestionsPerSeat: 100 });
    expect(created.status).toBe(201);
    expect(created.body.client.rates).toEqual({ ratePer100Cents: 250, seatRateCents: 1500, includedQuestionsPerSeat: 100 });
    const listed = (await p.partner.get('/partner/clients')).body.clients.find((c: { id: string }) => c.id === created.body.client.id);
    expect(listed.rates).toEqual({ ratePer100Cents: 250, seatRateCents: 1500, includedQuestionsPerSeat: 100 });
    const before = (await p.partner.get('/partner/clients')).body.clients.length;
    for (const [method, path, body] of [
      ['post', '/partner/clients', { name: 'Typo', ratePer100cents: 250 }],
      ['post', '/partner/clients', { name: 'Typo', plan: 'cabinet' }],
      ['patch', `/partner/clients/${created.body.client.id}`, { ratePer100cents: 1 }],
    ] as const) {
      const res = await p.partner[method](path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ field: Object.keys(body).find((k) => k !== 'name'), error: expect.stringContaining('is not a field of this request') });
    }
    expect((await p.partner.get('/partner/clients')).body.clients).toHaveLength(before);
    expect((await p.partner.get('/partner/clients')).body.clients.find((c: { id: string }) => c.id === created.body.client.id).rates.ratePer100Cents).toBe(250);
  });

  it('PATCH sets rates, seats and name, null clears a rate, and refuses any other type with 400', async () => {
    const { id } = await p.client('Patched');
    const set = await p.partner.patch(`/partner/clients/${id}`, { name: 'Patched SA', seats: 4, ratePer100Cents: 250, seatRateCents: 1500, includedQuestionsPerSeat: 0 });
    expect(set.status).toBe(200);
    expect(set.body.client).toMatchObject({ name: 'Patched SA', seats: 4, rates: { ratePer100Cents: 250, seatRateCents: 1500, includedQuestionsPerSeat: 0 } });
    const cleared = await p.partner.patch(`/partner/clients/${id}`, { ratePer100Cents: null });
    expect(cleared.body.client.rates).toEqual({ ratePer100Cents: null, seatRateCents: 1500, includedQuestionsPerSeat: 0 });
    for (const field of ['ratePer100Cents', 'seatRateCents', 'includedQuestionsPerSeat']) {
      for (const value of [-1, 1.5, '12', true, {}, [1]]) {
        const res = await p.partner.patch(`/partner/clients/${id}`, { [field]: value });
        expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
        expect(res.body.field).toBe(field);
      }
    }
    for (const [body, field] of [
      [{ suspended: 'yes' }, 'suspended'],
      [{ suspended: null }, 'suspended'],
      [{ name: '' }, 'name'],
      [{ name: 5 }, 'name'],
      [{ seats: 0 }, 'seats'],
    ] as const) {
      const res = await p.partner.patch(`/partner/clients/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    // Nothing of the refused patches was stored.
    const after = (await p.partner.get('/partner/clients')).body.clients.find((c: { id: string }) => c.id === id);
    expect(after).toMatchObject({ name: 'Patched SA', seats: 4, suspended: false, rates: { ratePer100Cents: null, seatRateCents: 1500, includedQuestionsPerSeat: 0 } });
    expect((await p.partner.patch('/partner/clients/ws_unknown', { name: 'X' })).status).toBe(404);
  });
});

describe('client keys', () => {
  it('creates restricted keys (secret once), lists them without secrets, and revokes at the next call', async () => {
    const created = await p.partner.post('/partner/clients', { name: 'Keys client' });
    const id = created.body.client.id;
    const res = await p.partner.post(`/partner/clients/${id}/keys`, { name: 'front', scopes: ['agents', 'knowledge'], ratePerMinute: 100, monthlyQuestionLimit: 50 });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatchObject({ name: 'front', scopes: ['agents', 'knowledge'], readonly: false, ratePerMinute: 100, monthlyQuestionLimit: 50, secret: expect.stringMatching(/^svc_/) });
    const secret = res.body.key.secret;
    const clientApi = api(p.t.baseUrl, secret);
    expect((await clientApi.get('/v1/agents')).status).toBe(200);
    // A client key never reaches the partner family nor a family it lacks.
    expect((await clientApi.get('/partner/status')).body.code).toBe('scope_denied');
    expect((await clientApi.get('/v1/webhooks')).body.code).toBe('scope_denied');

    const readonly = await p.partner.post(`/partner/clients/${id}/keys`, { scopes: ['agents'], readonly: true });
    expect(readonly.body.key.readonly).toBe(true);
    expect((await api(p.t.baseUrl, readonly.body.key.secret).post('/v1/agents', {})).body.code).toBe('read_only_key');

    const list = await p.partner.get(`/partner/clients/${id}/keys`);
    expect(list.status).toBe(200);
    expect(list.body.keys.map((k: { id: string }) => k.id)).toEqual([res.body.key.id, readonly.body.key.id]);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    expect((await p.partner.delete(`/partner/clients/${id}/keys/${res.body.key.id}`)).status).toBe(204);
    expect((await clientApi.get('/v1/agents')).status).toBe(401);
    expect((await p.partner.get(`/partner/clients/${id}/keys`)).body.keys[0].revokedAt).toEqual(expect.any(String));
    expect((await p.partner.delete(`/partner/clients/${id}/keys/${res.body.key.id}`)).status).toBe(404);
    expect((await p.partner.delete(`/partner/clients/${id}/keys/key_unknown`)).status).toBe(404);
    expect((await p.partner.post('/partner/clients/ws_unknown/keys', { scopes: ['agents'] })).status).toBe(404);
  });

  it('refuses keys without a capability, with partner, or with bad attributes (400 naming the field)', async () => {
    const { id } = await p.client('Refusals');
    for (const [body, field] of [
      [{}, 'scopes'],
      [{ scopes: [] }, 'scopes'],
      [{ scopes: ['chat'] }, 'scopes'],
      [{ scopes: ['partner'] }, 'scopes'],
      [{ scopes: ['agents', 'partner'] }, 'scopes'],
      [{ scopes: ['agents', 'nope'] }, 'scopes'],
      [{ scopes: 'agents' }, 'scopes'],
      [{ scopes: ['agents'], readonly: 'yes' }, 'readonly'],
      [{ scopes: ['agents'], ratePerMinute: 0 }, 'ratePerMinute'],
      [{ scopes: ['agents'], monthlyQuestionLimit: -5 }, 'monthlyQuestionLimit'],
      [{ scopes: ['agents'], name: 3 }, 'name'],
    ] as const) {
      const res = await p.partner.post(`/partner/clients/${id}/keys`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    expect((await p.partner.get(`/partner/clients/${id}/keys`)).body.keys).toHaveLength(1);
  });

  it('keeps client keys working when the integrator key that created them is revoked', async () => {
    const ownKey = await p.t.key(p.integrator, { scopes: ['partner'] });
    const own = api(p.t.baseUrl, ownKey);
    const created = await own.post('/partner/clients', { name: 'Lineage' });
    const key = await own.post(`/partner/clients/${created.body.client.id}/keys`, { scopes: ['agents'] });
    const admin = api(p.t.baseUrl, p.integrator.key);
    const keys = (await admin.get('/developer/api-keys')).body.keys as { id: string; preview: string }[];
    const ownId = keys.find((k) => k.preview === `${ownKey.slice(0, 8)}…${ownKey.slice(-4)}`)!.id;
    expect((await admin.delete(`/developer/api-keys/${ownId}`)).status).toBe(200);
    expect((await own.get('/partner/status')).status).toBe(401);
    expect((await api(p.t.baseUrl, key.body.key.secret).get('/v1/agents')).status).toBe(200);
  });
});

describe('suspension cascade', () => {
  it('suspended: every key of the client fails with 403 client_suspended at the next call; the others keep working; false restores', async () => {
    const a = await p.client('Suspended client');
    const second = await p.partner.post(`/partner/clients/${a.id}/keys`, { scopes: ['knowledge', 'agents'] });
    const b = await p.client('Untouched client');
    const aKeys = [a.key, second.body.key.secret].map((k) => api(p.t.baseUrl, k));
    for (const k of aKeys) expect((await k.get('/v1/agents')).status).toBe(200);

    const suspended = await p.partner.patch(`/partner/clients/${a.id}`, { suspended: true });
    expect(suspended.body.client.suspended).toBe(true);
    for (const k of aKeys) {
      const res = await k.get('/v1/agents');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String), code: 'client_suspended' });
    }
    // Also on GraphQL, and on an unknown path under a keyed prefix (key checks come before routing).
    const gql = await aKeys[0].graphql('{ viewer { restricted } }');
    expect(gql.errors?.[0].extensions.code).toBe('client_suspended');
    expect((await aKeys[0].get('/v1/nothing-here')).status).toBe(403);
    // The integrator's keys and the other client's keys keep working.
    expect((await api(p.t.baseUrl, b.key).get('/v1/agents')).status).toBe(200);
    expect((await p.partner.get('/partner/clients')).status).toBe(200);
    expect((await api(p.t.baseUrl, p.integrator.key).get('/v1/agents')).status).toBe(200);

    await p.partner.patch(`/partner/clients/${a.id}`, { suspended: false });
    for (const k of aKeys) expect((await k.get('/v1/agents')).status).toBe(200);
  });
});
