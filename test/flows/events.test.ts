import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowWork } from '../../src/modules/flows/engine.js';
import { api } from '../support/api.js';
import { fixtures, ingest } from '../support/knowledge.js';
import { mailText } from '../support/smtp-server.js';
import { browser, startPeopleApp, type PeopleApp } from '../people/support.js';

/**
 * Issue 15, over real HTTP: a service event (`source.ingested` of an uploaded document) starts the
 * enabled flows of its workspace that listen to it, once, with the event's identifiers as the run's
 * input; and the `mail.send` step reaches the loopback SMTP server only after a signed-in person
 * approves, once. Background jobs are off: the test moves the engine with `runFlowWork`.
 */
let t: PeopleApp;
let ws: { workspaceId: string; userId: string; key: string };
let c: ReturnType<typeof api>;

beforeAll(async () => {
  t = await startPeopleApp();
  ws = await t.workspace({ name: 'Flow events' });
  c = api(t.baseUrl, ws.key);
});
afterAll(async () => {
  await t?.close();
});

async function makeFlow(client: ReturnType<typeof api>, name: string, graph: unknown, enabled = true): Promise<string> {
  const res = await client.post('/engine/flows', { name, graph });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.flow.id as string;
  if (enabled) expect((await client.patch(`/engine/flows/${id}`, { enabled: true })).status).toBe(200);
  return id;
}

const runsOf = async (client: ReturnType<typeof api>, flowId: string) => (await client.get(`/engine/flows/${flowId}/runs`)).body.runs as { id: string; status: string; trigger: string }[];

const eventGraph = (event: string) => ({
  nodes: [
    { key: 'on', type: 'trigger.event', config: { event } },
    { key: 'note', type: 'transform', config: { template: 'source {{input.sourceId}} ({{steps.on.name}}, {{input.event}})' } },
  ],
  edges: [{ from: 'on', to: 'note' }],
});

describe('trigger.event', () => {
  it('an ingested document starts the listening enabled flows of its workspace once, with the event identifiers', async () => {
    const listening = await makeFlow(c, 'On ingest', eventGraph('source.ingested'));
    const otherEvent = await makeFlow(c, 'On failure', eventGraph('source.failed'));
    const disabled = await makeFlow(c, 'Disabled', eventGraph('source.ingested'), false);
    const elsewhere = await t.workspace({ name: 'Other workspace' });
    const ce = api(t.baseUrl, elsewhere.key);
    const otherWorkspace = await makeFlow(ce, 'Elsewhere', eventGraph('source.ingested'));

    const source = await ingest(t as never, ws, fixtures.text(), 'refunds.txt');
    expect(source.status).toBe('ready');

    await expect
      .poll(async () => {
        await runFlowWork(t.app.services);
        return (await runsOf(c, listening)).map((r) => [r.trigger, r.status]);
      })
      .toEqual([['event', 'succeeded']]);
    const [run] = await runsOf(c, listening);
    const detail = (await c.get(`/engine/runs/${run!.id}`)).body.run;
    const trigger = detail.steps.find((s: { nodeKey: string }) => s.nodeKey === 'on').output;
    expect(trigger).toMatchObject({ event: 'source.ingested', sourceId: source.id, name: 'refunds.txt' });
    expect(trigger.eventId).toMatch(/^evt_/);
    expect(detail.steps.find((s: { nodeKey: string }) => s.nodeKey === 'note').output).toEqual({
      text: `source ${source.id} (refunds.txt, source.ingested)`,
    });

    // Once: more work and another pass of the ingestion start nothing more; the others never started.
    await runFlowWork(t.app.services);
    expect(await runsOf(c, listening)).toHaveLength(1);
    expect(await runsOf(c, otherEvent)).toHaveLength(0);
    expect(await runsOf(c, disabled)).toHaveLength(0);
    expect(await runsOf(ce, otherWorkspace)).toHaveLength(0);

    // A second document is a second event: a second run.
    const second = await ingest(t as never, ws, fixtures.markdown(), 'travel.md');
    await expect
      .poll(async () => {
        await runFlowWork(t.app.services);
        return (await runsOf(c, listening)).filter((r) => r.status === 'succeeded').length;
      })
      .toBe(2);
    const latest = (await c.get(`/engine/runs/${(await runsOf(c, listening))[0]!.id}`)).body.run;
    expect(latest.steps.find((s: { nodeKey: string }) => s.nodeKey === 'on').output.sourceId).toBe(second.id);
  });
});

describe('mail.send', () => {
  it('sends the mail through SMTP only after a signed-in person approves, once', async () => {
    const flowId = await makeFlow(
      c,
      'Mail',
      {
        nodes: [
          { key: 'start', type: 'trigger.manual' },
          { key: 'ok', type: 'approval', config: { question: 'Mail {{input.to}}?' } },
          { key: 'mail', type: 'mail.send', config: { to: '{{input.to}}', subject: 'Hello {{input.name}}', body: 'Dear {{input.name}}, run {{run.id}}.' } },
        ],
        edges: [
          { from: 'start', to: 'ok' },
          { from: 'ok', to: 'mail', when: 'approved' },
        ],
      },
      false,
    );
    const runId = (await c.post(`/engine/flows/${flowId}/run`, { input: { to: 'ada@example.test', name: 'Ada' } })).body.run.id as string;
    await runFlowWork(t.app.services);
    expect((await c.get(`/engine/runs/${runId}`)).body.run.status).toBe('waiting_approval');
    expect(t.smtp.to('ada@example.test')).toHaveLength(0);

    await t.person(ws.workspaceId, { email: 'approver@example.test', password: 'correct horse battery' });
    const person = browser(t.baseUrl, { ip: '10.7.1.1' });
    expect((await person.signIn('approver@example.test', 'correct horse battery')).status).toBe(200);
    const approval = (await c.get('/engine/approvals?status=open')).body.approvals.find((a: { runId: string }) => a.runId === runId);
    expect((await person.post(`/engine/approvals/${approval.id}/decide`, { decision: 'approve' })).status).toBe(200);

    await expect
      .poll(async () => {
        await runFlowWork(t.app.services);
        return (await c.get(`/engine/runs/${runId}`)).body.run.status;
      })
      .toBe('succeeded');
    const mails = t.smtp.to('ada@example.test');
    expect(mails).toHaveLength(1);
    expect(mailText(mails[0]!)).toContain('Subject: Hello Ada');
    expect(mailText(mails[0]!)).toContain(`Dear Ada, run ${runId}.`);
    const run = (await c.get(`/engine/runs/${runId}`)).body.run;
    expect(run.steps.find((s: { nodeKey: string }) => s.nodeKey === 'mail')).toMatchObject({ status: 'succeeded', output: { to: 'ada@example.test' } });

    // Once: more work sends nothing more.
    await runFlowWork(t.app.services);
    expect(t.smtp.to('ada@example.test')).toHaveLength(1);
  });
});
