import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, persona } from '../support/agents.js';
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

describe('debates in the console (headless Chromium)', () => {
  it('explains the devil’s advocate where a debate is set up, never offers it as a debater, seats it, and names who holds a disagreement', async () => {
    const { tenant, email, password } = await h.person();
    await createAgent(h.t, tenant.key, persona('Ada', { role: 'Tax adviser', mission: 'Argue for lower VAT' }));
    await createAgent(h.t, tenant.key, persona('Bo', { role: 'Economist', mission: 'Argue for stable budgets' }));
    const page = await h.signedIn(email, password);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Debates', exact: true }).click();
    await page.getByRole('heading', { name: 'Debates', level: 1 }).waitFor();

    // No devil's advocate yet: the form says what the role is and that the first debate creates one.
    const explained = page.getByTestId('devils-advocate-explained');
    await explained.getByText(/speaks last in every round: it argues against the view the others are converging on/).waitFor();
    expect(await explained.textContent()).toContain('the first debate creates one');
    const debaters = page.getByRole('group', { name: /Debaters/ });
    await expect.poll(() => debaters.getByRole('checkbox').count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);

    // One round: Ada, Bo, then the devil's advocate the debate creates, then the moderator's synthesis.
    model.enqueue({ content: 'Lower VAT helps households.' });
    model.enqueue({ content: 'Budgets need the revenue.' });
    model.enqueue({ content: 'Weakest point: nobody priced the cut.' });
    model.enqueue({
      content: JSON.stringify({ agreements: ['Prices matter'], disagreements: [{ point: 'Whether the cut was priced', heldBy: ["Devil's Advocate"] }], recommendation: 'Price the cut first', confidence: 0.6 }),
    });
    await page.getByLabel('Topic').fill('Should we lower VAT on food?');
    await page.getByRole('button', { name: 'Start debate' }).click();
    await page.getByText('Weakest point: nobody priced the cut.').first().waitFor({ timeout: 30_000 });
    await page.getByText("· devil's advocate").first().waitFor();
    // The synthesis names who holds a disagreement, never by id (live, then in the past debates).
    await expect.poll(() => page.getByTestId('synthesis').first().textContent()).toContain("Whether the cut was priced (held by Devil's Advocate)");
    await expect.poll(() => page.getByTestId('synthesis').count()).toBe(2);
    for (const synthesis of await page.getByTestId('synthesis').all()) expect(await synthesis.textContent()).not.toMatch(/agt_/);

    // Now the workspace has its devil's advocate: named in the explanation, still not offered as a debater.
    await page.reload();
    await expect.poll(() => explained.textContent()).toContain("This workspace's devil's advocate, Devil's Advocate, takes that seat in every debate");
    expect(await debaters.getByRole('checkbox').count()).toBe(2);
    expect(await debaters.getByText("Devil's Advocate").count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
