import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addPack, setPlan } from '../../src/modules/usage/plans.service.js';
import { Workspace } from '../../src/modules/workspaces/workspace.entity.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { ledgerOf, startMeteringRoutes, type MeteringRoutes } from '../support/metering.js';

let t: TestApp;
let routes: MeteringRoutes;
const START = '2026-11-02T10:00:00.000Z';
/** One light-class request of `q` questions. */
const q = (n: number) => ({ totalTokens: n * 8000 });

const actx = () => ({ em: t.app.services.orm.em.fork(), clock: t.clock });

async function tenant(plan: 'trial' | 'essentiel' | 'pro' | 'cabinet', seats = 1): Promise<TestTenant> {
  return t.tenant({ plan, seats });
}

beforeAll(async () => {
  t = await startTestApp();
  routes = await startMeteringRoutes(t);
});
afterAll(async () => {
  await routes?.close();
  await t?.close();
});
beforeEach(() => t.clock.set(START));

describe('402 refusals: every code, in every shape, nothing consumed', () => {
  it('SUBSCRIPTION_INACTIVE once the 14-day trial is over (native, OpenAI and Anthropic shapes)', async () => {
    const a = await tenant('trial');
    const m = api(routes.baseUrl, a.key);
    expect((await m.post('/test/native/chat', q(1))).status).toBe(200);
    t.clock.set('2026-11-16T09:59:59.999Z');
    expect((await m.post('/test/native/chat', q(1))).status).toBe(200);
    const before = await ledgerOf(t, a.workspaceId);
    t.clock.set('2026-11-16T10:00:00.000Z');
    const native = await m.post('/test/native/chat', q(1));
    expect(native.status).toBe(402);
    expect(native.body).toEqual({ error: expect.any(String), code: 'SUBSCRIPTION_INACTIVE' });
    const gw = await m.post('/test/native/gateway', q(1));
    expect(gw.status).toBe(402);
    expect(gw.body.code).toBe('SUBSCRIPTION_INACTIVE');
    const openai = await m.post('/test/openai/consume', q(1));
    expect(openai.status).toBe(402);
    expect(openai.body).toEqual({ error: { message: expect.any(String), type: 'insufficient_quota', code: 'SUBSCRIPTION_INACTIVE', param: null } });
    const anthropic = await m.post('/test/anthropic/consume', q(1));
    expect(anthropic.status).toBe(402);
    expect(anthropic.body).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: expect.any(String) } });
    expect(await ledgerOf(t, a.workspaceId)).toEqual(before);
  });

  it('SUBSCRIPTION_INACTIVE on a paid plan whose subscription is not active', async () => {
    const a = await tenant('pro');
    const em = t.app.services.orm.em.fork();
    await em.nativeUpdate(Workspace, { id: a.workspaceId }, { subscriptionActive: false });
    const res = await api(routes.baseUrl, a.key).post('/test/native/gateway', q(1));
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_INACTIVE');
    expect((await ledgerOf(t, a.workspaceId)).rows).toBe(0);
    // Setting a plan activates the subscription again.
    await setPlan(actx(), a.workspaceId, { plan: 'pro' });
    expect((await api(routes.baseUrl, a.key).post('/test/native/gateway', q(1))).status).toBe(200);
  });

  it('PLAN_UPGRADE_REQUIRED with feature and requiredPlan for chat on Essentiel; the gateway stays open', async () => {
    const a = await tenant('essentiel');
    const m = api(routes.baseUrl, a.key);
    const res = await m.post('/test/native/chat', q(1));
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: expect.any(String), code: 'PLAN_UPGRADE_REQUIRED', feature: 'chat', requiredPlan: 'pro' });
    expect((await ledgerOf(t, a.workspaceId)).rows).toBe(0);
    expect((await m.post('/test/native/gateway', q(1))).status).toBe(200);
    expect((await m.post('/test/openai/consume', q(1))).status).toBe(200);
    // The trial has Pro's features.
    const trial = await tenant('trial');
    expect((await api(routes.baseUrl, trial.key).post('/test/native/chat', q(1))).status).toBe(200);
  });

  it('API_KEY_BUDGET_EXCEEDED in the native shape on every dialect once the key ceiling is spent', async () => {
    const a = await tenant('cabinet');
    const key = await t.key(a, { monthlyQuestionLimit: 3 });
    const m = api(routes.baseUrl, key);
    expect((await m.post('/test/native/chat', q(2))).body).toEqual({ questions: 2 });
    // 2 used + 2 required > 3: refused before the model runs.
    const over = await m.post('/test/native/chat', { ...q(2), required: 2 });
    expect(over.status).toBe(402);
    expect((await m.post('/test/native/chat', q(1))).status).toBe(200);
    const before = await ledgerOf(t, a.workspaceId);
    expect(before.questions).toBe(3);
    for (const path of ['/test/native/chat', '/test/openai/consume', '/test/anthropic/consume']) {
      const res = await m.post(path, q(1));
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ error: expect.any(String), code: 'API_KEY_BUDGET_EXCEEDED' });
    }
    expect(await ledgerOf(t, a.workspaceId)).toEqual(before);
    // Other keys of the workspace are not held by this key's ceiling.
    expect((await api(routes.baseUrl, a.key).post('/test/native/chat', q(1))).status).toBe(200);
  });

  it('QUESTION_LIMIT (native, required/available), insufficient_quota (OpenAI), 429 rate_limit_error without retry-after (Anthropic)', async () => {
    const a = await tenant('trial');
    const m = api(routes.baseUrl, a.key);
    expect((await m.post('/test/native/chat', q(27))).body).toEqual({ questions: 27 });
    const five = await m.post('/test/native/chat', { ...q(5), required: 5 });
    expect(five.status).toBe(402);
    expect(five.body).toEqual({ error: 'Insufficient tokens', code: 'QUESTION_LIMIT', required: 5, available: 3 });
    expect((await m.post('/test/native/chat', q(3))).status).toBe(200);
    const before = await ledgerOf(t, a.workspaceId);
    expect(before).toEqual({ rows: 2, questions: 30, fromPacks: 0 });

    const native = await m.post('/test/native/chat', q(1));
    expect(native.status).toBe(402);
    expect(native.body).toEqual({ error: 'Insufficient tokens', code: 'QUESTION_LIMIT', required: 1, available: 0 });
    const openai = await m.post('/test/openai/consume', q(1));
    expect(openai.status).toBe(402);
    expect(openai.body).toEqual({ error: { message: expect.any(String), type: 'insufficient_quota', code: 'insufficient_quota', param: null } });
    const anthropic = await m.post('/test/anthropic/consume', q(1));
    expect(anthropic.status).toBe(429);
    expect(anthropic.headers.get('retry-after')).toBeNull();
    expect(anthropic.body).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: expect.any(String) } });
    expect(await ledgerOf(t, a.workspaceId)).toEqual(before);
  });

  it('DOCUMENT_LIMIT with limit and used (plan volume per seat; 50 for the trial), SUBSCRIPTION_INACTIVE after the trial', async () => {
    const a = await tenant('essentiel', 2); // 600 documents
    const m = api(routes.baseUrl, a.key);
    expect((await m.post('/test/document', { used: 599 })).status).toBe(201);
    const full = await m.post('/test/document', { used: 600 });
    expect(full.status).toBe(402);
    expect(full.body).toEqual({ error: expect.any(String), code: 'DOCUMENT_LIMIT', limit: 600, used: 600 });
    expect((await m.post('/test/document', { used: 590, adding: 11 })).body).toMatchObject({ code: 'DOCUMENT_LIMIT', limit: 600, used: 590 });
    const trial = api(routes.baseUrl, (await tenant('trial')).key);
    expect((await trial.post('/test/document', { used: 50 })).body).toMatchObject({ code: 'DOCUMENT_LIMIT', limit: 50 });
    t.clock.set('2026-11-20T00:00:00.000Z');
    expect((await trial.post('/test/document', { used: 0 })).body.code).toBe('SUBSCRIPTION_INACTIVE');
  });

  it('read and discovery routes keep working on a spent allowance and after the trial', async () => {
    const a = await tenant('trial');
    expect((await api(routes.baseUrl, a.key).post('/test/native/chat', q(30))).status).toBe(200);
    t.clock.set('2026-12-01T00:00:00.000Z');
    const c = api(t.baseUrl, a.key);
    expect((await c.get('/v1/agents')).status).toBe(200);
    expect((await c.get('/developer/api-keys')).status).toBe(200);
    expect((await c.get('/v1/verify/usage')).status).toBe(200);
    const gql = await c.graphql('{ usage { used left } apiKeys { id } }');
    expect(gql.errors).toBeUndefined();
    expect(gql.data.usage).toEqual({ used: 30, left: 0 });
  });
});

describe('allowance, packs and windows', () => {
  it('consumes the monthly allowance before packs; packs carry over to the next window', async () => {
    const a = await tenant('essentiel'); // 150 questions a month
    await addPack(actx(), a.workspaceId, { questions: 100 });
    const m = api(routes.baseUrl, a.key);
    expect((await m.post('/test/native/gateway', q(140))).status).toBe(200);
    expect((await ledgerOf(t, a.workspaceId)).fromPacks).toBe(0);
    expect((await m.post('/test/native/gateway', q(20))).status).toBe(200); // 10 from the allowance, 10 from the pack
    expect((await ledgerOf(t, a.workspaceId)).fromPacks).toBe(10);
    const r1 = (await api(t.baseUrl, a.key).graphql('{ usage { allowance used usedFromAllowance usedFromPacks allowanceLeft left packs { bought used left } } }')).data.usage;
    expect(r1).toEqual({ allowance: 150, used: 160, usedFromAllowance: 150, usedFromPacks: 10, allowanceLeft: 0, left: 90, packs: { bought: 100, used: 10, left: 90 } });
    const refused = await m.post('/test/native/gateway', { ...q(91), required: 91 });
    expect(refused.body).toMatchObject({ code: 'QUESTION_LIMIT', required: 91, available: 90 });

    // Next window (anchored on the 2nd): the allowance is whole again, the pack keeps its 90.
    t.clock.set('2026-12-02T00:00:00.000Z');
    expect((await m.post('/test/native/gateway', q(5))).status).toBe(200);
    const r2 = (await api(t.baseUrl, a.key).graphql('{ usage { month periodStart used allowanceLeft left packs { left } } }')).data.usage;
    expect(r2).toEqual({ month: '2026-12', periodStart: '2026-12-02T00:00:00.000Z', used: 5, allowanceLeft: 145, left: 235, packs: { left: 90 } });
  });

  it('the monthly window edge follows the subscription start day, not the calendar month', async () => {
    const a = await tenant('essentiel');
    await setPlan(actx(), a.workspaceId, { plan: 'essentiel', startedAt: '2026-10-15T18:00:00Z' });
    const m = api(routes.baseUrl, a.key);
    expect((await m.post('/test/native/gateway', q(150))).status).toBe(200);
    t.clock.set('2026-11-14T23:59:59.999Z');
    expect((await m.post('/test/native/gateway', q(1))).body.code).toBe('QUESTION_LIMIT');
    t.clock.set('2026-11-15T00:00:00.000Z');
    expect((await m.post('/test/native/gateway', q(1))).status).toBe(200);
    // The past window stays readable by month.
    const oct = (await api(t.baseUrl, a.key).graphql('{ usage(month: "2026-10") { month periodStart periodEnd used } }')).data.usage;
    expect(oct).toEqual({ month: '2026-10', periodStart: '2026-10-15T00:00:00.000Z', periodEnd: '2026-11-15T00:00:00.000Z', used: 150 });
  });

  it('packs only on a paid plan', async () => {
    const a = await tenant('trial');
    await expect(addPack(actx(), a.workspaceId, { questions: 100 })).rejects.toThrow(/paid plan/);
    const b = await tenant('pro');
    await expect(addPack(actx(), b.workspaceId, { questions: 250 as never })).rejects.toThrow(/100, 500, 2000/);
  });
});

describe('per-key monthly ceiling (calendar month, UTC)', () => {
  it('resets at the calendar month edge', async () => {
    const a = await tenant('cabinet');
    const key = await t.key(a, { monthlyQuestionLimit: 3 });
    const m = api(routes.baseUrl, key);
    t.clock.set('2026-11-30T23:59:59.000Z');
    expect((await m.post('/test/native/chat', q(3))).status).toBe(200);
    t.clock.set('2026-11-30T23:59:59.999Z');
    expect((await m.post('/test/native/chat', q(1))).body.code).toBe('API_KEY_BUDGET_EXCEEDED');
    t.clock.set('2026-12-01T00:00:00.000Z');
    expect((await m.post('/test/native/chat', q(1))).status).toBe(200);
  });

  it('reads a ledger total cached for about 15 s: another process consuming shows up after the cache expires', async () => {
    const a = await tenant('cabinet');
    const key = await t.key(a, { monthlyQuestionLimit: 5 });
    const m = api(routes.baseUrl, key);
    expect((await m.post('/test/native/chat', q(1))).status).toBe(200);
    const keyId = (await api(t.baseUrl, key).get('/developer/api-keys')).body.keys.at(-1).id;
    // Another process records 4 questions for this key straight into the shared ledger.
    await t.app.services.orm.em.fork().execute(
      `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, questions, from_allowance, created_at)
       values ('use_other', ?, ?, ?, 'question', 'elsewhere', 4, 4, ?)`,
      [a.workspaceId, keyId, a.userId, new Date(START)],
    );
    t.clock.advance(14_000);
    expect((await m.post('/test/native/chat', q(1))).status).toBe(200); // cached total (1) still used: the overshoot SPEC allows
    t.clock.advance(15_000);
    expect((await m.post('/test/native/chat', q(1))).body.code).toBe('API_KEY_BUDGET_EXCEEDED');
  });

  it('records one notification per key and month past 80% of the ceiling, visible through GraphQL', async () => {
    const a = await tenant('cabinet');
    const key = await t.key(a, { monthlyQuestionLimit: 10 });
    const m = api(routes.baseUrl, key);
    expect((await m.post('/test/native/chat', q(7))).status).toBe(200);
    const none = await api(t.baseUrl, a.key).graphql('{ keyNotifications { id } }');
    expect(none.data.keyNotifications).toEqual([]);
    expect((await m.post('/test/native/chat', q(1))).status).toBe(200); // 8 of 10
    expect((await m.post('/test/native/chat', q(1))).status).toBe(200); // 9 of 10: no second one
    const list = (await api(t.baseUrl, a.key).graphql('{ keyNotifications { keyId month kind used limit message } }')).data.keyNotifications;
    expect(list).toEqual([{ keyId: expect.any(String), month: '2026-11', kind: 'budget_80', used: 8, limit: 10, message: expect.stringContaining('8 of its 10') }]);
    t.clock.set('2026-12-03T00:00:00.000Z');
    expect((await m.post('/test/native/chat', q(9))).status).toBe(200);
    const keys = (await api(t.baseUrl, a.key).graphql('{ apiKeys { id questionsThisMonth notifications { month used } } }')).data.apiKeys;
    const limited = keys.find((k: { id: string }) => k.id === list[0].keyId);
    expect(limited).toEqual({ id: list[0].keyId, questionsThisMonth: 9, notifications: [{ month: '2026-12', used: 9 }, { month: '2026-11', used: 8 }] });
  });
});

describe('controls and GET /v1/verify/usage', () => {
  it('counts controls apart from questions, per calendar month, never blocked by monthlyQuestionLimit', async () => {
    const a = await tenant('cabinet');
    const proofKey = await t.key(a, { scopes: ['proof'], monthlyQuestionLimit: 1 });
    const m = api(routes.baseUrl, proofKey);
    for (let i = 0; i < 3; i++) expect((await m.post('/test/control')).status).toBe(201);
    expect((await api(routes.baseUrl, a.key).post('/test/native/chat', q(2))).status).toBe(200);
    const usage = await api(t.baseUrl, proofKey).get('/v1/verify/usage');
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({ month: '2026-11', controls: 3 });
    const ledger = await ledgerOf(t, a.workspaceId);
    expect(ledger).toEqual({ rows: 4, questions: 2, fromPacks: 0 });
    t.clock.set('2026-12-01T00:00:00.000Z');
    expect((await api(t.baseUrl, proofKey).get('/v1/verify/usage')).body).toEqual({ month: '2026-12', controls: 0 });
  });

  it('needs the proof scope; another workspace sees only its own controls', async () => {
    const a = await tenant('cabinet');
    const agentsKey = await t.key(a, { scopes: ['agents'] });
    const denied = await api(t.baseUrl, agentsKey).get('/v1/verify/usage');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'scope_denied', scope: 'proof' });
    expect((await api(t.baseUrl).get('/v1/verify/usage')).status).toBe(401);
    const b = await tenant('cabinet');
    await api(routes.baseUrl, b.key).post('/test/control');
    expect((await api(t.baseUrl, a.key).get('/v1/verify/usage')).body.controls).toBe(0);
  });
});

describe('GraphQL usage report', () => {
  it('per key (batched) and per day, with validation of the month', async () => {
    const a = await tenant('pro', 2); // 800 a month
    const k2 = await t.key(a, { name: 'ci' });
    await api(routes.baseUrl, a.key).post('/test/native/chat', q(3));
    t.clock.set('2026-11-03T08:00:00.000Z');
    await api(routes.baseUrl, k2).post('/test/native/chat', { totalTokens: 8001, modelClass: 'standard' }); // 4 questions
    await api(routes.baseUrl, k2).post('/test/control');
    const res = await api(t.baseUrl, a.key).graphql(
      '{ usage { plan seats allowance used left answers controls byKey { key { name } questions answers controls } byDay { date questions answers controls } } }',
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.usage).toEqual({
      plan: 'pro',
      seats: 2,
      allowance: 800,
      used: 7,
      left: 793,
      answers: 2,
      controls: 1,
      byKey: [
        { key: { name: 'ci' }, questions: 4, answers: 1, controls: 1 },
        { key: { name: 'first key' }, questions: 3, answers: 1, controls: 0 },
      ],
      byDay: [
        { date: '2026-11-02', questions: 3, answers: 1, controls: 0 },
        { date: '2026-11-03', questions: 4, answers: 1, controls: 1 },
      ],
    });
    const bad = await api(t.baseUrl, a.key).graphql('{ usage(month: "2026-13") { used } }');
    expect(bad.errors?.[0]).toMatchObject({ message: 'month must be in the form YYYY-MM (years 1900 to 2999)', extensions: { status: 400 } });
    const restricted = await t.key(a, { scopes: ['agents'] });
    const denied = await api(t.baseUrl, restricted).graphql('{ usage { used } }');
    expect(denied.errors?.[0].extensions.code).toBe('scope_denied');
  });
});
