/**
 * Release QA, task by task: bad input in each of the console's forms is said next to the field it is
 * about (marked `aria-invalid`, the message in its `aria-describedby`, the focus on it), in the form's
 * words, and nothing typed is lost; the browser's own console stays free of errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runFlowWork } from '../../src/modules/flows/engine.js';
import { createAgent, persona } from '../support/agents.js';
import { refusalOf, seriousViolations, startConsole, watchBrowserErrors, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

async function open(section: string, heading = section): Promise<{ page: Page; errors: string[]; key: string }> {
  const { tenant, email, password } = await h.person();
  const page = await h.signedIn(email, password);
  const errors = watchBrowserErrors(page);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return { page, errors, key: tenant.key };
}

/** GraphQL operations the page sends from now on, by operation name. */
function sentOperations(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (r) => {
    const m = /"operationName":"(\w+)"|(?:query|mutation|subscription) (\w+)/.exec(r.postData() ?? decodeURIComponent(r.url()));
    if (r.url().includes('/graphql') && m) sent.push(m[1] ?? m[2]);
  });
  return sent;
}

describe('bad input, task by task, said at the field (headless Chromium)', () => {
  it('a debate: rounds out of range and a single debater are refused at their fields, in the form’s words; the topic stays, no debate starts', async () => {
    const { page, errors, key } = await open('Debates');
    await createAgent(h.t, key, persona('Ada', { role: 'Tax adviser' }));
    await createAgent(h.t, key, persona('Bo', { role: 'Economist' }));
    await page.reload();
    const debaters = page.getByRole('group', { name: /Debaters/ });
    await expect.poll(() => debaters.getByRole('checkbox').count()).toBe(2);
    const sent = sentOperations(page);

    // A blank topic used to do nothing at all: now the service's refusal is said at the topic.
    const topic = page.getByLabel('Topic');
    await topic.fill('   ');
    await page.getByRole('button', { name: 'Start debate' }).click();
    await expect.poll(() => refusalOf(topic)).toEqual({ invalid: true, focused: true, described: 'Topic is required' });

    // 0 rounds used to become 1 without a word; now the browser refuses it before anything is sent.
    await topic.fill('Should VAT on books be cut?');
    const rounds = page.getByLabel('Rounds', { exact: true });
    await rounds.fill('0');
    await page.getByRole('button', { name: 'Start debate' }).click();
    expect(await rounds.evaluate((el) => (el as HTMLInputElement).validationMessage)).not.toBe('');
    expect(sent.filter((s) => s === 'DebateStream')).toHaveLength(1); // the blank topic's only

    // 9 rounds: the service's refusal, under Rounds, with the form's label.
    await rounds.fill('9');
    await page.getByRole('button', { name: 'Start debate' }).click();
    await expect.poll(() => refusalOf(rounds)).toEqual({ invalid: true, focused: true, described: 'Rounds must be between 1 and 5' });
    expect(await page.getByLabel('Topic').inputValue()).toBe('Should VAT on books be cut?');
    expect(await page.getByRole('heading', { name: 'Should VAT on books be cut?' }).count()).toBe(0); // no live debate shown

    // One debater: said on the Debaters group, whose first choice takes the focus.
    await rounds.fill('1');
    await debaters.getByRole('checkbox', { name: 'Ada' }).check();
    await page.getByRole('button', { name: 'Start debate' }).click();
    await expect.poll(() => refusalOf(debaters)).toMatchObject({ focused: true, described: 'Debaters must name at least 2 agents' });
    expect(await rounds.getAttribute('aria-invalid')).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);

  it('a chat: a question the service refuses goes back into the box, with the reason under it', async () => {
    const { page, errors, key } = await open('Chat');
    await createAgent(h.t, key, persona('Ada'));
    const question = `Is this too long? ${'x'.repeat(50_001)}`;
    const box = page.getByLabel('Message', { exact: true });
    await box.fill(question);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => refusalOf(box)).toEqual({ invalid: true, focused: true, described: 'Message must be at most 50000 characters' });
    expect(await box.inputValue()).toBe(question);
    expect(await page.getByTestId('live-answer').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 180_000);

  it('a poste on a dossier: a blank dossier name, then a run on a dossier with no document, each said at its field', async () => {
    const { page, errors } = await open('Postes');
    await page.getByRole('button', { name: 'Install Contract review' }).click();
    await page.getByTestId('template-contract-review').getByText('installed').waitFor();

    const name = page.getByLabel('Dossier name');
    await name.fill('   ');
    await page.getByRole('button', { name: 'Create dossier' }).click();
    await expect.poll(() => refusalOf(name)).toEqual({
      invalid: true,
      focused: true,
      described: 'Dossier name is required A folder of documents for one matter; upload its documents in Knowledge.',
    });
    await name.fill('Brightwell supply');
    await page.getByRole('button', { name: 'Create dossier' }).click();
    await page.getByText('Dossier Brightwell supply created', { exact: false }).waitFor();

    const poste = page.getByRole('form', { name: 'Run Contract review on a dossier' });
    await poste.getByLabel('Instructions (optional)').fill('Focus on termination.');
    await poste.getByRole('button', { name: 'Run on a dossier' }).click();
    const dossier = poste.getByLabel('Dossier', { exact: true });
    await expect.poll(() => refusalOf(dossier)).toEqual({ invalid: true, focused: true, described: 'The dossier has no ready document to run on' });
    expect(await poste.getByLabel('Instructions (optional)').inputValue()).toBe('Focus on termination.');
    expect(errors).toEqual([]);
  }, 180_000);

  it('a flow: a blank name, and a step key already taken, each said at its field', async () => {
    const { page, errors } = await open('Flows');
    const name = page.getByLabel('New flow name');
    await name.fill('  ');
    await page.getByRole('button', { name: 'Create flow' }).click();
    await expect.poll(() => refusalOf(name)).toEqual({ invalid: true, focused: true, described: 'New flow name is required' });
    await name.fill('Invoice approval');
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.getByRole('heading', { name: /Invoice approval/ }).waitFor();

    const stepKey = page.getByLabel('Step key');
    await stepKey.fill('start');
    await page.getByRole('button', { name: 'Add step' }).click();
    await expect.poll(() => refusalOf(stepKey)).toMatchObject({ invalid: true, focused: true });
    expect((await refusalOf(stepKey)).described).toMatch(/^A step is already called “start”: give this one another key\./);
    expect(await stepKey.inputValue()).toBe('start');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);

  it('a flow’s approval: a comment too long is said at that comment, which keeps it; then the decision goes through', async () => {
    const { page, errors, key } = await open('Flows');
    const graph = {
      nodes: [
        { key: 'start', type: 'trigger.manual' },
        { key: 'ok', type: 'approval', config: { question: 'Ship the refund batch?' } },
      ],
      edges: [{ from: 'start', to: 'ok' }],
    };
    const gql = async (query: string, variables: Record<string, unknown>) =>
      (
        await fetch(`${h.t.baseUrl}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        })
      ).json();
    const created = await gql(`mutation($input: CreateFlowInput!) { createFlow(input: $input) { flow { id } } }`, { input: { name: 'Refund batch', graph } });
    await gql(`mutation($id: ID!) { startFlowRun(flowId: $id) { id } }`, { id: created.data.createFlow.flow.id });
    await runFlowWork(h.t.app.services);
    const approvals = page.getByRole('list', { name: 'Approvals' });
    await approvals.getByText('Ship the refund batch?').waitFor({ timeout: 15_000 });

    const comment = page.getByLabel('Comment on “Ship the refund batch?”');
    const long = 'c'.repeat(2_001);
    await comment.fill(long);
    await page.getByRole('button', { name: 'Approve “Ship the refund batch?”' }).click();
    await expect.poll(() => refusalOf(comment)).toEqual({ invalid: true, focused: true, described: 'Comment must be at most 2000 characters' });
    expect(await comment.inputValue()).toBe(long);

    await comment.fill('Checked the totals');
    await page.getByRole('button', { name: 'Approve “Ship the refund batch?”' }).click();
    await page.getByRole('status').getByText('Decision recorded: approved').waitFor();
    expect(errors).toEqual([]);
  }, 180_000);

  it('keys and budgets: a name too long is said at the name, the scopes chosen stay; a limit beyond what is stored is refused before sending', async () => {
    const { page, errors } = await open('API keys');
    const sent = sentOperations(page);
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByRole('checkbox', { name: /knowledge/ }).check();
    const monthly = form.getByLabel('Questions per month', { exact: true });
    await monthly.fill('3000000000');
    await form.getByLabel('Key name').fill('budget');
    await form.getByRole('button', { name: 'Create key' }).click();
    expect(await monthly.evaluate((el) => (el as HTMLInputElement).validationMessage)).not.toBe('');
    expect(sent.filter((s) => s === 'CreateApiKey')).toEqual([]);

    await monthly.fill('500');
    const name = form.getByLabel('Key name');
    await name.fill('k'.repeat(201));
    await form.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => refusalOf(name)).toEqual({ invalid: true, focused: true, described: 'Key name must be at most 200 characters' });
    expect(await form.getByRole('checkbox', { name: /knowledge/ }).isChecked()).toBe(true);
    expect(await monthly.inputValue()).toBe('500');
    expect(errors).toEqual([]);
  }, 180_000);

  it('webhooks: an address the service may not call is said at the address; no event chosen is said on the events', async () => {
    const { page, errors } = await open('Webhooks');
    const form = page.getByRole('form', { name: 'New webhook' });
    const url = form.getByLabel('Endpoint URL');
    await url.fill('ftp://example.com/hooks');
    await form.getByLabel('Description').fill('Orders');
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => refusalOf(url)).toMatchObject({ invalid: true, focused: true });
    expect((await refusalOf(url)).described).toMatch(/http or https/);
    expect(await form.getByLabel('Description').inputValue()).toBe('Orders');

    await url.fill('https://example.com/hooks');
    const events = form.getByRole('group', { name: 'Events' });
    for (const box of await events.getByRole('checkbox').all()) await box.uncheck();
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => refusalOf(events)).toMatchObject({ focused: true, described: 'Choose at least one event.' });
    expect(await url.getAttribute('aria-invalid')).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);
});
