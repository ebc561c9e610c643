import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';
import { startScriptedChatApp } from '../support/chat.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';

let h: ConsoleHarness;
let model: ScriptedModelServer;

beforeAll(async () => {
  const started = await startScriptedChatApp();
  model = started.model;
  h = await startConsole({ app: started.t });
});
afterAll(async () => {
  await h?.close();
  await h?.t.close();
  await model?.close();
});

describe('agents and chat in the console (headless Chromium)', () => {
  it('creates an agent with its console-only fields, then chats with it: tokens arrive live, stop cancels and keeps the turn, the session continues', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password);

    await page.getByText('No agents yet').waitFor();
    await page.getByRole('button', { name: 'New agent' }).click();
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Role').fill('Tax adviser');
    await page.getByLabel('Personality').fill('calm and precise');
    await page.getByLabel('Mission').fill('Answer VAT questions');
    await page.getByLabel('Decision style').fill('cites the rule first');
    await page.getByLabel('System prompt').fill('Be brief.');
    await page.getByLabel('Expertise').fill('VAT\nPayroll');
    await page.getByLabel('Out of scope').fill('Legal advice');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('list', { name: 'Agents' }).getByText('Expertise: VAT, Payroll').waitFor();

    await page.getByRole('link', { name: 'Chat with Ada' }).click();
    await page.getByLabel('Agent', { exact: true }).waitFor();
    await expect.poll(() => page.getByLabel('Agent', { exact: true }).inputValue()).not.toBe('');

    // First turn: pieces stream, then the model goes silent: the pieces are on screen while the turn is still open.
    model.enqueue({ chunks: ['VAT is ', 'charged at ', 'twenty percent'], hang: true });
    await page.getByLabel('Message').fill('What is the VAT rate?');
    await page.getByRole('button', { name: 'Send' }).click();
    const live = page.getByTestId('live-answer').last();
    await expect.poll(() => live.textContent()).toContain('VAT is ');
    await expect.poll(() => live.textContent()).toContain('VAT is charged at twenty percent');
    expect(await live.getAttribute('aria-busy')).toBe('true');
    expect(await page.getByRole('button', { name: 'Stop' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Stop' }).click();
    await live.getByText('stopped').waitFor();
    expect(await live.getAttribute('aria-busy')).toBe('false');
    // Stopping closed the stream's request: the service is answering nothing any more.
    await expect.poll(() => h.t.openRequests).toBe(0);

    // Second turn completes: the session is kept in the address and the list.
    model.enqueue({ chunks: ['Reduced ', 'rates exist.'] });
    await page.getByLabel('Message').fill('Any reduced rate?');
    await page.getByRole('button', { name: 'Send' }).click();
    const second = page.getByTestId('live-answer').nth(1);
    await expect.poll(() => second.getAttribute('aria-busy')).toBe('false');
    expect(await second.textContent()).toContain('Reduced rates exist.');
    await expect.poll(() => page.url()).toMatch(/\/console\/chat\/[^/]+$/);
    const sessionUrl = page.url();

    // Continue after a reload: the history is there and a third turn goes to the same session.
    await page.reload();
    await page.getByText('Reduced rates exist.').waitFor();
    // The stopped first turn was kept in this session: its question and what had streamed, marked stopped.
    const storedAnswers = page.getByTestId('stored-answer');
    await expect.poll(() => storedAnswers.count()).toBe(2);
    expect(await page.locator('.msg.user').first().textContent()).toContain('What is the VAT rate?');
    expect(await storedAnswers.first().textContent()).toContain('VAT is charged at twenty percent');
    await storedAnswers.first().getByText('stopped', { exact: true }).waitFor();
    expect(await storedAnswers.nth(1).getByText('stopped', { exact: true }).count()).toBe(0);
    model.enqueue({ chunks: ['Yes, ', 'for food.'] });
    await page.getByLabel('Message').fill('Which goods?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('live-answer').last().textContent()).toContain('Yes, for food.');
    const last = model.requests.at(-1)!;
    const sent = JSON.stringify(last.messages);
    expect(sent).toContain('Any reduced rate?');
    expect(page.url()).toBe(sessionUrl);
    expect(await seriousViolations(page)).toEqual([]);

    // New chat from a reopened session: an empty transcript, and the next message starts another session.
    const sessions = page.getByRole('complementary', { name: 'Sessions' });
    await page.getByRole('link', { name: 'New chat' }).click();
    await expect.poll(() => page.url()).toMatch(/\/console\/chat$/);
    await expect.poll(() => page.getByText('Yes, for food.').count()).toBe(0);
    expect(await page.getByText('Reduced rates exist.').count()).toBe(0);
    model.enqueue({ chunks: ['Standard ', 'rate first.'] });
    await page.getByLabel('Message').fill('Start over: what is VAT?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('live-answer').last().textContent()).toContain('Standard rate first.');
    expect(JSON.stringify(model.requests.at(-1)!.messages)).not.toContain('Any reduced rate?');
    await expect.poll(() => page.url()).toMatch(/\/console\/chat\/[^/]+$/);
    const secondUrl = page.url();
    expect(secondUrl).not.toBe(sessionUrl);
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);

    // New chat right after a first conversation (no reload in between): the transcript goes, and so does the session.
    await page.getByRole('link', { name: 'New chat' }).click();
    await expect.poll(() => page.getByTestId('live-answer').count()).toBe(0);
    model.enqueue({ chunks: ['A third ', 'session.'] });
    await page.getByLabel('Message').fill('And a third topic?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('live-answer').last().textContent()).toContain('A third session.');
    expect(await page.getByTestId('live-answer').count()).toBe(1);
    expect(JSON.stringify(model.requests.at(-1)!.messages)).not.toContain('Start over: what is VAT?');
    await expect.poll(() => page.url()).toMatch(/\/console\/chat\/[^/]+$/);
    expect(page.url()).not.toBe(secondUrl);
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(3);
  }, 120_000);

  it('after a reload the answer keeps what made it: [1] opens the cited passage, tokens, proof and stages on request', async () => {
    const { tenant, email, password } = await h.person();
    const { createAgent } = await import('../support/agents.js');
    const { ingest } = await import('../support/knowledge.js');
    const cleo = await createAgent(h.t, tenant.key, { name: 'Cleo', role: 'Care lead', personality: 'calm', mission: 'Answer refund questions', decisionStyle: 'evidence first', systemPrompt: 'Cite.' });
    const source = await ingest(h.t, tenant, Buffer.from('# Refunds\n\nRefunds are granted within 30 days of purchase, on the original payment method.\n'), 'customer-policy.md');
    const linked = await fetch(`${h.t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `mutation($a: ID!, $s: String) { linkKnowledge(agentId: $a, sourceId: $s) { agentId } }`, variables: { a: cleo, s: source.id } }),
    });
    expect((await linked.json()).data.linkKnowledge.agentId).toBe(cleo);
    const page = await h.signedIn(email, password);
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Cleo' });
    model.enqueue({ chunks: ['Refunds are granted ', 'within 30 days [1].'] });
    await page.getByLabel('Message').fill('Can I get a refund after three weeks?');
    await page.getByRole('button', { name: 'Send' }).click();
    const live = page.getByTestId('live-answer');
    await expect.poll(() => live.getAttribute('aria-busy')).toBe('false');
    await live.getByRole('button', { name: 'Open cited passage 1' }).waitFor();
    const proof = /proof (prf_\S+)/.exec((await live.textContent())!)![1];
    await expect.poll(() => page.url()).toMatch(/\/console\/chat\/[^/]+$/);

    await page.reload();
    const stored = page.getByTestId('stored-answer');
    await stored.getByText('within 30 days').waitFor();
    await stored.getByRole('button', { name: 'Open cited passage 1' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('customer-policy.md').waitFor();
    expect(await dialog.textContent()).toContain('Refunds are granted within 30 days of purchase');
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await stored.textContent()).toContain(`proof ${proof}`);
    expect(await stored.textContent()).toMatch(/\d+ tokens/);
    // The stages are there on request only.
    expect(await stored.getByText('generation:').isVisible()).toBe(false);
    await stored.getByText('Stages').click();
    await expect.poll(() => stored.getByText(/generation: \d+ ms/).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
  it('renders an answer as sanitised Markdown (list, table, code with a copy button), copies, regenerates, keeps stages behind a toggle, links the proof, finds sessions by title', async () => {
    const { tenant, email, password } = await h.person();
    const { createAgent } = await import('../support/agents.js');
    await createAgent(h.t, tenant.key, { name: 'Dora', role: 'Writer', personality: 'plain', mission: 'Format answers', decisionStyle: 'tidy', systemPrompt: 'Use Markdown.' });
    const page = await h.signedIn(email, password);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Dora' });
    model.enqueue({
      chunks: [
        'Steps:\n\n- first step\n- second step\n\n',
        '| Rate | Value |\n| --- | --- |\n| standard | 20% |\n\n',
        '```\nvat = price * 0.2\n```\n\n<img src=x onerror="window.__hacked=1"><script>window.__hacked=2</script>done',
      ],
    });
    await page.getByLabel('Message').fill('Format the VAT steps');
    await page.getByRole('button', { name: 'Send' }).click();
    const live = page.getByTestId('live-answer').last();
    await expect.poll(() => live.getAttribute('aria-busy')).toBe('false');
    await live.getByRole('listitem').filter({ hasText: 'second step' }).waitFor();
    await live.getByRole('table').getByRole('cell', { name: '20%' }).waitFor();
    expect(await live.locator('img, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __hacked?: number }).__hacked)).toBeUndefined();

    await live.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('vat = price * 0.2\n');
    await live.getByRole('button', { name: 'Copy the answer' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('second step');

    // Stages only on request, outside any live region.
    const stages = live.getByText(/generation: /);
    expect(await stages.first().isVisible()).toBe(false);
    await live.getByText('Stages', { exact: true }).click();
    await expect.poll(() => stages.first().isVisible()).toBe(true);
    expect(await live.locator('[aria-live]').count()).toBe(0);

    // Regenerate asks the same question again.
    model.enqueue({ chunks: ['A second take.'] });
    await live.getByRole('button', { name: 'Regenerate' }).click();
    await expect.poll(() => page.getByTestId('live-answer').last().textContent()).toContain('A second take.');
    expect(await page.locator('.msg.user').filter({ hasText: 'Format the VAT steps' }).count()).toBe(2);

    expect(await seriousViolations(page)).toEqual([]);

    // The proof id links to the proof's page.
    const proofLink = page.getByTestId('live-answer').last().getByRole('link', { name: /^Proof prf_/ });
    const proofHref = await proofLink.getAttribute('href');
    expect(proofHref).toMatch(/^\/console\/proofs\/prf_/);

    // Sessions are dated and searchable.
    model.enqueue({ chunks: ['Other topic.'] });
    await page.getByRole('link', { name: 'New chat' }).click();
    await page.getByLabel('Message').fill('Payroll calendar');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('live-answer').last().textContent()).toContain('Other topic.');
    const sessions = page.getByRole('complementary', { name: 'Sessions' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    expect(await sessions.locator('time').count()).toBe(2);
    await sessions.getByLabel('Search sessions').fill('payroll');
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    await sessions.getByRole('link', { name: 'Payroll calendar' }).waitFor();
    await page.goto(proofHref!);
    await expect.poll(() => page.url()).toContain('/console/proofs/prf_');
  }, 150_000);
  it('sessions are renamed in place and deleted after an in-page confirmation, with toasts; a turn stopped in a session is there after a reload', async () => {
    const { tenant, email, password } = await h.person();
    const { createAgent } = await import('../support/agents.js');
    await createAgent(h.t, tenant.key, { name: 'Eve', role: 'Planner', personality: 'brisk', mission: 'Plan things', decisionStyle: 'short', systemPrompt: 'Be short.' });
    const page = await h.signedIn(email, password);
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Eve' });
    model.enqueue({ chunks: ['Start with ', 'a budget.'] });
    await page.getByLabel('Message').fill('How do I plan a launch?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('live-answer').last().getAttribute('aria-busy')).toBe('false');
    await expect.poll(() => page.url()).toMatch(/\/console\/chat\/[^/]+$/);

    // Stop a second turn of this session, then reload: the question and the partial answer are there.
    model.enqueue({ chunks: ['First, ', 'book the venue'], hang: true });
    await page.getByLabel('Message').fill('And the venue?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('live-answer').last().textContent()).toContain('First, book the venue');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByTestId('live-answer').last().getByText('stopped').waitFor();
    await expect.poll(() => h.t.openRequests).toBe(0);
    const stored = page.getByTestId('stored-answer');
    await expect
      .poll(async () => {
        await page.reload();
        await stored.first().waitFor();
        return stored.count();
      })
      .toBe(2);
    expect(await page.locator('.msg.user').nth(1).textContent()).toContain('And the venue?');
    expect(await stored.nth(1).textContent()).toContain('First, book the venue');
    await stored.nth(1).getByText('stopped', { exact: true }).waitFor();

    const sessions = page.getByRole('complementary', { name: 'Sessions' });
    await sessions.getByRole('link', { name: 'How do I plan a launch?' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Rename in place: Escape cancels, Save renames, a toast says so, the heading follows.
    await sessions.getByRole('button', { name: 'Rename session How do I plan a launch?' }).click();
    const title = sessions.getByLabel('New title for “How do I plan a launch?”');
    await title.fill('Ignored');
    await title.press('Escape');
    await sessions.getByRole('link', { name: 'How do I plan a launch?' }).waitFor();
    await sessions.getByRole('button', { name: 'Rename session How do I plan a launch?' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await title.fill('   ');
    expect(await sessions.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await title.fill('Launch plan');
    await sessions.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Session renamed to “Launch plan”').waitFor();
    await sessions.getByRole('link', { name: 'Launch plan' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Launch plan' }).waitFor();
    await page.reload();
    await page.getByRole('complementary', { name: 'Sessions' }).getByRole('link', { name: 'Launch plan' }).waitFor();

    // A second session, then delete the first: confirmed in the page (Cancel keeps it), a toast, gone after a reload.
    await page.getByRole('link', { name: 'New chat' }).click();
    model.enqueue({ chunks: ['Another topic.'] });
    await page.getByLabel('Message').fill('Hiring plan');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('live-answer').last().textContent()).toContain('Another topic.');
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    await sessions.getByRole('link', { name: 'Launch plan' }).click();
    await page.getByRole('heading', { level: 1, name: 'Launch plan' }).waitFor();
    await sessions.getByRole('button', { name: 'Delete session Launch plan' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the session “Launch plan”?' });
    await confirm.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await sessions.getByRole('listitem').count()).toBe(2);
    await sessions.getByRole('button', { name: 'Delete session Launch plan' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Session “Launch plan” deleted').waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    // The open session was the deleted one: the page goes back to a new chat.
    await expect.poll(() => page.url()).toMatch(/\/console\/chat$/);
    await page.reload();
    await page.getByRole('complementary', { name: 'Sessions' }).getByRole('link', { name: 'Hiring plan' }).waitFor();
    expect(await page.getByRole('complementary', { name: 'Sessions' }).getByRole('link', { name: 'Launch plan' }).count()).toBe(0);
  }, 150_000);
});
