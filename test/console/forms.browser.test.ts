import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalOf, startConsole, watchBrowserErrors, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

describe('bad input in the console forms (headless Chromium)', () => {
  it('names a refused field by the label the form shows, not by its API name: an agent with a blank name', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password);
    const errors = watchBrowserErrors(page);
    await page.goto('/console/agents');
    await page.getByRole('button', { name: 'New agent' }).click();
    // Blanks pass the browser's `required`; the service refuses the name.
    for (const label of ['Name', 'Role', 'Personality', 'Mission', 'Decision style', 'System prompt']) {
      await page.getByLabel(label, { exact: true }).fill(' ');
    }
    await page.getByLabel('Expertise', { exact: true }).fill('VAT\nCustoms');
    await page.getByRole('button', { name: 'Create agent' }).click();
    // Said under the Name field (exact: case-sensitive), which is marked invalid and takes the focus;
    // nothing typed is lost, and no other field is marked.
    const name = page.getByLabel('Name', { exact: true });
    await expect.poll(() => refusalOf(name)).toEqual({ invalid: true, focused: true, described: 'Name is required' });
    expect(await page.getByLabel('Expertise', { exact: true }).inputValue()).toBe('VAT\nCustoms');
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    // Corrected and sent again: the mark goes, the agent is created.
    await name.fill('Ada');
    for (const label of ['Role', 'Personality', 'Mission', 'Decision style', 'System prompt']) {
      await page.getByLabel(label, { exact: true }).fill('Tax adviser');
    }
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('list', { name: 'Agents' }).getByText('Ada', { exact: true }).waitFor();
    expect(errors).toEqual([]);
  }, 120_000);

  it('refuses a negative or fractional key limit in the form, in words, before anything is sent', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password);
    const errors = watchBrowserErrors(page);
    await page.goto('/console/keys');
    await page.getByLabel('Key name').fill('budget');
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/graphql') && (r.postData() ?? '').includes('CreateApiKey')) sent.push(r.url());
    });
    for (const bad of ['-5', '1.5']) {
      await page.getByLabel('Questions per month', { exact: true }).fill(bad);
      await page.getByRole('button', { name: 'Create key' }).click();
      const message = await page.getByLabel('Questions per month', { exact: true }).evaluate((el) => (el as HTMLInputElement).validationMessage);
      expect(message, bad).not.toBe('');
    }
    expect(sent).toEqual([]);
    await page.getByLabel('Questions per month', { exact: true }).fill('100');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Key budget created').waitFor();
    expect(errors).toEqual([]);
  }, 120_000);
});
