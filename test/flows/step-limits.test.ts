/**
 * A flow's steps open their requests through the request pipeline as the flow (a system principal,
 * src/core/principal.ts): an agent step counts against the agent-chat ceiling in a bucket of its own
 * (per flow, apart from every key's and person's), and every step that calls a service against the
 * flow's own rate (`SVC_RATE_FLOW`, all its runs together). A refused step fails its run with the
 * limit's code; the next minute it runs again. Runs are started over HTTP and moved with `runFlowWork`
 * on the app's ManualClock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runFlowWork } from '../../src/modules/flows/engine.js';
import { createAgent, persona } from '../support/agents.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let a: TestTenant;
let agentId: string;
let minute = 0;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_RATE_AGENT_CHAT: '2', SVC_RATE_FLOW: '3' } });
  a = await t.tenant();
  agentId = await createAgent(t, a.key, persona('Analyst'));
});
afterAll(() => t?.close());
beforeEach(() => t.clock.set(new Date(Date.UTC(2026, 10, 5, 7, (minute += 2), 10))));

async function flowOf(step: Record<string, unknown>): Promise<string> {
  const res = await api(t.baseUrl, a.key).post('/engine/flows', {
    name: `Limited ${minute}`,
    graph: { nodes: [{ key: 'start', type: 'trigger.manual' }, { key: 'step', ...step }], edges: [{ from: 'start', to: 'step' }] },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.flow.id;
}

/** Starts a run over HTTP, lets the engine run it, and returns its status and its step's error code. */
async function runOnce(flowId: string): Promise<{ status: string; code: string | null }> {
  const c = api(t.baseUrl, a.key);
  const runId = (await c.post(`/engine/flows/${flowId}/run`, { input: {} })).body.run.id;
  await runFlowWork(t.app.services);
  const run = (await c.get(`/engine/runs/${runId}`)).body.run;
  return { status: run.status, code: run.errorCode ?? null };
}

const ASK = { type: 'agent.ask', config: { agentId: '', prompt: 'What is the budget?' } };

describe('limits of a flow step', () => {
  it("an agent step has the agent-chat ceiling of its own: the flow's third turn in a minute fails, the key's chat is not touched", async () => {
    const flowId = await flowOf({ ...ASK, config: { ...ASK.config, agentId } });
    expect(await runOnce(flowId)).toEqual({ status: 'succeeded', code: null });
    expect(await runOnce(flowId)).toEqual({ status: 'succeeded', code: null });
    expect(await runOnce(flowId)).toEqual({ status: 'failed', code: 'route_rate_limited' });
    // The key's own chat counts apart, and another flow has its own count.
    expect((await api(t.baseUrl, a.key).post(`/v1/agents/${agentId}/chat`, { message: 'What is the budget?' })).status).toBe(200);
    expect(await runOnce(await flowOf({ ...ASK, config: { ...ASK.config, agentId } }))).toEqual({ status: 'succeeded', code: null });
    t.clock.advance(60_000);
    expect(await runOnce(flowId)).toEqual({ status: 'succeeded', code: null });
  });

  it("every service step counts against the flow's own rate: the fourth in a minute fails with rate_limited", async () => {
    const flowId = await flowOf({ type: 'knowledge.query', config: { query: 'budget' } });
    for (let i = 0; i < 3; i++) expect(await runOnce(flowId)).toEqual({ status: 'succeeded', code: null });
    expect(await runOnce(flowId)).toEqual({ status: 'failed', code: 'rate_limited' });
    // Steps that call no service are not counted.
    const transform = await flowOf({ type: 'transform', config: { template: 'x' } });
    expect(await runOnce(transform)).toEqual({ status: 'succeeded', code: null });
    t.clock.advance(60_000);
    expect(await runOnce(flowId)).toEqual({ status: 'succeeded', code: null });
  });
});
