import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMonth } from '../../src/modules/partner/invoices.service.js';
import { api } from '../support/api.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { addQuestions } from './ledger.js';
import { startPartnerApp, type PartnerApp } from './support.js';

let stripe: FakeStripe;
let p: PartnerApp;
let a: { id: string; key: string };
let b: { id: string; key: string };

const webhook = (body: string, signature?: string) =>
  fetch(`${p.t.baseUrl}/partner/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body,
  });

beforeAll(async () => {
  stripe = await startFakeStripe();
  p = await startPartnerApp({
    env: { SVC_STRIPE_SECRET_KEY: stripe.secretKey, SVC_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, SVC_STRIPE_API_URL: stripe.url },
  });
  a = await p.client('Alpha');
  b = await p.client('Bravo');
  await addQuestions(p.t, a.id, 2345, '2026-10-10T08:00:00Z');
  await addQuestions(p.t, b.id, 12_001, '2026-10-11T08:00:00Z');
});
afterAll(async () => {
  await p?.close();
  await stripe?.close();
});

describe('month-end invoices', () => {
  it("makes one open invoice per integrator of its clients' wholesale amounts, once", async () => {
    const quiet = await p.makeIntegrator({ name: 'Quiet integrator' });
    // 2026-11-02: the job closes October.
    await closeMonth(p.t.app.services);
    await closeMonth(p.t.app.services);
    const res = await p.partner.get('/partner/invoices');
    expect(res.status).toBe(200);
    expect(res.body.invoices).toHaveLength(1);
    // 4018 (2345 questions) + 17 501 (12 001 questions) = 21 519 cents.
    expect(res.body.invoices[0]).toEqual({
      id: expect.stringMatching(/^inv_/),
      month: '2026-10',
      status: 'open',
      sandbox: false,
      amountCents: 21_519,
      currency: 'EUR',
      lines: [
        { clientId: a.id, clientName: 'Alpha', questions: 2345, controls: 0, wholesaleCents: 4018 },
        { clientId: b.id, clientName: 'Bravo', questions: 12_001, controls: 0, wholesaleCents: 17_501 },
      ],
      createdAt: '2026-11-02T10:00:00.000Z',
      issuedAt: '2026-11-02T10:00:00.000Z',
      dueAt: '2026-11-16T10:00:00.000Z',
      paidAt: null,
      overdue: false,
    });
    // Nothing due: the invoice is settled as it is issued.
    const nothing = await api(p.t.baseUrl, quiet.key).get('/partner/invoices');
    expect(nothing.body.invoices).toEqual([expect.objectContaining({ month: '2026-10', status: 'paid', amountCents: 0, lines: [] })]);
    const status = (await p.partner.get('/partner/status')).body.partner;
    expect(status).toMatchObject({ overdue: false, overdueInvoiceId: null, unpaidAfter: '2026-11-23T10:00:00.000Z', paymentsConfigured: true });
  });
});

describe('unpaid cascade and payment through the hosted checkout', () => {
  it("past the grace period the clients' keys fail with 403 provider_unpaid, the integrator's keep working; paying restores them", async () => {
    const [invoice] = (await p.partner.get('/partner/invoices')).body.invoices;
    const clients = [a, b].map((c) => api(p.t.baseUrl, c.key));
    // Due 2026-11-16 10:00, grace 7 days: the keys fail from 2026-11-23 10:00.
    p.t.clock.set('2026-11-23T09:59:59.999Z');
    for (const c of clients) expect((await c.get('/v1/agents')).status).toBe(200);
    p.t.clock.set('2026-11-23T10:00:00.000Z');
    for (const c of clients) {
      const res = await c.get('/v1/agents');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String), code: 'provider_unpaid' });
    }
    expect((await clients[0].graphql('{ viewer { restricted } }')).errors?.[0].extensions.code).toBe('provider_unpaid');
    // The integrator's own keys keep working, and so does any other workspace.
    expect((await p.partner.get('/partner/status')).body.partner).toMatchObject({ overdue: true, overdueInvoiceId: invoice.id });
    expect((await api(p.t.baseUrl, p.integrator.key).get('/v1/agents')).status).toBe(200);
    const stranger = await p.t.tenant({ name: 'Unrelated' });
    expect((await api(p.t.baseUrl, stranger.key).get('/v1/agents')).status).toBe(200);
    // A client created meanwhile is unpaid as well.
    const late = await p.client('Late');
    expect((await api(p.t.baseUrl, late.key).get('/v1/agents')).body.code).toBe('provider_unpaid');
    expect((await p.partner.get('/partner/invoices')).body.invoices[0].overdue).toBe(true);

    // Payment: the checkout is created at the provider for this invoice's amount.
    const pay = await p.partner.post(`/partner/invoices/${invoice.id}/pay`);
    expect(pay.status).toBe(200);
    const session = stripe.sessions.get(pay.body.checkout.sessionId)!;
    expect(pay.body.checkout.url).toBe(session.url);
    expect(session).toMatchObject({ mode: 'payment', amount_total: 21_519, metadata: { invoiceId: invoice.id }, customer: expect.stringMatching(/^cus_/) });
    // Not paid yet: confirming changes nothing, whatever the query string says.
    const early = await p.partner.get(`/partner/invoices/${invoice.id}/confirm?session_id=${session.id}&paid=true`);
    expect(early.status).toBe(200);
    expect(early.body.invoice.status).toBe('open');
    expect((await clients[0].get('/v1/agents')).body.code).toBe('provider_unpaid');

    stripe.completeCheckout(session.id);
    p.t.clock.set('2026-11-23T11:00:00.000Z');
    const confirmed = await p.partner.get(`/partner/invoices/${invoice.id}/confirm`);
    expect(confirmed.body.invoice).toMatchObject({ status: 'paid', paidAt: '2026-11-23T11:00:00.000Z', overdue: false });
    for (const c of [...clients, api(p.t.baseUrl, late.key)]) expect((await c.get('/v1/agents')).status).toBe(200);
    // Confirming again: the same answer, nothing changes.
    p.t.clock.set('2026-11-23T12:00:00.000Z');
    const again = await p.partner.get(`/partner/invoices/${invoice.id}/confirm`);
    expect(again.body).toEqual(confirmed.body);
    // Paying a paid invoice is refused; an unknown invoice is a 404.
    const twice = await p.partner.post(`/partner/invoices/${invoice.id}/pay`);
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'invoice_not_payable', invoiceStatus: 'paid' });
    expect((await p.partner.post('/partner/invoices/inv_nope/pay')).status).toBe(404);
    expect((await p.partner.get('/partner/invoices/inv_nope/confirm')).status).toBe(404);
    expect((await p.partner.get('/partner/status')).body.partner).toMatchObject({ overdue: false, unpaidAfter: null });
  });

  it("settles an invoice from the provider's signed webhook, once, and refuses unsigned or forged events", async () => {
    await addQuestions(p.t, a.id, 100, '2026-11-20T08:00:00Z');
    p.t.clock.set('2026-12-01T00:05:00.000Z');
    await closeMonth(p.t.app.services);
    const invoice = (await p.partner.get('/partner/invoices')).body.invoices.find((i: { month: string }) => i.month === '2026-11');
    expect(invoice).toMatchObject({ status: 'open', amountCents: 200 });
    const pay = await p.partner.post(`/partner/invoices/${invoice.id}/pay`);
    const session = stripe.completeCheckout(pay.body.checkout.sessionId);

    const unsigned = await webhook(JSON.stringify({ type: 'checkout.session.completed', data: { object: session } }));
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ code: 'webhook_signature_invalid' });
    const forged = stripe.signedEvent('checkout.session.completed', session, 'whsec_not_the_secret');
    expect((await webhook(forged.body, forged.signature)).status).toBe(400);
    const tampered = stripe.signedEvent('checkout.session.completed', session);
    expect((await webhook(tampered.body.replace('"paid"', '"unpaid"'), tampered.signature)).status).toBe(400);
    expect((await p.partner.get('/partner/invoices')).body.invoices.find((i: { id: string }) => i.id === invoice.id).status).toBe('open');

    const event = stripe.signedEvent('checkout.session.completed', session);
    const delivered = await webhook(event.body, event.signature);
    expect(delivered.status).toBe(200);
    expect(await delivered.json()).toEqual({ received: true, type: 'checkout.session.completed' });
    const paid = (await p.partner.get('/partner/invoices')).body.invoices.find((i: { id: string }) => i.id === invoice.id);
    expect(paid).toMatchObject({ status: 'paid', paidAt: '2026-12-01T00:05:00.000Z' });
    // Delivered again (at least once): same effect.
    p.t.clock.set('2026-12-01T01:00:00.000Z');
    expect((await webhook(event.body, event.signature)).status).toBe(200);
    expect((await p.partner.get(`/partner/invoices/${invoice.id}/confirm`)).body.invoice).toEqual(paid);
  });
});

describe('automatic debit', () => {
  it('is set up through the hosted setup flow, confirmed idempotently, charges the next invoice, and is removed', async () => {
    const start = await p.partner.post('/partner/auto-debit');
    expect(start.status).toBe(200);
    const session = stripe.sessions.get(start.body.checkout.sessionId)!;
    expect(session).toMatchObject({ mode: 'setup', url: start.body.checkout.url, metadata: { partnerId: p.integrator.workspaceId } });
    // The customer made for the first checkout is reused.
    const customers = stripe.requests.filter((r) => r.path === '/v1/customers');
    expect(customers).toHaveLength(1);

    expect((await p.partner.get('/partner/auto-debit/confirm')).body.autoDebit).toEqual({ active: false, pending: true, since: null });
    stripe.completeCheckout(session.id);
    const confirmed = await p.partner.get('/partner/auto-debit/confirm');
    expect(confirmed.body.autoDebit).toEqual({ active: true, pending: false, since: p.t.clock.now().toISOString() });
    expect((await p.partner.get('/partner/auto-debit/confirm')).body).toEqual(confirmed.body);
    expect((await p.partner.get('/partner/status')).body.partner.autoDebit).toBe(true);

    // The next month-end charges the invoice off-session on the saved method.
    await addQuestions(p.t, a.id, 10, '2026-12-10T08:00:00Z');
    p.t.clock.set('2027-01-01T00:05:00.000Z');
    await closeMonth(p.t.app.services);
    const charge = stripe.requests.find((r) => r.path === '/v1/payment_intents')!;
    expect(charge.body).toMatchObject({ amount: '20', currency: 'eur', off_session: 'true', confirm: 'true', customer: session.customer });
    expect(charge.idempotencyKey).toMatch(/^invoice-inv_/);
    const december = (await p.partner.get('/partner/invoices')).body.invoices.find((i: { month: string }) => i.month === '2026-12');
    expect(december).toMatchObject({ status: 'paid', amountCents: 20, paidAt: '2027-01-01T00:05:00.000Z' });

    // A debit the provider settles later (SEPA): open until the signed payment_intent.succeeded event.
    stripe.intentStatus = 'processing';
    await addQuestions(p.t, a.id, 10, '2027-01-10T08:00:00Z');
    p.t.clock.set('2027-02-01T00:05:00.000Z');
    await closeMonth(p.t.app.services);
    const january = (await p.partner.get('/partner/invoices')).body.invoices.find((i: { month: string }) => i.month === '2027-01');
    expect(january.status).toBe('open');
    const intent = stripe.requests.filter((r) => r.path === '/v1/payment_intents')[1];
    const event = stripe.signedEvent('payment_intent.succeeded', { id: 'pi_later', object: 'payment_intent', amount: 20, status: 'succeeded', metadata: intent.body.metadata });
    expect((await webhook(event.body, event.signature)).status).toBe(200);
    expect((await p.partner.get('/partner/invoices')).body.invoices.find((i: { month: string }) => i.month === '2027-01').status).toBe('paid');

    expect((await p.partner.delete('/partner/auto-debit')).status).toBe(204);
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'POST', path: expect.stringMatching(/^\/v1\/payment_methods\/pm_.+\/detach$/) });
    expect((await p.partner.get('/partner/status')).body.partner.autoDebit).toBe(false);
    expect((await p.partner.delete('/partner/auto-debit')).status).toBe(204);
  });
});

describe('sandbox integrators', () => {
  it('get test clients and test invoices: a test checkout that never reaches the provider, never unpaid', async () => {
    const sandbox = await p.makeIntegrator({ sandbox: true, name: 'Sandbox integrator' });
    const s = api(p.t.baseUrl, sandbox.key);
    expect((await s.get('/partner/status')).body.partner).toMatchObject({ mode: 'sandbox' });
    const client = await s.post('/partner/clients', { name: 'Test client' });
    expect(client.body.client.sandbox).toBe(true);
    const key = await s.post(`/partner/clients/${client.body.client.id}/keys`, { scopes: ['agents'] });
    await addQuestions(p.t, client.body.client.id, 10, '2027-02-03T08:00:00Z');
    p.t.clock.set('2027-03-01T00:05:00.000Z');
    await closeMonth(p.t.app.services);
    const [invoice] = (await s.get('/partner/invoices')).body.invoices;
    expect(invoice).toMatchObject({ month: '2027-02', status: 'open', sandbox: true, amountCents: 20 });
    // Far past the grace period: the test client keeps working.
    p.t.clock.set('2027-06-01T00:00:00.000Z');
    expect((await api(p.t.baseUrl, key.body.key.secret).get('/v1/agents')).status).toBe(200);
    expect((await s.get('/partner/status')).body.partner.overdue).toBe(false);
    const before = stripe.requests.length;
    const pay = await s.post(`/partner/invoices/${invoice.id}/pay`);
    expect(pay.body.checkout.url).toContain(`/partner/invoices/${invoice.id}/confirm`);
    expect((await s.get(`/partner/invoices/${invoice.id}/confirm`)).body.invoice.status).toBe('paid');
    // Automatic debit in test mode as well.
    expect((await s.post('/partner/auto-debit')).status).toBe(200);
    expect((await s.get('/partner/auto-debit/confirm')).body.autoDebit.active).toBe(true);
    expect((await s.delete('/partner/auto-debit')).status).toBe(204);
    expect(stripe.requests.length).toBe(before);
  });
});

describe('without a payment provider', () => {
  it('answers 503 payments_not_configured (and the provider webhook is missing)', async () => {
    const bare = await startPartnerApp();
    try {
      await bare.client('Client');
      await addQuestions(bare.t, (await bare.partner.get('/partner/clients')).body.clients[0].id, 5, '2026-10-05T00:00:00Z');
      await closeMonth(bare.t.app.services);
      const [invoice] = (await bare.partner.get('/partner/invoices')).body.invoices;
      for (const res of [await bare.partner.post(`/partner/invoices/${invoice.id}/pay`), await bare.partner.post('/partner/auto-debit')]) {
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ code: 'payments_not_configured' });
      }
      const hook = await fetch(`${bare.t.baseUrl}/partner/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(hook.status).toBe(404);
      expect((await bare.partner.get('/partner/status')).body.partner.paymentsConfigured).toBe(false);
    } finally {
      await bare.close();
    }
  });
});
