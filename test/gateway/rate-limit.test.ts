import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';

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
