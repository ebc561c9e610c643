import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { exhaustAllowance, startGateway, type GatewayHarness } from '../support/gateway.js';

let h: GatewayHarness;
let a: TestTenant;

beforeAll(async () => {
  h = await startGateway({ SVC_RATE_GATEWAY: '2' });
  a = await h.t.tenant();
});
afterAll(() => h.close());

describe('route-level ceiling of the gateway (SVC_RATE_GATEWAY per minute, each route apart)', () => {
  it('429 past the ceiling in the route-level body, on both dialects; the next minute opens again', async () => {
    const chat = () => api(h.t.baseUrl, a.key).post('/v1/chat/completions', { model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] });
    const messages = () => api(h.t.baseUrl, a.key).post('/v1/messages', { model: 'svc-auto', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    h.t.clock.set('2026-11-02T10:00:05.000Z');
    for (const call of [chat, messages]) {
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      const refused = await call();
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ message: expect.any(String), limitPerMinute: 2 });
      expect(refused.headers.get('x-svc-proof')).toBeNull();
    }
    // count_tokens runs no model: not under the ceiling.
    for (let i = 0; i < 3; i++) {
      const counted = await api(h.t.baseUrl, a.key).post('/v1/messages/count_tokens', { model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] });
      expect(counted.status).toBe(200);
    }
    h.t.clock.advance(60_000);
    expect((await chat()).status).toBe(200);
  });
});

/** The rate counters of a workspace's route bucket and of a key's own rate, as stored. */
async function counts(h: GatewayHarness, buckets: string[]): Promise<Record<string, number>> {
  const rows = await h.t.app.services.orm.em
    .fork()
    .getConnection()
    .execute<{ bucket: string; count: number }[]>('select bucket, count from rate_counter where bucket in (?)', [buckets]);
  return Object.fromEntries(buckets.map((b) => [b, Number(rows.find((r: { bucket: string; count: number }) => r.bucket === b)?.count ?? 0)]));
}

const CHAT_ROUTE = 'route:POST /v1/chat/completions:ws:';
const ask = { model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] };

describe('rates counted with the admission (issue 28: svc_rate_admit, one statement)', () => {
  it('a key\'s ratePerMinute refuses with 429 on the gateway; concurrent calls pass exactly as many as both rates allow', async () => {
    const b = await h.t.tenant();
    const limited = await h.t.key(b, { ratePerMinute: 5 });
    h.t.clock.set('2026-11-02T11:00:05.000Z');
    const results = await Promise.all(Array.from({ length: 8 }, () => api(h.t.baseUrl, limited).post('/v1/chat/completions', ask)));
    const statuses = results.map((r) => r.status);
    // the route ceiling (2 per minute per workspace) lets two through; the key's rate (5) refuses the rest first or not
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const keyBucket = (await h.t.app.services.orm.em.fork().getConnection().execute<{ id: string }[]>(
      'select id from api_key where workspace_id = ? and rate_per_minute = 5', [b.workspaceId],
    ))[0].id;
    // what the route refused gave back the key's count: the key counted only the calls that passed both
    expect(await counts(h, [`key:${keyBucket}`, `${CHAT_ROUTE}${b.workspaceId}`])).toEqual({ [`key:${keyBucket}`]: 2, [`${CHAT_ROUTE}${b.workspaceId}`]: 2 });
    // holds: none left behind by the refused calls
    const holds = await h.t.app.services.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from question_hold where workspace_id = ?', [b.workspaceId]);
    expect(holds[0].n).toBe(0);
  });

  it('past the rate, 429 comes before every later refusal: read-only key (403), bad body (400), unknown agent (404), no allowance (402)', async () => {
    const c = await h.t.tenant();
    h.t.clock.set('2026-11-02T12:00:05.000Z');
    const post = (body: unknown, key = c.key) => api(h.t.baseUrl, key).post('/v1/chat/completions', body);
    // the refusals count against the rate as any request does
    const readonly = await h.t.key(c, { readonly: true });
    expect((await post(ask, readonly)).status).toBe(403);
    expect((await post({ model: 'svc-auto' })).status).toBe(400);
    expect(await counts(h, [`${CHAT_ROUTE}${c.workspaceId}`])).toEqual({ [`${CHAT_ROUTE}${c.workspaceId}`]: 2 });
    expect((await post(ask, readonly)).status).toBe(429);
    expect((await post({ model: 'svc-auto' })).status).toBe(429);
    expect((await post({ model: 'agent:nobody', messages: [{ role: 'user', content: 'x' }] })).status).toBe(429);
    await exhaustAllowance(h.t, c);
    expect((await post(ask)).status).toBe(429);
    // the next minute: each refusal is its own again, the 402 consumes nothing but its count
    h.t.clock.advance(60_000);
    expect((await post(ask)).status).toBe(402);
    expect((await post({ model: 'agent:nobody', messages: [{ role: 'user', content: 'x' }] })).status).toBe(404);
    expect((await post(ask)).status).toBe(429);
    const holds = await h.t.app.services.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from question_hold where workspace_id = ?', [c.workspaceId]);
    expect(holds[0].n).toBe(0);
  });
});

