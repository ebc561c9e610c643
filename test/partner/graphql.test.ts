import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMonth } from '../../src/modules/partner/invoices.service.js';
import { api } from '../support/api.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { addQuestions } from './ledger.js';
import { startPartnerApp, type PartnerApp } from './support.js';

let stripe: FakeStripe;
let p: PartnerApp;

beforeAll(async () => {
  stripe = await startFakeStripe();
  p = await startPartnerApp({ env: { SVC_STRIPE_SECRET_KEY: stripe.secretKey, SVC_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, SVC_STRIPE_API_URL: stripe.url } });
});
afterAll(async () => {
  await p?.close();
  await stripe?.close();
});

const gql = (query: string, variables?: Record<string, unknown>) => p.partner.graphql(query, variables);

describe('partner API over GraphQL (the console)', () => {
  it('gives the same clients, keys, suspension and statement as REST', async () => {
    const status = await gql('{ partnerStatus { workspaceId mode graceDays overdue paymentsConfigured } }');
    expect(status.data.partnerStatus).toEqual({ workspaceId: p.integrator.workspaceId, mode: 'live', graceDays: 7, overdue: false, paymentsConfigured: true });

    const created = await gql('mutation($i: CreatePartnerClientInput!) { createPartnerClient(input: $i) { id name seats acknowledgement rates { ratePer100Cents } } }', {
      i: { name: 'Console client', seats: 3 },
    });
    const id = created.data.createPartnerClient.id;
    expect(created.data.createPartnerClient).toEqual({ id, name: 'Console client', seats: 3, acknowledgement: 'no_admin', rates: { ratePer100Cents: null } });
    const bad = await gql('mutation($i: CreatePartnerClientInput!) { createPartnerClient(input: $i) { id } }', { i: { name: 'X', seats: 0 } });
    expect(bad.errors![0].extensions).toMatchObject({ code: 'validation_failed', field: 'seats' });

    const patched = await gql('mutation($id: ID!, $i: UpdatePartnerClientInput!) { updatePartnerClient(id: $id, input: $i) { rates { ratePer100Cents seatRateCents includedQuestionsPerSeat } } }', {
      id,
      i: { ratePer100Cents: 250, seatRateCents: 1500, includedQuestionsPerSeat: 500 },
    });
    expect(patched.data.updatePartnerClient.rates).toEqual({ ratePer100Cents: 250, seatRateCents: 1500, includedQuestionsPerSeat: 500 });
    const negative = await gql('mutation($id: ID!, $i: UpdatePartnerClientInput!) { updatePartnerClient(id: $id, input: $i) { name } }', { id, i: { seatRateCents: -1 } });
    expect(negative.errors![0].extensions).toMatchObject({ code: 'validation_failed', field: 'seatRateCents' });

    const key = await gql('mutation($c: ID!, $i: CreatePartnerClientKeyInput!) { createPartnerClientKey(clientId: $c, input: $i) { secret key { id scopes } } }', {
      c: id,
      i: { scopes: ['agents'] },
    });
    const { secret, key: k } = key.data.createPartnerClientKey;
    expect(k.scopes).toEqual(['agents']);
    const withPartner = await gql('mutation($c: ID!, $i: CreatePartnerClientKeyInput!) { createPartnerClientKey(clientId: $c, input: $i) { secret } }', { c: id, i: { scopes: ['partner'] } });
    expect(withPartner.errors![0].extensions).toMatchObject({ code: 'validation_failed', field: 'scopes' });
    expect((await gql('query($c: ID!) { partnerClientKeys(clientId: $c) { id } }', { c: id })).data.partnerClientKeys).toEqual([{ id: k.id }]);

    const client = api(p.t.baseUrl, secret);
    await gql('mutation($id: ID!) { updatePartnerClient(id: $id, input: { suspended: true }) { suspended } }', { id });
    expect((await client.get('/v1/agents')).body.code).toBe('client_suspended');
    await gql('mutation($id: ID!) { updatePartnerClient(id: $id, input: { suspended: false }) { suspended } }', { id });
    expect((await client.get('/v1/agents')).status).toBe(200);

    // The hand-computed case: 2345 questions → resale 6613, wholesale 4018, margin 2595.
    await addQuestions(p.t, id, 2345, '2026-11-01T10:00:00Z');
    const statement = await gql('query($c: ID!) { partnerStatement(clientId: $c) { month currency resale { totalCents } wholesaleCents marginCents controls { count priceCents } } }', { c: id });
    expect(statement.data.partnerStatement).toEqual({ month: '2026-11', currency: 'EUR', resale: { totalCents: 6613 }, wholesaleCents: 4018, marginCents: 2595, controls: { count: 0, priceCents: 0 } });
    const rest = await p.partner.get(`/partner/clients/${id}/statement`);
    expect(rest.body.statement.marginCents).toBe(2595);
    const badMonth = await gql('query($c: ID!) { partnerStatement(clientId: $c, month: "2026-13") { month } }', { c: id });
    expect(badMonth.errors![0].extensions).toMatchObject({ code: 'validation_failed', field: 'month' });

    const usage = await gql('query($c: ID!) { partnerClientUsage(clientId: $c) { questions byDay { date questions } } }', { c: id });
    expect(usage.data.partnerClientUsage).toEqual({ questions: 2345, byDay: [{ date: '2026-11-01', questions: 2345 }] });
    const paid = await gql('mutation($c: ID!) { setPartnerPayment(clientId: $c, month: "2026-11", input: { paid: true, amountCents: 6613 }) { month paid amountCents dueCents } }', { c: id });
    expect(paid.data.setPartnerPayment).toEqual({ month: '2026-11', paid: true, amountCents: 6613, dueCents: 6613 });
    const future = await gql('mutation($c: ID!) { setPartnerPayment(clientId: $c, month: "2027-01", input: { paid: true }) { month } }', { c: id });
    expect(future.errors![0].extensions).toMatchObject({ code: 'validation_failed', field: 'month' });
    const ledger = await gql('query($c: ID!) { partnerPayments(clientId: $c, months: 2) { month paid } }', { c: id });
    expect(ledger.data.partnerPayments).toEqual([{ month: '2026-11', paid: true }, { month: '2026-10', paid: false }]);
    expect((await gql('query($c: ID!) { partnerPayments(clientId: $c, months: 25) { month } }', { c: id })).errors![0].extensions.field).toBe('months');
    const wholesale = await gql('{ partnerWholesale { totalCents clients { clientId wholesaleCents } } }');
    expect(wholesale.data.partnerWholesale).toEqual({ totalCents: 4018, clients: [{ clientId: id, wholesaleCents: 4018 }] });

    expect((await gql('mutation($c: ID!, $k: ID!) { revokePartnerClientKey(clientId: $c, keyId: $k) }', { c: id, k: k.id })).data.revokePartnerClientKey).toBe(true);
    expect((await client.get('/v1/agents')).status).toBe(401);
  });

  it('pays an invoice and sets up automatic debit through the same provider flows, and pairs devices', async () => {
    p.t.clock.set('2026-12-01T00:05:00.000Z');
    await closeMonth(p.t.app.services);
    const [invoice] = (await gql('{ partnerInvoices { id month status amountCents overdue } }')).data.partnerInvoices;
    expect(invoice).toMatchObject({ month: '2026-11', status: 'open', amountCents: 4018, overdue: false });
    const checkout = (await gql('mutation($id: ID!) { payPartnerInvoice(id: $id) { url sessionId } }', { id: invoice.id })).data.payPartnerInvoice;
    expect(checkout.url).toBe(stripe.sessions.get(checkout.sessionId)!.url);
    stripe.completeCheckout(checkout.sessionId);
    const confirm = 'mutation($id: ID!) { confirmPartnerInvoice(id: $id) { status paidAt } }';
    const first = await gql(confirm, { id: invoice.id });
    expect(first.data.confirmPartnerInvoice).toEqual({ status: 'paid', paidAt: '2026-12-01T00:05:00.000Z' });
    expect(await gql(confirm, { id: invoice.id })).toEqual(first);
    const again = await gql('mutation($id: ID!) { payPartnerInvoice(id: $id) { url } }', { id: invoice.id });
    expect(again.errors![0].extensions).toMatchObject({ code: 'invoice_not_payable', status: 409, invoiceStatus: 'paid' });

    const setup = (await gql('mutation { setupPartnerAutoDebit { sessionId } }')).data.setupPartnerAutoDebit;
    stripe.completeCheckout(setup.sessionId);
    expect((await gql('mutation { confirmPartnerAutoDebit { active pending } }')).data.confirmPartnerAutoDebit).toEqual({ active: true, pending: false });
    expect((await gql('{ partnerAutoDebit { active } }')).data.partnerAutoDebit.active).toBe(true);
    expect((await gql('mutation { removePartnerAutoDebit }')).data.removePartnerAutoDebit).toBe(true);
    expect((await gql('{ partnerAutoDebit { active } }')).data.partnerAutoDebit.active).toBe(false);

    const code = await api(p.t.baseUrl).post('/partner/devices/code', { name: 'Kiosk' });
    const device = (await gql('mutation($c: String!) { confirmPartnerDevice(userCode: $c) { id name } }', { c: code.body.userCode })).data.confirmPartnerDevice;
    expect(device.name).toBe('Kiosk');
    expect((await gql('{ partnerDevices { id } }')).data.partnerDevices).toEqual([{ id: device.id }]);
    expect((await gql('mutation($id: ID!) { unpairPartnerDevice(id: $id) }', { id: device.id })).data.unpairPartnerDevice).toBe(true);
    expect((await gql('{ partnerDevices { id } }')).data.partnerDevices).toEqual([]);
  });

  it('refuses a workspace that is not an integrator, and keys without the partner scope', async () => {
    const other = await p.t.tenant({ name: 'Not a partner' });
    const res = await api(p.t.baseUrl, other.key).graphql('{ partnerClients { id } }');
    expect(res.errors![0].extensions).toMatchObject({ code: 'partner_required', status: 403 });
    const agentsOnly = await p.t.key(p.integrator, { scopes: ['agents'] });
    const denied = await api(p.t.baseUrl, agentsOnly).graphql('{ partnerStatus { mode } }');
    expect(denied.errors![0].extensions).toMatchObject({ code: 'scope_denied' });
  });
});
