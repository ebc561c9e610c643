import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepRateCounters } from '../../src/modules/usage/rate-limit.service.js';
import { api, type ApiResponse } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startMeteringRoutes, type MeteringRoutes } from '../support/metering.js';
import { persona } from '../support/agents.js';

let t: TestApp;
let routes: MeteringRoutes;
let a: TestTenant;
const START = '2026-11-02T10:00:17.250Z'; // 42.75 s left in the minute: retry-after 43

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_RATE_AGENT_CHAT: '3', SVC_RATE_GATEWAY: '4', SVC_RATE_UPLOAD: '2' } });
  routes = await startMeteringRoutes(t);
  a = await t.tenant();
});
afterAll(async () => {
  await routes?.close();
  await t?.close();
});
beforeEach(() => t.clock.set(START));

const statuses = (rs: ApiResponse[]) => rs.map((r) => r.status).sort();
const count = (rs: ApiResponse[], status: number) => rs.filter((r) => r.status === status).length;

describe('per-key ratePerMinute (calendar minute, counted in PostgreSQL)', () => {
  it('50 simultaneous requests on a key with ratePerMinute 10: exactly 10 succeed, 40 get 429 with a valid retry-after', async () => {
    const key = await t.key(a, { ratePerMinute: 10 });
    const c = api(t.baseUrl, key);
    const results = await Promise.all(Array.from({ length: 50 }, () => c.get('/v1/agents')));
    expect(count(results, 200)).toBe(10);
    expect(count(results, 429)).toBe(40);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.headers.get('retry-after')).toBe('43');
      expect(r.body).toEqual({ error: expect.any(String), code: 'rate_limited' });
    }
  });

  it('retry-after holds the whole seconds left (1 to 60); the next calendar minute starts afresh', async () => {
    const key = await t.key(a, { ratePerMinute: 2 });
    const c = api(t.baseUrl, key);
    t.clock.set('2026-11-02T10:05:00.000Z');
    expect((await c.get('/v1/agents')).status).toBe(200);
    expect((await c.get('/v1/agents')).status).toBe(200);
    const at0 = await c.get('/v1/agents');
    expect([at0.status, at0.headers.get('retry-after')]).toEqual([429, '60']);
    t.clock.set('2026-11-02T10:05:59.001Z');
    const at59 = await c.get('/v1/agents');
    expect([at59.status, at59.headers.get('retry-after')]).toEqual([429, '1']);
    t.clock.set('2026-11-02T10:06:00.000Z');
    expect(statuses([await c.get('/v1/agents'), await c.get('/v1/agents'), await c.get('/v1/agents')])).toEqual([200, 200, 429]);
  });

  it('a key without ratePerMinute has no per-key limit', async () => {
    const c = api(t.baseUrl, a.key);
    const results = await Promise.all(Array.from({ length: 40 }, () => c.get('/v1/agents')));
    expect(count(results, 200)).toBe(40);
  });

  it('a refused request runs nothing', async () => {
    const key = await t.key(a, { ratePerMinute: 1 });
    const c = api(t.baseUrl, key);
    expect((await c.post('/v1/agents', persona('R'))).status).toBe(201);
    const before = (await api(t.baseUrl, a.key).get('/v1/agents')).body.agents.length;
    expect((await c.post('/v1/agents', persona('R'))).status).toBe(429);
    expect((await api(t.baseUrl, a.key).get('/v1/agents')).body.agents.length).toBe(before);
  });

  it('applies to GraphQL too, one request per root field', async () => {
    const key = await t.key(a, { ratePerMinute: 3 });
    const c = api(t.baseUrl, key);
    expect((await c.graphql('{ viewer { userId } agents { id } }')).errors).toBeUndefined();
    expect((await c.graphql('{ viewer { userId } }')).errors).toBeUndefined();
    const refused = await c.graphql('{ viewer { userId } }');
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'rate_limited', status: 429, retryAfter: expect.any(Number) });
  });
});

describe('route-level ceilings (config.routeRates), independent of the key', () => {
  it('agent chat routes count per client (key); the body is not a catalogue shape', async () => {
    const b = await t.tenant();
    const k1 = api(routes.baseUrl, b.key);
    const k2 = api(routes.baseUrl, await t.key(b));
    const first = await Promise.all(Array.from({ length: 5 }, () => k1.post('/test/agent-chat')));
    expect(statuses(first)).toEqual([200, 200, 200, 429, 429]);
    const refused = first.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ message: 'Too many requests', route: 'POST /test/agent-chat', limitPerMinute: 3 });
    expect(statuses(await Promise.all(Array.from({ length: 4 }, () => k2.post('/test/agent-chat'))))).toEqual([200, 200, 200, 429]);
    t.clock.set('2026-11-02T10:01:00.000Z');
    expect((await k1.post('/test/agent-chat')).status).toBe(200);
  });

  it('other limited routes count per workspace and per route, whatever the dialect', async () => {
    const b = await t.tenant();
    const k1 = api(routes.baseUrl, b.key);
    const k2 = api(routes.baseUrl, await t.key(b));
    expect(statuses([await k1.post('/test/gateway'), await k2.post('/test/gateway'), await k1.post('/test/gateway'), await k2.post('/test/gateway')])).toEqual([200, 200, 200, 200]);
    const over = await k2.post('/test/gateway');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ message: 'Too many requests', route: 'POST /test/gateway', limitPerMinute: 4 });
    // Another route and another workspace have their own counts.
    expect((await k1.post('/test/gateway-2')).status).toBe(200);
    const c = await t.tenant();
    expect((await api(routes.baseUrl, c.key).post('/test/gateway')).status).toBe(200);
  });

  it('a request refused by the route ceiling gives its per-key count back', async () => {
    const key = await t.key(a, { ratePerMinute: 5 });
    const m = api(routes.baseUrl, key);
    expect(statuses(await Promise.all(Array.from({ length: 5 }, () => m.post('/test/upload'))))).toEqual([200, 200, 429, 429, 429]);
    const c = api(t.baseUrl, key);
    expect(statuses(await Promise.all(Array.from({ length: 4 }, () => c.get('/v1/agents'))))).toEqual([200, 200, 200, 429]);
  });
});

describe('counter sweep', () => {
  it('deletes the counters of finished minutes and keeps the current and previous one', async () => {
    const key = await t.key(a, { ratePerMinute: 100 });
    t.clock.set('2026-11-02T11:00:10.000Z');
    await api(t.baseUrl, key).get('/v1/agents');
    t.clock.set('2026-11-02T11:01:10.000Z');
    await api(t.baseUrl, key).get('/v1/agents');
    const minutes = async () =>
      (await t.app.services.orm.em.fork().execute<{ minute: string }[]>("select minute from rate_counter where bucket like 'key:%'")).length;
    const before = await minutes();
    expect(await sweepRateCounters(t.app.services)).toBeGreaterThan(0);
    expect(await minutes()).toBe(2);
    expect(before).toBeGreaterThan(2);
  });
});
