import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDueDeliveries } from '../../src/modules/webhooks/dispatcher.js';
import { runStaleWatch } from '../../src/modules/knowledge/stale-watch.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { fixtures, ingest } from '../support/knowledge.js';

const KNOWLEDGE_EVENTS = ['source.ingested', 'source.failed', 'knowledge.contradiction_detected', 'knowledge.stale'];

let t: TestApp;
let receiver: WebhookReceiver;
let tenant: TestTenant;
let path: string;
let counter = 0;

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/** Each test: a fresh workspace whose user has an endpoint on its own receiver path, subscribed to the knowledge events. */
beforeEach(async () => {
  t.clock.set('2026-11-02T10:00:00.000Z');
  tenant = await t.tenant();
  path = await endpointFor(tenant);
});

async function endpointFor(owner: TestTenant): Promise<string> {
  const p = `/knowledge-${++counter}`;
  const res = await api(t.baseUrl, owner.key).post('/v1/webhooks', { url: receiver.url(p), events: KNOWLEDGE_EVENTS });
  expect(res.status).toBe(201);
  receiver.secret(p, res.body.webhook.secret);
  return p;
}

/** Runs the first delivery attempts and returns what the receiver got on `p`, as [event, payload]. */
async function received(p = path): Promise<[string, Record<string, any>][]> {
  await runDueDeliveries(t.app.services, t.clock.now());
  return receiver.requestsTo(p).map((r) => {
    expect(r.signatureValid).toBe(true);
    return [String(r.headers['x-svc-event']), JSON.parse(r.body)];
  });
}

const text = (s: string) => Buffer.from(s, 'utf8');

describe('source.ingested and source.failed', () => {
  it('source.ingested carries the integer counts, to the uploader only', async () => {
    const colleague = await t.user(tenant.workspaceId);
    const colleaguePath = await endpointFor(colleague);
    const source = await ingest(
      t,
      tenant,
      text('# FAQ\n\nHow do I reset my password? Open the settings page and choose Reset.\n\nThe support fee is 20 EUR.'),
      'faq.md',
    );
    const events = await received();
    expect(events).toEqual([
      [
        'source.ingested',
        {
          sourceId: source.id,
          name: 'faq.md',
          chunkCount: source.chunkCount,
          factCount: source.factCount,
          contradictionCount: 0,
          qaCount: source.qaCount,
        },
      ],
    ]);
    expect(source.qaCount).toBe(1);
    expect(source.factCount).toBe(1);
    for (const v of Object.values(events[0][1]).filter((v) => typeof v === 'number')) expect(Number.isInteger(v)).toBe(true);
    expect(receiver.requestsTo(colleaguePath)).toHaveLength(0);
  });

  it('source.failed carries the reason, and no document text', async () => {
    const source = await ingest(t, tenant, fixtures.png(), 'scan.png');
    const events = await received();
    expect(events).toEqual([['source.failed', { sourceId: source.id, name: 'scan.png', error: source.error }]]);
    expect(source.error).toMatch(/Unsupported file type/);
  });
});

describe('contradictions', () => {
  it('a new fact contradicting an existing fact is recorded and published with its severity', async () => {
    const first = await ingest(t, tenant, text('Pricing\n\nThe service fee is 120 EUR.\nThe support line is open on weekdays.'), 'prices-2025.txt');
    const second = await ingest(t, tenant, text('Pricing\n\nThe service fee is 150 EUR.\nThe support line is open on weekdays.'), 'prices-2026.txt');
    expect(second.contradictionCount).toBe(1);
    const events = await received();
    const contradiction = events.find(([name]) => name === 'knowledge.contradiction_detected')!;
    expect(contradiction[1]).toEqual({
      contradictionId: expect.stringMatching(/^kcon_/),
      severity: 'high',
      newFact: { id: expect.stringMatching(/^kfct_/), source: 'prices-2026.txt' },
      existingFact: { id: expect.stringMatching(/^kfct_/), source: 'prices-2025.txt' },
    });
    // Deliveries run concurrently (docs/webhooks.md): their arrival order is not their events' order.
    const ingested = events
      .filter(([name]) => name === 'source.ingested')
      .map(([, p]) => [p.sourceId, p.contradictionCount])
      .sort((a, b) => a[1] - b[1]);
    expect(ingested).toEqual([
      [first.id, 0],
      [second.id, 1],
    ]);
    const rows = await t.app.services.orm.em
      .fork()
      .execute(
        `select n.id as new_id, n.source_id as new_source, n.value, e.id as old_id, e.source_id as old_source
           from knowledge_contradiction c join knowledge_fact n on n.id = c.new_fact_id join knowledge_fact e on e.id = c.existing_fact_id
          where c.id = ?`,
        [contradiction[1].contradictionId],
      );
    expect(rows[0]).toEqual({
      new_id: contradiction[1].newFact.id,
      new_source: second.id,
      value: '150 EUR',
      old_id: contradiction[1].existingFact.id,
      old_source: first.id,
    });
  });

  it('the same value written differently is not a contradiction; wording differences are medium; expired facts low', async () => {
    await ingest(t, tenant, text('The service fee is 120 EUR.\nThe office is in Lyon.\nThe promo code is SPRING, valid until 2026-03-01.'), 'a.txt');
    const same = await ingest(t, tenant, text('The service fee is €120.'), 'b.txt');
    expect(same.contradictionCount).toBe(0);
    const wording = await ingest(t, tenant, text('The office is in Paris.'), 'c.txt');
    expect(wording.contradictionCount).toBe(1);
    const expired = await ingest(t, tenant, text('The promo code is SUMMER.'), 'd.txt');
    expect(expired.contradictionCount).toBe(1);
    const severities = (await received()).filter(([name]) => name === 'knowledge.contradiction_detected').map(([, p]) => p.severity);
    // Deliveries run concurrently: arrival order is not the events' order.
    expect(severities.sort()).toEqual(['low', 'medium']);
  });

  it('facts of other workspaces never contradict', async () => {
    const other = await t.tenant();
    await ingest(t, other, text('The service fee is 999 EUR.'), 'other.txt');
    const mine = await ingest(t, tenant, text('The service fee is 120 EUR.'), 'mine.txt');
    expect(mine.contradictionCount).toBe(0);
  });
});

describe('knowledge.stale', () => {
  // The watch covers every workspace: stale facts left by earlier tests are reported first.
  beforeEach(() => runStaleWatch(t.app.services, new Date('2027-01-01T00:00:00.000Z')).then(() => undefined));

  it('reports facts past their validity date once, with an injectable clock', async () => {
    const source = await ingest(t, tenant, text('The promo code is SPRING, valid until 2026-11-30.\nThe hotel cap is 150 EUR.'), 'promo.txt');
    expect(await runStaleWatch(t.app.services, t.clock.now())).toEqual({ events: 0, facts: 0 });
    t.clock.set('2026-11-30T23:00:00.000Z'); // still valid through its last day
    expect(await runStaleWatch(t.app.services, t.clock.now())).toEqual({ events: 0, facts: 0 });
    t.clock.set('2026-12-01T03:00:00.000Z');
    expect(await runStaleWatch(t.app.services, t.clock.now())).toEqual({ events: 1, facts: 1 });
    const stale = (await received()).filter(([name]) => name === 'knowledge.stale');
    expect(stale).toEqual([
      ['knowledge.stale', { count: 1, facts: [{ id: expect.stringMatching(/^kfct_/), source: 'promo.txt', validUntil: '2026-11-30' }] }],
    ]);
    const [fact] = await t.app.services.orm.em.fork().execute(`select source_id, value from knowledge_fact where id = ?`, [stale[0][1].facts[0].id]);
    expect(fact).toEqual({ source_id: source.id, value: 'SPRING' });
    expect(await runStaleWatch(t.app.services, t.clock.now())).toEqual({ events: 0, facts: 0 });
  });

  it('lists at most 20 facts, the earliest first, and counts them all', async () => {
    const lines = Array.from({ length: 25 }, (_, i) => `Offer ${String(i + 1).padStart(2, '0')} is open, valid until 2026-10-${String(i + 1).padStart(2, '0')}.`);
    await ingest(t, tenant, text(lines.join('\n')), 'offers.txt');
    await runStaleWatch(t.app.services, t.clock.now());
    const [[, payload]] = (await received()).filter(([name]) => name === 'knowledge.stale');
    expect(payload.count).toBe(25);
    expect(payload.facts).toHaveLength(20);
    expect(payload.facts[0].validUntil).toBe('2026-10-01');
    expect(payload.facts[19].validUntil).toBe('2026-10-20');
    for (const fact of payload.facts) expect(Object.keys(fact).sort()).toEqual(['id', 'source', 'validUntil']);
  });
});
