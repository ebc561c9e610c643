import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_INT_MAX } from '../../src/lib/pg-int.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let a: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
});
afterAll(() => t?.close());

const dev = () => api(t.baseUrl, a.key);
const TOO_BIG = [PG_INT_MAX + 1, 9_007_199_254_740_991, 1e300];

describe('integers from requests fit their PostgreSQL integer columns (400 naming the field, never 500)', () => {
  it('POST and PATCH /developer/api-keys: ratePerMinute and monthlyQuestionLimit', async () => {
    const created = await dev().post('/developer/api-keys', { ratePerMinute: PG_INT_MAX, monthlyQuestionLimit: PG_INT_MAX });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatchObject({ ratePerMinute: PG_INT_MAX, monthlyQuestionLimit: PG_INT_MAX });
    for (const field of ['ratePerMinute', 'monthlyQuestionLimit']) {
      for (const value of TOO_BIG) {
        const post = await dev().post('/developer/api-keys', { [field]: value });
        expect([post.status, post.body.field]).toEqual([400, field]);
        if (Number.isSafeInteger(value)) expect(post.body.error).toBe(`${field} must be at most ${PG_INT_MAX}`);
        const patch = await dev().patch(`/developer/api-keys/${created.body.key.id}`, { [field]: value });
        expect([patch.status, patch.body.field]).toEqual([400, field]);
      }
    }
  });

  it('GraphQL refuses them too (Int is 32-bit)', async () => {
    const res = await api(t.baseUrl, a.key).graphql('mutation { createApiKey(input: { ratePerMinute: 2147483648 }) { secret } }');
    expect(res.errors?.[0].message).toMatch(/2147483648/);
  });

  it('POST /v1/knowledge/query topK and POST /v1/tools timeoutMs', async () => {
    for (const topK of TOO_BIG) {
      const res = await dev().post('/v1/knowledge/query', { query: 'refunds', topK });
      expect([res.status, res.body.field]).toEqual([400, 'topK']);
    }
    for (const timeoutMs of TOO_BIG) {
      const res = await dev().post('/v1/tools', {
        name: 'big_timeout',
        description: 'x',
        inputSchema: { type: 'object' },
        urlTemplate: 'http://127.0.0.1:9/x',
        timeoutMs,
      });
      expect([res.status, res.body.field]).toEqual([400, 'timeoutMs']);
    }
  });
});
