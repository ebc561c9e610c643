/**
 * Inbound flow hooks (`POST /engine/hooks/:flowId`, issue 25 "Every way in is limited"), over real HTTP,
 * signed by the official `standardwebhooks` library as a sender would: the timestamp and the id are signed
 * with the body, a timestamp outside 5 minutes and an id already seen are refused, the former body-only
 * `X-Svc-Signature` is no longer enough, and the route is limited per client address (before the
 * signature is checked) and per flow (after). The clock is the app's ManualClock.
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepHookMessages } from '../../src/modules/flows/inbound.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let a: TestTenant;
let minute = 0;
let n = 0;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_RATE_HOOK_ADDRESS: '5', SVC_RATE_HOOK_FLOW: '3' } });
  a = await t.tenant();
});
afterAll(() => t?.close());
// Each test in a fresh calendar minute, 20 s into it: retry-after is 40 s.
beforeEach(() => t.clock.set(new Date(Date.UTC(2026, 10, 3, 9, (minute += 2), 20))));

async function enabledFlow(): Promise<{ id: string; secret: string }> {
  const c = api(t.baseUrl, a.key);
  const graph = { nodes: [{ key: 'hook', type: 'trigger.webhook' }, { key: 'echo', type: 'transform', config: { template: '{{input.order}}' } }], edges: [{ from: 'hook', to: 'echo' }] };
  const created = await c.post('/engine/flows', { name: `Hook ${++n}`, graph });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await c.patch(`/engine/flows/${created.body.flow.id}`, { enabled: true })).status).toBe(200);
  return { id: created.body.flow.id, secret: created.body.webhookSecret };
}

const BODY = JSON.stringify({ order: 'A-17' });

/** The three Standard Webhooks headers, signed at `at` (default: the server's clock) by the official library. */
function signed(secret: string, opts: { id?: string; at?: Date; body?: string } = {}): Record<string, string> {
  const id = opts.id ?? `msg_${++n}`;
  const at = opts.at ?? t.clock.now();
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret, { format: 'raw' }).sign(id, at, opts.body ?? BODY),
  };
}

async function post(flowId: string, headers: Record<string, string>, ip = '198.51.100.1') {
  const res = await fetch(`${t.baseUrl}/engine/hooks/${flowId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...headers },
    body: BODY,
  });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as Record<string, unknown> };
}

const runsOf = async (flowId: string) => (await api(t.baseUrl, a.key).get(`/engine/flows/${flowId}/runs`)).body.runs as unknown[];

describe('POST /engine/hooks/:flowId', () => {
  it('starts one run per webhook-id: the same delivery again is refused with the run it started', async () => {
    const { id, secret } = await enabledFlow();
    const headers = signed(secret);
    const first = await post(id, headers, '198.51.100.10');
    expect(first.status).toBe(202);
    const replay = await post(id, headers, '198.51.100.11');
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ code: 'webhook_replayed', runId: first.body.runId });
    expect(await runsOf(id)).toHaveLength(1);
  });

  it('refuses a timestamp outside 5 minutes either way, signed or not; inside the window it is accepted', async () => {
    const { id, secret } = await enabledFlow();
    const now = t.clock.now().getTime();
    for (const offset of [-6 * 60_000, 6 * 60_000]) {
      const res = await post(id, signed(secret, { at: new Date(now + offset) }), '198.51.100.20');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'invalid_signature' });
      expect(String(res.body.error)).toContain('5-minute window');
    }
    expect((await post(id, signed(secret, { at: new Date(now - 4 * 60_000) }), '198.51.100.21')).status).toBe(202);
    expect(await runsOf(id)).toHaveLength(1);
  });

  it('no longer accepts the body-only X-Svc-Signature, nor a signature whose id or timestamp was changed', async () => {
    const { id, secret } = await enabledFlow();
    const legacy = `sha256=${createHmac('sha256', secret).update(BODY).digest('hex')}`;
    const good = signed(secret);
    const seconds = Number(good['webhook-timestamp']);
    const attempts: Record<string, string>[] = [{ 'x-svc-signature': legacy }, { ...good, 'webhook-id': 'msg_changed' }, { ...good, 'webhook-timestamp': String(seconds - 1) }];
    for (const headers of attempts) {
      const res = await post(id, headers, '198.51.100.30');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_signature');
    }
    expect(await runsOf(id)).toHaveLength(0);
  });

  it('is limited per flow once the signature is checked, whatever the address; other flows are not', async () => {
    const { id, secret } = await enabledFlow();
    for (let i = 0; i < 3; i++) expect((await post(id, signed(secret), `203.0.113.${i + 1}`)).status).toBe(202);
    const refused = await post(id, signed(secret), '203.0.113.9');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ route: 'POST /engine/hooks/:flowId', limitPerMinute: 3 });
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(await runsOf(id)).toHaveLength(3);
    const other = await enabledFlow();
    expect((await post(other.id, signed(other.secret), '203.0.113.10')).status).toBe(202);
    // A new minute: the flow is accepted again.
    t.clock.advance(60_000);
    expect((await post(id, signed(secret), '203.0.113.11')).status).toBe(202);
  });

  it('is limited per address before anything is checked: bad signatures count, and then a good one is refused', async () => {
    const { id, secret } = await enabledFlow();
    for (let i = 0; i < 5; i++) expect((await post(id, { 'webhook-id': 'x', 'webhook-timestamp': '1', 'webhook-signature': 'v1,AA' }, '192.0.2.7')).status).toBe(401);
    const refused = await post(id, signed(secret), '192.0.2.7');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ route: 'POST /engine/hooks/:flowId', limitPerMinute: 5 });
    expect(Number(refused.headers.get('retry-after'))).toBe(40);
    expect((await post(id, signed(secret), '192.0.2.8')).status).toBe(202);
    expect(await runsOf(id)).toHaveLength(1);
  });

  it('sweeps the ids once their timestamp is outside the window: a replay after that is refused by the timestamp', async () => {
    const { id, secret } = await enabledFlow();
    const headers = signed(secret);
    expect((await post(id, headers, '192.0.2.40')).status).toBe(202);
    expect(await sweepHookMessages(t.app.services)).toBe(0);
    t.clock.advance(11 * 60_000);
    expect(await sweepHookMessages(t.app.services)).toBeGreaterThanOrEqual(1);
    const late = await post(id, headers, '192.0.2.41');
    expect(late.status).toBe(401);
    expect(await runsOf(id)).toHaveLength(1);
  });
});
