import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowWork } from '../../src/modules/flows/engine.js';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

const GRAPH = {
  nodes: [
    { key: 'start', type: 'trigger.manual' },
    { key: 'ok', type: 'approval', config: { question: 'Ship the refund batch?' } },
    { key: 'done', type: 'transform', config: { template: 'approved by {{steps.ok.decidedBy}}' } },
  ],
  edges: [
    { from: 'start', to: 'ok' },
    { from: 'ok', to: 'done' },
  ],
};

describe('flows in the console (headless Chromium)', () => {
  it('shows the graph, a run waiting on an approval, and lets the signed-in person decide it', async () => {
    const { tenant, email, password } = await h.person();
    const gql = async (query: string, variables: Record<string, unknown>) =>
      (
        await fetch(`${h.t.baseUrl}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        })
      ).json();
    const created = await gql(`mutation($input: CreateFlowInput!) { createFlow(input: $input) { flow { id } } }`, { input: { name: 'Refund batch', graph: GRAPH } });
    const flowId = created.data.createFlow.flow.id;

    const page = await h.signedIn(email, password);
    await page.getByRole('link', { name: 'Flows' }).click();
    await page.getByText('Nothing to decide.').waitFor();
    await page.getByRole('button', { name: 'Refund batch' }).click();
    await page.locator('.react-flow__node').nth(2).waitFor();
    expect(await page.locator('.react-flow__node').allTextContents()).toEqual(['start · trigger.manual', 'ok · approval', 'done · transform']);
    expect(await page.locator('.react-flow__edge').count()).toBe(2);

    await page.getByRole('button', { name: 'Run now' }).click();
    const log = page.getByTestId('run-log');
    await log.waitFor();
    await runFlowWork(h.t.app.services);
    await expect.poll(() => log.textContent()).toContain('approval_requested ok');
    // The inbox is live: the approval is there without a reload.
    const approvals = page.getByRole('list', { name: 'Approvals' });
    await approvals.getByText('Ship the refund batch?').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Comment on “Ship the refund batch?”').fill('Checked the totals');
    await page.getByRole('button', { name: 'Approve “Ship the refund batch?”' }).click();
    await page.getByRole('status').getByText('Decision recorded: approved').waitFor();
    await page.getByText('Nothing to decide.').waitFor();

    await runFlowWork(h.t.app.services);
    const runs = await gql(`query($id: ID!) { flowRuns(flowId: $id) { id status } }`, { id: flowId });
    expect(runs.data.flowRuns[0].status).toBe('succeeded');
    const approval = await gql(`{ flowApprovals { status comment decidedBy } }`, {});
    expect(approval.data.flowApprovals[0]).toMatchObject({ status: 'approved', comment: 'Checked the totals' });

    // A run started elsewhere (here by an API key) reaches the open inbox without any action on the page.
    await gql(`mutation($id: ID!) { startFlowRun(flowId: $id) { id } }`, { id: flowId });
    await runFlowWork(h.t.app.services);
    await approvals.getByText('Ship the refund batch?').waitFor({ timeout: 15_000 });
  });
});
