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
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2); // React Flow draws edges only once the nodes are measured

    await page.getByRole('button', { name: 'Run now' }).click();
    const log = page.getByTestId('run-log');
    await log.waitFor();
    await runFlowWork(h.t.app.services);
    await expect.poll(() => log.textContent()).toContain('approval_requested ok');
    // The runs list follows the run on screen: it is waiting too, not left at "queued".
    const runList = page.getByRole('list', { name: 'Runs of Refund batch' });
    await expect.poll(() => runList.getByRole('listitem').first().textContent()).toContain('waiting_approval');
    // The inbox is live: the approval is there without a reload.
    const approvals = page.getByRole('list', { name: 'Approvals' });
    await approvals.getByText('Ship the refund batch?').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Comment on “Ship the refund batch?”').fill('Checked the totals');
    await page.getByRole('button', { name: 'Approve “Ship the refund batch?”' }).click();
    await page.getByRole('status').getByText('Decision recorded: approved').waitFor();
    await page.getByText('Nothing to decide.').waitFor();

    await runFlowWork(h.t.app.services);
    await expect.poll(() => runList.getByRole('listitem').first().textContent(), { timeout: 15_000 }).toContain('succeeded');
    const runs = await gql(`query($id: ID!) { flowRuns(flowId: $id) { id status } }`, { id: flowId });
    expect(runs.data.flowRuns[0].status).toBe('succeeded');
    const approval = await gql(`{ flowApprovals { status comment decidedBy } }`, {});
    expect(approval.data.flowApprovals[0]).toMatchObject({ status: 'approved', comment: 'Checked the totals' });

    // A run started elsewhere (here by an API key) reaches the open inbox without any action on the page.
    await gql(`mutation($id: ID!) { startFlowRun(flowId: $id) { id } }`, { id: flowId });
    await runFlowWork(h.t.app.services);
    await approvals.getByText('Ship the refund batch?').waitFor({ timeout: 15_000 });
  });

  it('builds an approval flow entirely in the UI, runs it, approves it from the live inbox, then exports and imports it', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password);
    await page.getByRole('link', { name: 'Flows' }).click();
    await page.getByLabel('New flow name').fill('Refund approval');
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.getByRole('heading', { name: /Refund approval/ }).waitFor();

    // An approval step after the start, added with the keyboard-reachable form and connected at once.
    await page.getByLabel('Steps', { exact: true }).selectOption('start');
    await page.getByLabel('Step type').selectOption('approval');
    await page.getByLabel('Step key').fill('manager_ok');
    await page.getByRole('button', { name: 'Add step' }).click();
    const inspector = page.getByRole('region', { name: 'Step “manager_ok”' });
    await inspector.waitFor();
    expect(await inspector.getByText('→').count()).toBe(0);
    // Saving before the question is given: the problem is on the step, not a server code.
    await page.getByRole('button', { name: 'Save graph' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Fix the problems shown on the steps first (1).');
    await page.locator('.react-flow__node', { hasText: 'manager_ok' }).getByText('⚠ 1 problem').waitFor();
    await inspector.getByText('Question is required').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await inspector.getByLabel('Question (required)').fill('Refund 120 EUR to Ada?');
    await expect.poll(() => page.getByText('⚠ 1 problem').count()).toBe(0);

    // A text composed once approved, connected from the approval on its "approved" branch.
    await page.getByLabel('Step type').selectOption('transform');
    await page.getByLabel('Step key').fill('done');
    await page.getByRole('button', { name: 'Add step' }).click();
    const done = page.getByRole('region', { name: 'Step “done”' });
    await done.getByLabel('Template (required)').fill('approved by {{steps.manager_ok.decidedBy}}');
    await page.getByRole('button', { name: 'Save graph' }).click();
    await page.getByRole('heading', { name: /Refund approval v2/ }).waitFor();
    await expect.poll(() => page.locator('.react-flow__node').allTextContents()).toEqual(['start · trigger.manual', 'manager_ok · approval', 'done · transform']);
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2); // React Flow draws edges only once the nodes are measured
    await page.getByLabel('Steps', { exact: true }).selectOption('manager_ok');
    await page.getByRole('region', { name: 'Step “manager_ok”' }).getByText('→ done when approved').waitFor();

    // Run it; the approval reaches the inbox live; approve it; the run's steps show their outputs.
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByTestId('run-log').waitFor();
    await runFlowWork(h.t.app.services);
    await page.getByRole('list', { name: 'Approvals' }).getByText('Refund 120 EUR to Ada?').waitFor();
    await page.getByRole('button', { name: 'Approve “Refund 120 EUR to Ada?”' }).click();
    await page.getByRole('status').getByText('Decision recorded: approved').waitFor();
    await runFlowWork(h.t.app.services);
    await expect.poll(() => page.getByTestId('run-log').textContent(), { timeout: 15_000 }).toContain('run_finished');
    await page.getByText('Output of done').click();
    await expect.poll(() => page.locator('pre.output').last().textContent()).toContain(`approved by`);

    // Export writes the flow document; importing it makes a second, disabled flow with the same steps.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe('Refund-approval.flow.json');
    const { readFileSync } = await import('node:fs');
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(exported).toMatchObject({ format: 'service.flow/v1', name: 'Refund approval' });
    expect(exported.graph.nodes.map((n: { key: string }) => n.key)).toEqual(['start', 'manager_ok', 'done']);
    await page.getByLabel('Import a flow document').setInputFiles((await download.path())!);
    await page.getByRole('status').getByText(/as a new flow, disabled until you enable it/).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Refund approval' }).count()).toBe(2);
    const enabled = page.getByRole('checkbox', { name: 'Enabled' });
    expect(await enabled.isChecked()).toBe(false);
    await enabled.click();
    await expect.poll(() => enabled.isChecked()).toBe(true);
    await page.getByText('Enabled: its schedule, webhook and event triggers start runs.').waitFor();
  }, 120_000);
  it('keeps the steps where they were dragged: Save graph stores their positions, a reload shows them there', async () => {
    const { tenant, email, password } = await h.person();
    const gql = async (query: string, variables: Record<string, unknown>) =>
      (
        await fetch(`${h.t.baseUrl}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        })
      ).json();
    const created = await gql(`mutation($input: CreateFlowInput!) { createFlow(input: $input) { flow { id } } }`, { input: { name: 'Placed steps', graph: GRAPH } });
    const flowId = created.data.createFlow.flow.id;
    const page = await h.signedIn(email, password);
    const open = async () => {
      await page.getByRole('link', { name: 'Flows' }).click();
      await page.getByRole('button', { name: 'Placed steps' }).click();
      await page.locator('.react-flow__node').nth(2).waitFor();
    };
    // Where React Flow draws a node, in the graph's own units (the canvas's zoom and scroll aside).
    const placeOf = async (key: string) => {
      const transform = await page.locator(`.react-flow__node[data-id="${key}"]`).evaluate((el) => (el as HTMLElement).style.transform);
      const [, x, y] = /translate\(([-\d.]+)px,\s*([-\d.]+)px\)/.exec(transform)!;
      return { x: Math.round(Number(x)), y: Math.round(Number(y)) };
    };
    await open();
    await page.getByText('Drag a step to place it; Save graph keeps the steps where they are.').waitFor();
    const before = await placeOf('done');
    const start = await placeOf('start');

    // Drag "done" to the right and down.
    const box = (await page.locator('.react-flow__node[data-id="done"]').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 40, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await placeOf('done')).x).toBeGreaterThan(before.x + 20);
    const moved = await placeOf('done');
    expect(moved.y).toBeGreaterThan(before.y);

    await page.getByRole('button', { name: 'Save graph' }).click();
    await page.getByRole('heading', { name: /Placed steps v2/ }).waitFor();
    const stored = await gql(`query($id: ID!) { flowExport(id: $id) }`, { id: flowId });
    const positions = Object.fromEntries(stored.data.flowExport.graph.nodes.map((n: { key: string; position: unknown }) => [n.key, n.position]));
    expect(positions.done).toEqual(moved);
    expect(positions.start).toEqual(start);

    await page.reload();
    await open();
    expect(await placeOf('done')).toEqual(moved);
    expect(await placeOf('start')).toEqual(start);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
