import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startMeteringRoutes, type MeteringRoutes } from '../support/metering.js';

let t: TestApp;
let routes: MeteringRoutes;

// The same command handlers `npm run svc` runs (src/cli/main.ts only parses argv and prints the JSON).
const svc = (positionals: string[], flags: Record<string, string | boolean> = {}) =>
  runCommand({ em: t.app.services.orm.em.fork(), clock: t.clock }, positionals, flags) as Promise<any>;

beforeAll(async () => {
  t = await startTestApp();
  routes = await startMeteringRoutes(t);
});
afterAll(async () => {
  await routes?.close();
  await t?.close();
});

describe('CLI: plans, packs, usage and notifications', () => {
  it('workspace set-plan, workspace add-pack, usage W [--month], notifications W', async () => {
    const a = await t.tenant({ plan: 'trial' });
    const set = await svc(['workspace', 'set-plan', a.workspaceId], { plan: 'essentiel', seats: '2', 'started-at': '2026-10-20T08:00:00Z' });
    expect(set).toEqual({
      workspace: { id: a.workspaceId, plan: 'essentiel', seats: 2, subscriptionStartedAt: '2026-10-20T08:00:00.000Z', subscriptionActive: true },
    });
    const pack = await svc(['workspace', 'add-pack', a.workspaceId], { questions: '500' });
    expect(pack.pack).toMatchObject({ workspaceId: a.workspaceId, questions: 500 });

    const key = await t.key(a, { monthlyQuestionLimit: 10, name: 'bot' });
    expect((await api(routes.baseUrl, key).post('/test/native/gateway', { totalTokens: 8 * 8000 })).status).toBe(200);

    const usage = await svc(['usage', a.workspaceId]);
    expect(usage.usage).toMatchObject({
      plan: 'essentiel',
      seats: 2,
      month: '2026-10',
      periodStart: '2026-10-20T00:00:00.000Z',
      periodEnd: '2026-11-20T00:00:00.000Z',
      allowance: 300,
      used: 8,
      left: 792,
      packs: { bought: 500, used: 0, left: 500 },
      byKey: [{ keyId: expect.any(String), questions: 8, answers: 1, controls: 0 }],
      byDay: [{ date: '2026-11-02', questions: 8, answers: 1, controls: 0 }],
    });
    expect(usage.notifications).toEqual([expect.objectContaining({ month: '2026-11', used: 8, limit: 10, kind: 'budget_80' })]);
    const sept = await svc(['usage', a.workspaceId], { month: '2026-09' });
    expect(sept.usage).toMatchObject({ month: '2026-09', used: 0 });
    expect(sept.notifications).toEqual([]);

    expect((await svc(['notifications', a.workspaceId])).notifications).toHaveLength(1);
    expect((await svc(['notifications', a.workspaceId], { month: '2026-12' })).notifications).toEqual([]);
  });

  it('refuses bad input with a readable message', async () => {
    const a = await t.tenant({ plan: 'trial' });
    await expect(svc(['workspace', 'set-plan', a.workspaceId], { plan: 'gold' })).rejects.toThrow(/plan must be one of/);
    await expect(svc(['workspace', 'set-plan', a.workspaceId])).rejects.toThrow(/--plan is required/);
    await expect(svc(['workspace', 'set-plan', a.workspaceId], { plan: 'pro', 'started-at': 'yesterday' })).rejects.toThrow(/startedAt/);
    await expect(svc(['workspace', 'set-plan', 'ws_missing'], { plan: 'pro' })).rejects.toThrow(/Workspace not found/);
    await expect(svc(['workspace', 'add-pack', a.workspaceId], { questions: '100' })).rejects.toThrow(/paid plan/);
    await svc(['workspace', 'set-plan', a.workspaceId], { plan: 'pro' });
    await expect(svc(['workspace', 'add-pack', a.workspaceId], { questions: '300' })).rejects.toThrow(/100, 500, 2000/);
    await expect(svc(['workspace', 'add-pack', a.workspaceId])).rejects.toThrow(/100, 500, 2000/);
    await expect(svc(['usage', a.workspaceId], { month: '2026-13' })).rejects.toThrow(/YYYY-MM/);
    await expect(svc(['usage'])).rejects.toThrow(/workspace id/);
    await expect(svc(['usage', 'ws_missing'])).rejects.toThrow(/Workspace not found/);
    // Seats never below the workspace's users.
    await svc(['user', 'create'], { workspace: a.workspaceId });
    await expect(svc(['workspace', 'set-plan', a.workspaceId], { plan: 'pro', seats: '1' })).rejects.toMatchObject({
      status: 402,
      code: 'SEAT_LIMIT',
      details: { seats: 1 },
    });
    expect((await svc(['workspace', 'set-plan', a.workspaceId], { plan: 'pro', seats: '2' })).workspace.seats).toBe(2);
    // Nor more users than seats.
    await expect(svc(['user', 'create'], { workspace: a.workspaceId })).rejects.toMatchObject({ status: 402, code: 'SEAT_LIMIT', details: { seats: 2 } });
    await svc(['workspace', 'set-plan', a.workspaceId], { plan: 'pro', seats: '3' });
    expect((await svc(['user', 'create'], { workspace: a.workspaceId })).user.workspaceId).toBe(a.workspaceId);
  });
});
