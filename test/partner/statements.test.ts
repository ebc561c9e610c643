import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { addQuestions } from './ledger.js';
import { startPartnerApp, type PartnerApp } from './support.js';

let p: PartnerApp;
let a: { id: string; key: string };
let b: { id: string; key: string };
let odd: { id: string };

// The clock is at 2026-11-02 (ManualClock's default): "this month" is 2026-11, "last month" 2026-10.
beforeAll(async () => {
  p = await startPartnerApp();
  a = await p.client('Alpha');
  await p.partner.patch(`/partner/clients/${a.id}`, { seats: 3, seatRateCents: 1500, includedQuestionsPerSeat: 500, ratePer100Cents: 250 });
  await addQuestions(p.t, a.id, 2000, '2026-11-01T00:00:00Z');
  await addQuestions(p.t, a.id, 345, '2026-11-30T23:59:59.999Z');
  await addQuestions(p.t, a.id, 50, '2026-10-31T23:59:59.999Z');
  await addQuestions(p.t, a.id, 7, '2026-12-01T00:00:00Z');
  b = await p.client('Bravo');
  await addQuestions(p.t, b.id, 12_001, '2026-11-15T12:00:00Z');
  const created = await p.partner.post('/partner/clients', { name: '=HYPERLINK("x");Café "Le Zinc"' });
  odd = { id: created.body.client.id };
  await p.partner.patch(`/partner/clients/${odd.id}`, { seatRateCents: 1234567 });
});
afterAll(() => p?.close());

describe('usage and statements', () => {
  it('gives the statement of the current month by default, with hand-computed amounts in cents', async () => {
    const res = await p.partner.get(`/partner/clients/${a.id}/statement`);
    expect(res.status).toBe(200);
    // 2345 questions; seats 3 × 1500 = 4500; included 1500; billable 845 × 250 / 100 = 2112.5 → 2113; resale 6613;
    // wholesale (1000 × 200 + 1345 × 150) / 100 = 4017.5 → 4018; margin 6613 − 4018 = 2595.
    expect(res.body.statement).toEqual({
      clientId: a.id,
      clientName: 'Alpha',
      month: '2026-11',
      periodStart: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-12-01T00:00:00.000Z',
      currency: 'EUR',
      usage: { questions: 2345, answers: 2, controls: 0 },
      rates: { ratePer100Cents: 250, seatRateCents: 1500, includedQuestionsPerSeat: 500, seats: 3 },
      resale: { seatCents: 4500, includedQuestions: 1500, billableQuestions: 845, questionCents: 2113, totalCents: 6613 },
      controls: { count: 0, priceCents: 0 },
      wholesaleCents: 4018,
      marginCents: 2595,
    });
    // October: 50 questions, all included: resale 4500 (the seats); wholesale 50 × 2 = 100; margin 4400.
    const october = await p.partner.get(`/partner/clients/${a.id}/statement?month=2026-10`);
    expect(october.body.statement).toMatchObject({ month: '2026-10', usage: { questions: 50 }, resale: { totalCents: 4500 }, wholesaleCents: 100, marginCents: 4400 });
    // Without rates, reselling gives nothing and the margin is minus the wholesale: 12 001 questions → 17 501.
    const bravo = await p.partner.get(`/partner/clients/${b.id}/statement?month=2026-11`);
    expect(bravo.body.statement).toMatchObject({ resale: { totalCents: 0 }, wholesaleCents: 17_501, marginCents: -17_501 });
  });

  it('counts controls on the statement, unpriced, and gives the monthly usage by day', async () => {
    const proofKey = await p.partner.post(`/partner/clients/${a.id}/keys`, { scopes: ['proof'] });
    const verified = await api(p.t.baseUrl, proofKey.body.key.secret).post('/v1/verify', {
      text: 'The invoice total is 120 euros.',
      passages: [{ source: 'invoice.pdf', content: 'The invoice total is 120 euros.' }],
    });
    expect(verified.status).toBe(201);
    const statement = (await p.partner.get(`/partner/clients/${a.id}/statement`)).body.statement;
    expect(statement.controls).toEqual({ count: 1, priceCents: 0 });
    expect(statement.usage).toEqual({ questions: 2345, answers: 2, controls: 1 });
    expect(statement.resale.totalCents).toBe(6613);

    const usage = await p.partner.get(`/partner/clients/${a.id}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.body.usage).toMatchObject({ clientId: a.id, month: '2026-11', questions: 2345, answers: 2, controls: 1 });
    expect(usage.body.usage.byDay).toEqual(
      expect.arrayContaining([
        { date: '2026-11-01', questions: 2000, answers: 1, controls: 0 },
        { date: '2026-11-30', questions: 345, answers: 1, controls: 0 },
      ]),
    );
    expect((await p.partner.get(`/partner/clients/${a.id}/usage?month=2026-10`)).body.usage).toMatchObject({ questions: 50, controls: 0 });
    // The client list shows this month's usage.
    const listed = (await p.partner.get('/partner/clients')).body.clients.find((c: { id: string }) => c.id === a.id);
    expect(listed.usage).toEqual({ month: '2026-11', questions: 2345, controls: 1 });
  });

  it('answers 400 for a malformed month and 404 for a workspace that is not a client', async () => {
    for (const path of [`/partner/clients/${a.id}/usage`, `/partner/clients/${a.id}/statement`, '/partner/usage.csv', '/partner/wholesale']) {
      for (const month of ['2026-13', '2026-1', 'abc', '2026-00']) {
        const res = await p.partner.get(`${path}?month=${month}`);
        expect(res.status, `${path} ${month}`).toBe(400);
        expect(res.body.field).toBe('month');
      }
    }
    const stranger = await p.t.tenant({ name: 'Stranger' });
    // A month out of the calendar the service keeps (years 1900 to 2999): 400 naming it, never a 500 (9999-12
    // ended in year 10000) nor another month than asked (0000-01 read as 1900-01).
    for (const path of [`/partner/clients/${a.id}/usage`, `/partner/clients/${a.id}/statement`, '/partner/usage.csv', '/partner/wholesale']) {
      for (const month of ['0000-01', '0099-12', '1899-12', '3000-01', '9999-12']) {
        const res = await p.partner.get(`${path}?month=${month}`);
        expect(res.status, `${path} ${month}`).toBe(400);
        expect(res.body).toEqual({ error: 'month must be in the form YYYY-MM (years 1900 to 2999)', field: 'month' });
      }
    }
    expect((await p.partner.put(`/partner/clients/${a.id}/payments/0000-01`, { paid: true })).body.field).toBe('month');
    expect((await p.partner.get(`/partner/clients/${a.id}/statement?month=2999-12`)).body.statement.periodEnd).toBe('3000-01-01T00:00:00.000Z');
    for (const path of ['usage', 'statement', 'payments']) {
      expect((await p.partner.get(`/partner/clients/${stranger.workspaceId}/${path}`)).status).toBe(404);
    }
  });
});

describe('payments ledger', () => {
  it('lists the last months newest first (default 6, 1 to 24) with the resale due', async () => {
    const res = await p.partner.get(`/partner/clients/${a.id}/payments`);
    expect(res.status).toBe(200);
    expect(res.body.payments.map((x: { month: string }) => x.month)).toEqual(['2026-11', '2026-10', '2026-09', '2026-08', '2026-07', '2026-06']);
    expect(res.body.payments[0]).toEqual({ month: '2026-11', paid: false, amountCents: null, dueCents: 6613, updatedAt: null });
    expect(res.body.payments[1]).toMatchObject({ month: '2026-10', dueCents: 4500 });
    expect((await p.partner.get(`/partner/clients/${a.id}/payments?months=24`)).body.payments).toHaveLength(24);
    expect((await p.partner.get(`/partner/clients/${a.id}/payments?months=1`)).body.payments).toHaveLength(1);
    for (const months of ['0', '25', 'abc', '1.5', '-1', '']) {
      const bad = await p.partner.get(`/partner/clients/${a.id}/payments?months=${months}`);
      expect(bad.status, months).toBe(400);
      expect(bad.body.field).toBe('months');
    }
  });

  it('records a month paid or not, refuses a future month and malformed bodies', async () => {
    const put = await p.partner.put(`/partner/clients/${a.id}/payments/2026-10`, { paid: true, amountCents: 4500 });
    expect(put.status).toBe(200);
    expect(put.body.payment).toEqual({ month: '2026-10', paid: true, amountCents: 4500, dueCents: 4500, updatedAt: p.t.clock.now().toISOString() });
    // The current month may be recorded; recording again replaces.
    expect((await p.partner.put(`/partner/clients/${a.id}/payments/2026-11`, { paid: true })).body.payment).toMatchObject({ paid: true, amountCents: null });
    expect((await p.partner.put(`/partner/clients/${a.id}/payments/2026-11`, { paid: false })).body.payment).toMatchObject({ paid: false });
    const ledger = (await p.partner.get(`/partner/clients/${a.id}/payments?months=2`)).body.payments;
    expect(ledger.map((x: { month: string; paid: boolean }) => [x.month, x.paid])).toEqual([
      ['2026-11', false],
      ['2026-10', true],
    ]);
    for (const [month, body, field] of [
      ['2026-12', { paid: true }, 'month'],
      ['2030-01', { paid: true }, 'month'],
      ['2026-13', { paid: true }, 'month'],
      ['october', { paid: true }, 'month'],
      ['2026-09', {}, 'paid'],
      ['2026-09', { paid: 'yes' }, 'paid'],
      ['2026-09', { paid: true, amountCents: -1 }, 'amountCents'],
      ['2026-09', { paid: true, amountCents: 10.5 }, 'amountCents'],
      ['2026-09', { paid: true, amountCents: '100' }, 'amountCents'],
    ] as const) {
      const res = await p.partner.put(`/partner/clients/${a.id}/payments/${month}`, body);
      expect(res.status, `${month} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.field).toBe(field);
    }
    expect((await p.partner.get(`/partner/clients/${a.id}/payments?months=3`)).body.payments[2]).toMatchObject({ month: '2026-09', paid: false, updatedAt: null });
    expect((await p.partner.put('/partner/clients/ws_nope/payments/2026-10', { paid: true })).status).toBe(404);
  });
});

describe('usage.csv', () => {
  it('is semicolon-separated UTF-8 with a byte-order mark, one line per client after the header, and parses back', async () => {
    const res = await fetch(`${p.t.baseUrl}/partner/usage.csv?month=2026-11`, { headers: { authorization: `Bearer ${p.partnerKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text).toContain('\r\n');
    const rows: string[][] = parse(bytes, { bom: true, delimiter: ';' });
    expect(rows[0]).toEqual(['month', 'client_id', 'client_name', 'seats', 'questions', 'controls', 'resale_eur', 'wholesale_eur', 'margin_eur', 'paid', 'paid_amount_eur']);
    expect(rows).toHaveLength(4);
    const byId = new Map(rows.slice(1).map((r) => [r[1], r]));
    expect(byId.get(a.id)).toEqual(['2026-11', a.id, 'Alpha', '3', '2345', '1', '66,13', '40,18', '25,95', 'no', '']);
    expect(byId.get(b.id)).toEqual(['2026-11', b.id, 'Bravo', '1', '12001', '0', '0,00', '175,01', '-175,01', 'no', '']);
    // Semicolons, quotes and accents survive; a name a spreadsheet would run as a formula is defused.
    expect(byId.get(odd.id)!.slice(2, 7)).toEqual(['\'=HYPERLINK("x");Café "Le Zinc"', '1', '0', '0', '12345,67']);
  });

  it('defaults to last month and shows what was recorded as paid', async () => {
    await p.partner.put(`/partner/clients/${a.id}/payments/2026-10`, { paid: true, amountCents: 4500 });
    const res = await fetch(`${p.t.baseUrl}/partner/usage.csv`, { headers: { authorization: `Bearer ${p.partnerKey}` } });
    const rows: string[][] = parse(Buffer.from(await res.arrayBuffer()), { bom: true, delimiter: ';' });
    const alpha = rows.find((r) => r[1] === a.id)!;
    expect(alpha).toEqual(['2026-10', a.id, 'Alpha', '3', '50', '0', '45,00', '1,00', '44,00', 'yes', '45,00']);
    // Another integrator's CSV has only the header.
    const other = await p.makeIntegrator({ name: 'Empty integrator' });
    const empty = await fetch(`${p.t.baseUrl}/partner/usage.csv`, { headers: { authorization: `Bearer ${other.key}` } });
    expect(parse(Buffer.from(await empty.arrayBuffer()), { bom: true, delimiter: ';' })).toHaveLength(1);
  });
});

describe('wholesale', () => {
  it('gives the wholesale amount of each client and the total, with the grid', async () => {
    const res = await p.partner.get('/partner/wholesale?month=2026-11');
    expect(res.status).toBe(200);
    const w = res.body.wholesale;
    expect(w.month).toBe('2026-11');
    expect(w.grid).toEqual([
      { upToQuestions: 1000, centsPer100: 200 },
      { upToQuestions: 10000, centsPer100: 150 },
      { upToQuestions: null, centsPer100: 100 },
    ]);
    expect(w.clients.find((c: { clientId: string }) => c.clientId === a.id)).toEqual({ clientId: a.id, clientName: 'Alpha', questions: 2345, controls: 1, wholesaleCents: 4018 });
    expect(w.totalCents).toBe(4018 + 17_501);
    expect((await p.partner.get('/partner/wholesale')).body.wholesale.month).toBe('2026-11');
  });
});
