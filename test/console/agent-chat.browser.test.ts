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
  it('creates an agent with its console-only fields, then chats with it: tokens arrive live, stop cancels, the session continues', async () => {
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
});
