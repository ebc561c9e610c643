import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { persona } from '../support/agents.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A trial workspace (30 questions) with `used` of them already consumed, and one agent. */
async function nearlySpent(used: number): Promise<{ tenant: TestTenant; agentId: string }> {
  const tenant = await t.tenant({ plan: 'trial', seats: 1 });
  await t.app.services.orm.em.fork().getConnection().execute(
    `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, questions, from_allowance, created_at)
     values (?, ?, null, null, 'question', 'seed', 'light', ?, ?, ?)`,
    [`use_seed_${tenant.workspaceId}`, tenant.workspaceId, used, used, t.clock.now()],
  );
  const agent = await api(t.baseUrl, tenant.key).post('/v1/agents', persona('Ada'));
  return { tenant, agentId: agent.body.agent.id };
}

async function questionsUsed(workspaceId: string): Promise<number> {
  const [row] = await t.app.services.orm.em.fork().getConnection().execute(
    `select coalesce(sum(questions), 0)::int as n from usage_ledger where workspace_id = ? and kind = 'question'`,
    [workspaceId],
  );
  return row.n;
}

describe('question holds: answers admitted together never spend more than the allowance', () => {
  it('with one question left, of 5 simultaneous turns exactly one answers and the ledger stops at 30', async () => {
    const { tenant, agentId } = await nearlySpent(29);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => api(t.baseUrl, tenant.key).post(`/v1/agents/${agentId}/chat`, { message: 'What is the budget?' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 402, 402, 402, 402]);
    for (const r of results.filter((x) => x.status === 402)) {
      expect(r.body).toEqual({ error: 'Insufficient tokens', code: 'QUESTION_LIMIT', required: 1, available: 0 });
    }
    expect(await questionsUsed(tenant.workspaceId)).toBe(30);
  });

  it('a request refused after admission (unknown session) gives its hold back at once', async () => {
    const { tenant, agentId } = await nearlySpent(29);
    const refused = await api(t.baseUrl, tenant.key).post(`/v1/agents/${agentId}/chat`, { message: 'hi', sessionId: 'ses_missing' });
    expect(refused.status).toBe(404);
    const ok = await api(t.baseUrl, tenant.key).post(`/v1/agents/${agentId}/chat`, { message: 'What is the budget?' });
    expect(ok.status).toBe(200);
    expect(await questionsUsed(tenant.workspaceId)).toBe(30);
    const [held] = await t.app.services.orm.em.fork().getConnection().execute(
      'select count(*)::int as n from question_hold where workspace_id = ?',
      [tenant.workspaceId],
    );
    expect(held.n).toBe(0);
  });
});
