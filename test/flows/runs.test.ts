import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowWork } from '../../src/modules/flows/engine.js';
import { runDueDeliveries } from '../../src/modules/webhooks/dispatcher.js';
import { Webhook } from 'standardwebhooks';
import { api } from '../support/api.js';
import { startWebhookReceiver, verifySvcSignature, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createEndpoint } from '../support/webhooks.js';
import { browser, startPeopleApp, type PeopleApp } from '../people/support.js';

/**
 * Runs over real HTTP (issue 15): manual runs, approvals decided by a signed-in person (and refused to
 * API keys), an outbound HTTP step to a loopback receiver only after approval, the run stream, both
 * webhook events, a scheduled run on the injected clock, inbound webhooks with signatures, approval
 * timeouts, cancel and resume. Background jobs are off: the test moves the engine with `runFlowWork`
 * (what the worker does) and the clock.
 */
let t: PeopleApp;
let receiver: WebhookReceiver;
let ws: { workspaceId: string; userId: string; key: string };
let c: ReturnType<typeof api>;

beforeAll(async () => {
  t = await startPeopleApp({ smtp: false });
  receiver = await startWebhookReceiver();
  ws = await t.workspace({ name: 'Flows' });
  c = api(t.baseUrl, ws.key);
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/** What the background workers do: the flow engine, then the webhook deliveries it produced. */
async function work(): Promise<void> {
  await runFlowWork(t.app.services);
  await runDueDeliveries(t.app.services, t.clock.now());
}

const subscribe = (events: string[]) => createEndpoint(t as never, ws as never, receiver, events);

async function signedIn(email: string) {
  await t.person(ws.workspaceId, { email, password: 'correct horse battery' });
  const b = browser(t.baseUrl, { ip: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
  expect((await b.signIn(email, 'correct horse battery')).status).toBe(200);
  return b;
}

async function makeFlow(name: string, graph: unknown): Promise<{ id: string; secret: string }> {
  const res = await c.post('/engine/flows', { name, graph });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.flow.id, secret: res.body.webhookSecret };
}

const outboundGraph = (url: string) => ({
  nodes: [
    { key: 'start', type: 'trigger.manual' },
    { key: 'draft', type: 'transform', config: { template: 'Hello {{input.name}}' } },
    { key: 'ok', type: 'approval', config: { question: 'Send "{{steps.draft.text}}"?', data: '{{steps.draft.text}}' } },
    { key: 'send', type: 'http.request', config: { method: 'POST', url, body: '{"text":"{{steps.draft.text}}"}' } },
  ],
  edges: [
    { from: 'start', to: 'draft' },
    { from: 'draft', to: 'ok' },
    { from: 'ok', to: 'send' },
  ],
});

describe('manual runs', () => {
  it('runs a flow that is not enabled, step by step, and shows each step', async () => {
    const { id } = await makeFlow('Branches', {
      nodes: [
        { key: 'start', type: 'trigger.manual' },
        { key: 'check', type: 'condition', config: { left: '{{input.n}}', op: 'greaterThan', right: '10' } },
        { key: 'big', type: 'transform', config: { template: '{{input.n}} is big' } },
        { key: 'small', type: 'transform', config: { template: '{{input.n}} is small' } },
      ],
      edges: [
        { from: 'start', to: 'check' },
        { from: 'check', to: 'big', when: 'true' },
        { from: 'check', to: 'small', when: 'false' },
      ],
    });
    const started = await c.post(`/engine/flows/${id}/run`, { input: { n: 42 } });
    expect(started.status).toBe(202);
    expect(started.body.run).toMatchObject({ status: 'queued', trigger: 'manual', flowId: id });
    await work();
    const run = (await c.get(`/engine/runs/${started.body.run.id}`)).body.run;
    expect(run.status).toBe('succeeded');
    const byKey = Object.fromEntries(run.steps.map((s: { nodeKey: string }) => [s.nodeKey, s]));
    expect(byKey.check).toMatchObject({ status: 'succeeded', output: { result: true } });
    expect(byKey.big).toMatchObject({ status: 'succeeded', summary: '42 is big', error: null });
    expect(typeof byKey.big.durationMs).toBe('number');
    expect(byKey.small.status).toBe('skipped');

    const second = (await c.post(`/engine/flows/${id}/run`, { input: { n: 3 } })).body.run.id;
    await work();
    const history = (await c.get(`/engine/flows/${id}/runs`)).body.runs;
    expect(history.map((r: { id: string }) => r.id)).toEqual([second, started.body.run.id]);
    expect((await c.get(`/engine/runs/${second}`)).body.run.steps.find((s: { nodeKey: string }) => s.nodeKey === 'small').summary).toBe('3 is small');
  });
});

describe('approvals and outbound steps', () => {
  it('sends the HTTP request only after a signed-in person approves; API keys are refused', async () => {
    receiver.behave('/outbound', { kind: 'status', status: 200, body: 'ok' });
    const hooks = await subscribe(['flow.approval.requested', 'flow.run.finished']);
    const { id } = await makeFlow('Outbound', outboundGraph(receiver.url('/outbound')));
    const runId = (await c.post(`/engine/flows/${id}/run`, { input: { name: 'Ada' } })).body.run.id;

    const stream = fetch(`${t.baseUrl}/engine/runs/${runId}/stream`, { headers: { authorization: `Bearer ${ws.key}` } });

    await work();
    let run = (await c.get(`/engine/runs/${runId}`)).body.run;
    expect(run.status).toBe('waiting_approval');
    expect(receiver.requestsTo('/outbound')).toHaveLength(0);

    const open = (await c.get('/engine/approvals?status=open')).body.approvals;
    const approval = open.find((a: { runId: string }) => a.runId === runId);
    expect(approval).toMatchObject({ status: 'open', nodeKey: 'ok', question: 'Send "Hello Ada"?', data: 'Hello Ada' });

    // Both flow events go to the workspace's subscribed endpoints, with identifiers only.
    const requested = receiver.requestsTo(hooks.path)[0]!;
    expect(requested.headers['x-svc-event']).toBe('flow.approval.requested');
    expect(verifySvcSignature(hooks.secret, requested.rawBody, requested.headers['x-svc-signature'])).toBe(true);
    expect(JSON.parse(requested.body)).toEqual({ runId, flowId: id, flowName: 'Outbound', nodeKey: 'ok', approvalId: approval.id });

    const key = await c.post(`/engine/approvals/${approval.id}/decide`, { decision: 'approve' });
    expect(key.status).toBe(403);
    expect(key.body.code).toBe('person_required');
    expect((await c.post(`/engine/approvals/${approval.id}/claim`)).body.code).toBe('person_required');
    await work();
    expect(receiver.requestsTo('/outbound')).toHaveLength(0);

    const person = await signedIn('approver@example.com');
    const typed = await person.post(`/engine/approvals/${approval.id}/decide`, { decision: true });
    expect(typed.status).toBe(400);
    const claimed = await person.post(`/engine/approvals/${approval.id}/claim`);
    expect(claimed.status).toBe(200);
    expect(claimed.body.approval.status).toBe('claimed');
    const other = await signedIn('second@example.com');
    expect((await other.post(`/engine/approvals/${approval.id}/decide`, { decision: 'reject' })).body.code).toBe('approval_claimed');
    const decided = await person.post(`/engine/approvals/${approval.id}/decide`, { decision: 'approve', comment: 'Fine' });
    expect(decided.status).toBe(200);
    expect(decided.body.approval).toMatchObject({ status: 'approved', comment: 'Fine' });
    expect((await person.post(`/engine/approvals/${approval.id}/decide`, { decision: 'approve' })).body.code).toBe('approval_closed');

    await work();
    run = (await c.get(`/engine/runs/${runId}`)).body.run;
    expect(run.status).toBe('succeeded');
    const sent = receiver.requestsTo('/outbound');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.body)).toEqual({ text: 'Hello Ada' });
    expect(sent[0]!.headers['idempotency-key']).toBe(`${runId}:send`);
    expect(run.steps.find((s: { nodeKey: string }) => s.nodeKey === 'send')).toMatchObject({ status: 'succeeded', output: { status: 200 } });

    expect(receiver.requestsTo(hooks.path)).toHaveLength(2);
    const finished = receiver.requestsTo(hooks.path)[1]!;
    expect(finished.headers['x-svc-event']).toBe('flow.run.finished');
    expect(JSON.parse(finished.body)).toEqual({ runId, flowId: id, flowName: 'Outbound', status: 'succeeded', actionable: false });

    // The stream replays and follows the run to its end, with the chat stream's conventions.
    const res = await stream;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const types = text
      .split('\n\n')
      .filter((f) => f.startsWith('data: '))
      .map((f) => JSON.parse(f.slice(6)).type);
    expect(types).toEqual([
      'step_started',
      'step_finished',
      'step_started',
      'approval_requested',
      'approval_decided',
      'step_finished',
      'step_started',
      'step_finished',
      'run_finished',
    ]);
  });

  it('fails the run visibly when nobody decides in time', async () => {
    receiver.behave('/late', { kind: 'status', status: 200 });
    const hooks = await subscribe(['flow.run.finished']);
    const graph = outboundGraph(receiver.url('/late'));
    (graph.nodes[2]!.config as Record<string, unknown>).timeoutSeconds = 3600;
    const { id } = await makeFlow('Timeout', graph);
    const runId = (await c.post(`/engine/flows/${id}/run`, { input: { name: 'Bob' } })).body.run.id;
    await work();
    expect((await c.get(`/engine/runs/${runId}`)).body.run.status).toBe('waiting_approval');
    t.clock.advance(3599_000);
    await work();
    expect((await c.get(`/engine/runs/${runId}`)).body.run.status).toBe('waiting_approval');
    t.clock.advance(2_000);
    await work();
    const run = (await c.get(`/engine/runs/${runId}`)).body.run;
    expect(run).toMatchObject({ status: 'failed', errorCode: 'approval_timed_out' });
    expect(run.steps.find((s: { nodeKey: string }) => s.nodeKey === 'ok')).toMatchObject({ status: 'failed', errorCode: 'approval_timed_out' });
    const approval = (await c.get('/engine/approvals')).body.approvals.find((a: { runId: string }) => a.runId === runId);
    expect(approval.status).toBe('timed_out');
    expect(receiver.requestsTo('/late')).toHaveLength(0);
    expect(JSON.parse(receiver.requestsTo(hooks.path).at(-1)!.body)).toMatchObject({ runId, status: 'failed', actionable: true });
  });

  it('fails on a rejection without a rejected branch; cancel and resume', async () => {
    const { id } = await makeFlow('Rejected', outboundGraph(receiver.url('/never')));
    const runId = (await c.post(`/engine/flows/${id}/run`, { input: { name: 'C' } })).body.run.id;
    await work();
    const approval = (await c.get('/engine/approvals')).body.approvals.find((a: { runId: string }) => a.runId === runId);
    const person = await signedIn('rejecter@example.com');
    expect((await person.post(`/engine/approvals/${approval.id}/decide`, { decision: 'reject', comment: 'No' })).status).toBe(200);
    await work();
    expect((await c.get(`/engine/runs/${runId}`)).body.run).toMatchObject({ status: 'failed', errorCode: 'approval_rejected' });
    expect(receiver.requestsTo('/never')).toHaveLength(0);

    const waits = await makeFlow('Waits', {
      nodes: [
        { key: 'start', type: 'trigger.manual' },
        { key: 'pause', type: 'wait', config: { seconds: 600 } },
        { key: 'after', type: 'transform', config: { template: 'done' } },
      ],
      edges: [
        { from: 'start', to: 'pause' },
        { from: 'pause', to: 'after' },
      ],
    });
    const w = (await c.post(`/engine/flows/${waits.id}/run`)).body.run.id;
    await work();
    expect((await c.get(`/engine/runs/${w}`)).body.run.status).toBe('waiting');
    expect((await c.post(`/engine/runs/${w}/resume`)).status).toBe(200);
    await work();
    expect((await c.get(`/engine/runs/${w}`)).body.run.status).toBe('succeeded');
    expect((await c.post(`/engine/runs/${w}/resume`)).body.code).toBe('run_not_resumable');
    expect((await c.post(`/engine/runs/${w}/cancel`)).body.code).toBe('run_finished');

    const timed = (await c.post(`/engine/flows/${waits.id}/run`)).body.run.id;
    await work();
    t.clock.advance(601_000);
    await work();
    expect((await c.get(`/engine/runs/${timed}`)).body.run.status).toBe('succeeded');

    const cancelled = (await c.post(`/engine/flows/${waits.id}/run`)).body.run.id;
    await work();
    const res = await c.post(`/engine/runs/${cancelled}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.run.status).toBe('cancelled');
    t.clock.advance(601_000);
    await work();
    expect((await c.get(`/engine/runs/${cancelled}`)).body.run.status).toBe('cancelled');
  });
});

describe('triggers', () => {
  it('fires a schedule once per due time, in its time zone, only while enabled', async () => {
    t.clock.set('2026-11-02T07:30:00.000Z');
    const { id } = await makeFlow('Scheduled', {
      nodes: [
        { key: 'tick', type: 'trigger.schedule', config: { cron: '0 9 * * *', timezone: 'Europe/Paris' } },
        { key: 'note', type: 'transform', config: { template: 'due {{input.scheduledFor}}' } },
      ],
      edges: [{ from: 'tick', to: 'note' }],
    });
    const enabled = await c.patch(`/engine/flows/${id}`, { enabled: true });
    expect(enabled.body.flow.nextDueAt).toBe('2026-11-02T08:00:00.000Z'); // 09:00 in Paris (UTC+1)
    await work();
    expect((await c.get(`/engine/flows/${id}/runs`)).body.runs).toHaveLength(0);
    t.clock.set('2026-11-02T08:00:00.000Z');
    await work();
    await work();
    const runs = (await c.get(`/engine/flows/${id}/runs`)).body.runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'schedule', status: 'succeeded', scheduledFor: '2026-11-02T08:00:00.000Z' });
    expect((await c.get(`/engine/flows/${id}`)).body.flow.nextDueAt).toBe('2026-11-03T08:00:00.000Z');

    const moved = await c.patch(`/engine/flows/${id}`, { schedule: { cron: '30 9 * * *', timezone: 'UTC' } });
    expect(moved.body.flow).toMatchObject({ nextDueAt: '2026-11-02T09:30:00.000Z', version: 2 });
    const bad = await c.patch(`/engine/flows/${id}`, { schedule: { cron: 'soon' } });
    expect(bad.status).toBe(400);
    expect(bad.body.problems[0].code).toBe('bad_cron');

    await c.patch(`/engine/flows/${id}`, { enabled: false });
    t.clock.set('2026-11-02T10:00:00.000Z');
    await work();
    expect((await c.get(`/engine/flows/${id}/runs`)).body.runs).toHaveLength(1);
  });

  it('starts a run from a signed inbound webhook and refuses a bad signature', async () => {
    const { id, secret } = await makeFlow('Inbound', {
      nodes: [
        { key: 'hook', type: 'trigger.webhook' },
        { key: 'echo', type: 'transform', config: { template: 'order {{input.order}}' } },
      ],
      edges: [{ from: 'hook', to: 'echo' }],
    });
    const body = JSON.stringify({ order: 'A-17' });
    // Signed as a Standard Webhooks sender does, with the official library (the flow's secret as raw bytes).
    let n = 0;
    const signed = (key = secret, payload = body) => {
      const msgId = `msg_${++n}`;
      const at = t.clock.now();
      return { 'webhook-id': msgId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(key, { format: 'raw' }).sign(msgId, at, payload) };
    };
    const post = (headers: Record<string, string>, payload = body, flowId = id) =>
      fetch(`${t.baseUrl}/engine/hooks/${flowId}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });
    const disabled = await post(signed());
    expect(disabled.status).toBe(409);
    expect((await disabled.json()).code).toBe('flow_disabled');
    await c.patch(`/engine/flows/${id}`, { enabled: true });

    const good = signed();
    for (const headers of [{}, { ...good, 'webhook-signature': 'v1,AAAA' }, signed('fwh_wrong'), signed(secret, body + ' '), { ...good, 'webhook-id': 'msg_other' }]) {
      const refused = await post(headers);
      expect(refused.status).toBe(401);
      expect((await refused.json()).code).toBe('invalid_signature');
    }
    const unknown = await post(signed(), body, 'flw_unknown');
    expect(unknown.status).toBe(401);
    expect((await c.get(`/engine/flows/${id}/runs`)).body.runs).toHaveLength(0);

    const accepted = await post(good);
    expect(accepted.status).toBe(202);
    const { runId } = await accepted.json();
    await work();
    const run = (await c.get(`/engine/runs/${runId}`)).body.run;
    expect(run).toMatchObject({ trigger: 'webhook', status: 'succeeded' });
    expect(run.steps.find((s: { nodeKey: string }) => s.nodeKey === 'echo').summary).toBe('order A-17');
  });
});
