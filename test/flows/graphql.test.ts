import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowWork } from '../../src/modules/flows/engine.js';
import { api } from '../support/api.js';
import { browser, startPeopleApp, type PeopleApp } from '../people/support.js';

/**
 * The GraphQL twins of the flow routes over the same services: flows and runs, the version conflict,
 * approvals decided by a signed-in person's session (an API key gets person_required), and the
 * `flowRunEvents` subscription over graphql-sse with the REST stream's events.
 */
let t: PeopleApp;
let ws: { workspaceId: string; userId: string; key: string };

beforeAll(async () => {
  t = await startPeopleApp({ smtp: false });
  ws = await t.workspace({ name: 'Flows GraphQL' });
});
afterAll(async () => t?.close());

const GRAPH = {
  nodes: [
    { key: 'start', type: 'trigger.manual' },
    { key: 'ok', type: 'approval', config: { question: 'Go on?' } },
    { key: 'done', type: 'transform', config: { template: 'approved by {{steps.ok.decidedBy}}' } },
  ],
  edges: [
    { from: 'start', to: 'ok' },
    { from: 'ok', to: 'done' },
  ],
};

describe('flows over GraphQL', () => {
  it('creates a flow, saves its graph against a version, runs it, and a person decides the approval', async () => {
    const c = api(t.baseUrl, ws.key);
    const created = await c.graphql(`mutation($input: CreateFlowInput!) { createFlow(input: $input) { flow { id name version enabled } webhookSecret } }`, {
      input: { name: 'Over GraphQL', graph: GRAPH },
    });
    expect(created.errors).toBeUndefined();
    const flow = created.data.createFlow.flow;
    expect(flow).toMatchObject({ name: 'Over GraphQL', version: 1, enabled: false });

    const conflict = await c.graphql(`mutation($id: ID!, $input: PutFlowGraphInput!) { putFlowGraph(id: $id, input: $input) { version } }`, {
      id: flow.id,
      input: { ...GRAPH, expectedVersion: 7 },
    });
    expect(conflict.errors![0]!.extensions).toMatchObject({ code: 'version_conflict', currentVersion: 1 });
    const saved = await c.graphql(`mutation($id: ID!, $input: PutFlowGraphInput!) { putFlowGraph(id: $id, input: $input) { version } }`, {
      id: flow.id,
      input: { ...GRAPH, expectedVersion: 1 },
    });
    expect(saved.data.putFlowGraph.version).toBe(2);

    const run = await c.graphql(`mutation($id: ID!) { startFlowRun(flowId: $id, input: { who: "gql" }) { id status steps { nodeKey status } } }`, { id: flow.id });
    expect(run.errors).toBeUndefined();
    const runId = run.data.startFlowRun.id;

    const sub = createClient({ url: `${t.baseUrl}/graphql/stream`, retryAttempts: 0, headers: () => ({ authorization: `Bearer ${ws.key}` }) });
    const collected = (async () => {
      const types: string[] = [];
      for await (const r of sub.iterate<{ flowRunEvents: { type: string; data: Record<string, unknown> } }>({
        query: `subscription($id: ID!) { flowRunEvents(runId: $id) { seq type data } }`,
        variables: { id: runId },
      })) {
        types.push(r.data!.flowRunEvents.type);
      }
      return types;
    })();

    await runFlowWork(t.app.services);
    const approvals = await c.graphql(`{ flowApprovals(openOnly: true) { id runId status question } }`);
    const approval = approvals.data.flowApprovals.find((a: { runId: string }) => a.runId === runId);
    expect(approval).toMatchObject({ status: 'open', question: 'Go on?' });

    const byKey = await c.graphql(`mutation($id: ID!) { decideFlowApproval(id: $id, input: { decision: approve }) { status } }`, { id: approval.id });
    expect(byKey.errors![0]!.extensions.code).toBe('person_required');

    await t.person(ws.workspaceId, { email: 'gql-approver@example.com', password: 'correct horse battery' });
    const person = browser(t.baseUrl, { ip: '10.77.0.1' });
    await person.signIn('gql-approver@example.com', 'correct horse battery');
    const decided = await person.graphql(`mutation($id: ID!) { decideFlowApproval(id: $id, input: { decision: approve, comment: "yes" }) { status decidedBy comment } }`, {
      id: approval.id,
    });
    expect(decided.body.errors).toBeUndefined();
    expect(decided.body.data.decideFlowApproval).toMatchObject({ status: 'approved', comment: 'yes' });

    await runFlowWork(t.app.services);
    const detail = await c.graphql(`query($id: ID!) { flowRun(id: $id) { status steps { nodeKey status summary } } }`, { id: runId });
    expect(detail.data.flowRun.status).toBe('succeeded');
    expect(detail.data.flowRun.steps.find((s: { nodeKey: string }) => s.nodeKey === 'done').summary).toBe(
      `approved by ${decided.body.data.decideFlowApproval.decidedBy}`,
    );

    expect(await collected).toEqual(['step_started', 'approval_requested', 'approval_decided', 'step_finished', 'step_started', 'step_finished', 'run_finished']);
    sub.dispose();
    const rest = await fetch(`${t.baseUrl}/engine/runs/${runId}/stream`, { headers: { authorization: `Bearer ${ws.key}` } });
    const restTypes = (await rest.text())
      .split('\n\n')
      .filter((f) => f.startsWith('data: '))
      .map((f) => JSON.parse(f.slice(6)).type);
    expect(await collected).toEqual(restTypes);

    const history = await c.graphql(`query($id: ID!) { flowRuns(flowId: $id) { id status trigger } flows { id } }`, { id: flow.id });
    expect(history.data.flowRuns).toEqual([{ id: runId, status: 'succeeded', trigger: 'manual' }]);
    expect(history.data.flows.map((f: { id: string }) => f.id)).toContain(flow.id);
  });

  it('refuses an unknown run on the subscription, and a key without the engine scope', async () => {
    const sub = createClient({ url: `${t.baseUrl}/graphql/stream`, retryAttempts: 0, headers: () => ({ authorization: `Bearer ${ws.key}` }) });
    const errors: unknown[] = [];
    try {
      for await (const r of sub.iterate({ query: `subscription { flowRunEvents(runId: "run_nope") { type } }` })) errors.push(r);
    } catch (err) {
      errors.push(err);
    }
    sub.dispose();
    expect(JSON.stringify(errors)).toContain('not_found');
    const issued = await api(t.baseUrl, ws.key).post('/developer/api-keys', { scopes: ['agents'] });
    expect(issued.status).toBe(201);
    const agentsOnly = api(t.baseUrl, issued.body.key.secret);
    const denied = await agentsOnly.graphql(`{ flows { id } }`);
    expect(denied.errors![0]!.extensions.code).toBe('scope_denied');
  });
});
