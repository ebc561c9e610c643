import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';
import { startScriptedChatApp } from '../support/chat.js';
import { ingest } from '../support/knowledge.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';

const CONTRACT = readFileSync(new URL('../fixtures/labelled/corpus/supply-agreement-brightwell.md', import.meta.url));

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

describe('postes in the console (headless Chromium)', () => {
  it('installs a poste (the second install shows the 409), creates a dossier, runs the poste on it and sees per-item findings, verdicts and the proof', async () => {
    const { tenant, email, password } = await h.person();
    const page = await h.signedIn(email, password);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Postes', exact: true }).click();
    await page.getByText('No poste installed yet').waitFor();

    await page.getByRole('button', { name: 'Install Contract review' }).click();
    const poste = page.getByRole('article', { name: 'Contract review' });
    await poste.getByRole('list', { name: 'Checklist of Contract review' }).getByText('Limitation of liability').waitFor();
    await page.getByTestId('template-contract-review').getByText('installed').waitFor();
    await poste.getByText('No dossier to run it on').waitFor();
    await page.getByRole('button', { name: 'Install Contract review' }).click();
    await page.getByRole('alert').getByText('Poste already installed: contract-review').waitFor();
    // The message a person reads, not the machine code (kept in data-code for tools).
    expect(await page.getByRole('alert').textContent()).toBe('Poste already installed: contract-review');
    expect(await page.getByRole('alert').getAttribute('data-code')).toBe('poste_already_installed');

    await page.getByLabel('Dossier name').fill('Brightwell supply');
    await page.getByRole('button', { name: 'Create dossier' }).click();
    await page.getByRole('status').getByText('Dossier Brightwell supply created').waitFor();
    const c = api(h.t.baseUrl, tenant.key);
    const dossierId = (await c.get('/v1/dossiers')).body.dossiers[0].id as string;
    await ingest(h.t, tenant, CONTRACT, 'supply-agreement.md', { dossierId });

    // The scripted model answers the run's control points in checklist order, citing the passage the run retrieves.
    const checklist = (await poste.getByRole('list', { name: 'Checklist of Contract review' }).getByRole('listitem').allTextContents()) as string[];
    const answers: Record<string, { text: string; quote: string }> = {
      'Payment terms and late payment interest': { text: 'Invoices are paid within 45 days from the invoice date by bank transfer.', quote: 'within 45 days' },
      'Limitation of liability': { text: "Each party's total liability is capped at 100,000 EUR per contract year.", quote: 'capped at 250,000 EUR' },
    };
    for (const checkpoint of checklist) {
      const found = await c.post('/v1/knowledge/query', { query: checkpoint, collectionIds: [dossierId], topK: 5 });
      if (found.body.results.length === 0) continue;
      const answer = answers[checkpoint];
      if (!answer) {
        model.enqueue({ content: 'NOT_IN_DOCUMENTS' });
        continue;
      }
      const hit = (found.body.results as { ref: number; text: string }[]).find((r) => r.text.includes(answer.quote))!;
      model.enqueue({ content: `${answer.text} [${hit.ref}]` });
    }

    await page.reload();
    await poste.getByLabel('Dossier', { exact: true }).selectOption({ label: 'Brightwell supply (1 document)' });
    await poste.getByLabel('Instructions (optional)').fill('Focus on money.');
    await poste.getByRole('button', { name: 'Run on a dossier' }).click();
    const report = poste.getByRole('region', { name: 'Run report on Brightwell supply' });
    await report.getByRole('status').getByText('completed').waitFor({ timeout: 20_000 });

    const payment = report.getByTestId('item-Payment terms and late payment interest');
    expect(await payment.locator('.badge').textContent()).toBe('supported');
    expect(await payment.textContent()).toContain('Invoices are paid within 45 days');
    expect(await payment.getByRole('list', { name: 'Citations for Payment terms and late payment interest' }).textContent()).toContain('supply-agreement.md');
    const liability = report.getByTestId('item-Limitation of liability');
    expect(await liability.locator('.badge').textContent()).toBe('contradicted');
    expect(await liability.textContent()).toContain('1 contradicted');
    const parties = report.getByTestId('item-Parties to the agreement');
    expect(await parties.locator('.badge').textContent()).toBe('not_found');
    expect(await parties.textContent()).toContain('Not found in the dossier.');

    const proofId = (await report.getByTestId('run-proof').textContent())!;
    expect((await c.get(`/v1/proofs/${proofId}`)).status).toBe(200);
    expect((model.requests.at(-1)!.messages as { content: string }[])[0]!.content).toContain('Instructions for this run: Focus on money.');
    expect(await seriousViolations(page)).toEqual([]);

    // After a reload the run is in the history, and its report opens again.
    await page.reload();
    const past = poste.getByRole('list', { name: 'Past runs of Contract review' });
    await past.getByRole('listitem').first().waitFor();
    expect(await past.getByRole('listitem').count()).toBe(1);
    expect(await past.textContent()).toContain('completed');
    await past.getByRole('button', { name: /^Brightwell supply · / }).click();
    const again = poste.getByRole('region', { name: 'Run report on Brightwell supply' });
    expect(await again.getByTestId('run-proof').textContent()).toBe(proofId);
    expect(await again.getByTestId('item-Limitation of liability').locator('.badge').textContent()).toBe('contradicted');
  }, 120_000);
});
