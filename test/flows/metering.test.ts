import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowWork } from '../../src/modules/flows/engine.js';
import { UsageEntry } from '../../src/modules/usage/usage.entity.js';
import { createAgent, persona } from '../support/agents.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startMeteringRoutes, type MeteringRoutes } from '../support/metering.js';

/**
 * Agent steps are metered in questions and verify steps in controls, under the flow's creator (ledger
 * key `flow:<flowId>`, user the creator); a spent allowance fails the step with the 402 code in the run,
 * not the process, and the next run works again once questions are back.
 */
let t: TestApp;
let metering: MeteringRoutes;

beforeAll(async () => {
  t = await startTestApp();
  metering = await startMeteringRoutes(t);
});
afterAll(async () => {
  await metering?.close();
  await t?.close();
});

const ledger = (workspaceId: string) => t.app.services.orm.em.fork().find(UsageEntry, { workspaceId }, { orderBy: { createdAt: 'asc', id: 'asc' } });

describe('metering of flow steps', () => {
  it('meters agent steps in questions and verify steps in controls under the creator; a spent allowance fails the step with 402 QUESTION_LIMIT', async () => {
    const tenant = await t.tenant({ plan: 'trial' });
    const creator = await t.user(tenant.workspaceId);
    const c = api(t.baseUrl, creator.key);
    const agentId = await createAgent(t, creator.key, persona('Analyst'));
    const created = await c.post('/engine/flows', {
      name: 'Metered',
      graph: {
        nodes: [
          { key: 'start', type: 'trigger.manual' },
          { key: 'ask', type: 'agent.ask', config: { agentId, prompt: 'What is the capital of {{input.country}}?' } },
          {
            key: 'check',
            type: 'verify.text',
            config: { text: 'The invoice total is 1200 euros.', passages: [{ source: 'invoice.pdf', content: 'The invoice total is 1200 euros.' }] },
          },
        ],
        edges: [
          { from: 'start', to: 'ask' },
          { from: 'ask', to: 'check' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const flowId = created.body.flow.id;
    // Another person of the workspace starts the run: the creator's allowance and name are used.
    const starter = api(t.baseUrl, tenant.key);
    const runId = (await starter.post(`/engine/flows/${flowId}/run`, { input: { country: 'France' } })).body.run.id;
    await runFlowWork(t.app.services);
    const run = (await c.get(`/engine/runs/${runId}`)).body.run;
    expect(run.status).toBe('succeeded');
    const ask = run.steps.find((s: { nodeKey: string }) => s.nodeKey === 'ask');
    expect(ask.output.answer.length).toBeGreaterThan(0);
    expect(ask.output.agentId).toBe(agentId);
    expect(run.steps.find((s: { nodeKey: string }) => s.nodeKey === 'check').output.counts.supported).toBeGreaterThan(0);

    const entries = await ledger(tenant.workspaceId);
    const question = entries.find((e) => e.kind !== 'control' && e.keyId === `flow:${flowId}`);
    expect(question).toMatchObject({ userId: creator.userId });
    expect(question!.questions).toBeGreaterThan(0);
    expect(entries.find((e) => e.kind === 'control')).toMatchObject({ keyId: `flow:${flowId}`, userId: creator.userId, questions: 0 });
    expect((await c.get('/v1/verify/usage')).body.controls).toBe(1);

    // Spend the rest of the trial's allowance, then run again: the agent step fails with the 402 code.
    const spent = await fetch(`${metering.baseUrl}/test/native/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ totalTokens: 8000 * 100 }),
    });
    expect(spent.status).toBe(200);
    const refusedRun = (await starter.post(`/engine/flows/${flowId}/run`, { input: { country: 'Peru' } })).body.run.id;
    await runFlowWork(t.app.services);
    const refused = (await c.get(`/engine/runs/${refusedRun}`)).body.run;
    expect(refused).toMatchObject({ status: 'failed', errorCode: 'QUESTION_LIMIT' });
    expect(refused.steps.find((s: { nodeKey: string }) => s.nodeKey === 'ask')).toMatchObject({ status: 'failed', errorCode: 'QUESTION_LIMIT' });
    expect(refused.steps.find((s: { nodeKey: string }) => s.nodeKey === 'check').status).toBe('skipped');
    expect((await c.get('/v1/verify/usage')).body.controls).toBe(1);
    // The process is fine: other flows keep running.
    const plain = await c.post('/engine/flows', {
      name: 'Plain',
      graph: { nodes: [{ key: 's', type: 'trigger.manual' }, { key: 't', type: 'transform', config: { template: 'ok' } }], edges: [{ from: 's', to: 't' }] },
    });
    const ok = (await c.post(`/engine/flows/${plain.body.flow.id}/run`)).body.run.id;
    await runFlowWork(t.app.services);
    expect((await c.get(`/engine/runs/${ok}`)).body.run.status).toBe('succeeded');
  });
});
