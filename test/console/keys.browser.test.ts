import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

describe('API keys in the console (headless Chromium)', () => {
  it('explains scopes in words, says an unscoped key is unrestricted, creates a key with an expiry, revokes it through the in-page confirmation', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();

    // Scopes in words, from the schema's enum; no legacy names offered.
    const scopes = page.getByRole('group', { name: 'Scopes' });
    await scopes.getByRole('checkbox', { name: /knowledge Documents, collections and knowledge search/ }).waitFor();
    expect(await scopes.getByRole('checkbox', { name: /^memory/ }).count()).toBe(0);

    // Unchecking every scope says, before creating, that the key would be unrestricted.
    await scopes.getByRole('checkbox', { name: /^agents/ }).uncheck();
    await scopes.getByText('No scope chosen: this key will be unrestricted and reach every part of the service.').waitFor();
    await scopes.getByRole('checkbox', { name: /^knowledge/ }).check();
    await scopes.getByText('The key reaches only what its scopes name.', { exact: false }).waitFor();

    await page.getByLabel('Key name').fill('ci-pipeline');
    await page.getByLabel('Expires on').fill('2031-06-30');
    await page.getByLabel('Read-only').check();
    await page.getByLabel('Questions per month', { exact: true }).fill('250');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByTestId('secret');
    await secret.waitFor();
    const keySecret = (await secret.textContent()) ?? '';
    expect(keySecret).toMatch(/^svc_/);
    expect((await fetch(`${h.t.baseUrl}/v1/agents`, { headers: { authorization: `Bearer ${keySecret}` } })).status).toBe(403); // scoped to knowledge
    await page.getByText('Key ci-pipeline created').waitFor(); // the success toast

    // The form is back to its defaults for the next key: not the scopes, expiry, read-only or limits of the last.
    expect(await scopes.getByRole('checkbox', { name: /^agents/ }).isChecked()).toBe(true);
    expect(await scopes.getByRole('checkbox', { name: /^knowledge/ }).isChecked()).toBe(false);
    expect(await page.getByLabel('Key name').inputValue()).toBe('');
    expect(await page.getByLabel('Expires on').inputValue()).toBe('');
    expect(await page.getByLabel('Read-only').isChecked()).toBe(false);
    expect(await page.getByLabel('Questions per month', { exact: true }).inputValue()).toBe('');

    const list = page.getByRole('list', { name: 'API keys' });
    const item = list.getByRole('listitem').filter({ hasText: 'ci-pipeline' });
    await item.getByText('Scopes: knowledge (Documents, collections and knowledge search)').waitFor();
    await item.getByText(/expires 2031-06-30 23:59/).waitFor();
    await item.getByText(/never used/).waitFor();

    expect(await seriousViolations(page)).toEqual([]);

    // Revoke: an in-page confirmation, not the browser's; Cancel keeps the key.
    await item.getByRole('button', { name: 'Revoke ci-pipeline' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke the key ci-pipeline?' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement)), 'focus stays in the dialog').toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await item.getByText('active').waitFor();

    await item.getByRole('button', { name: 'Revoke ci-pipeline' }).click();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await item.getByText('revoked', { exact: true }).waitFor();
    await page.getByText('Key ci-pipeline revoked').waitFor();
    // The secret shown at creation is gone once the key is revoked.
    expect(await page.getByTestId('secret').count()).toBe(0);

    // The key no longer works.
    expect((await fetch(`${h.t.baseUrl}/v1/agents`, { headers: { authorization: `Bearer ${keySecret}` } })).status).toBe(401);
  }, 120_000);

  it('finds a key by its name among many, at 390 px with no serious axe violation', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password, { width: 390 });
    await page.goto('/console/keys');
    for (const name of ['alpha-batch', 'beta-sync', 'gamma-report']) {
      await page.getByLabel('Key name').fill(name);
      await page.getByRole('group', { name: 'Scopes' }).getByRole('checkbox', { name: /^agents/ }).uncheck();
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByText(`Key ${name} created`).waitFor();
    }
    const list = page.getByRole('list', { name: 'API keys' });
    await list.getByText('beta-sync', { exact: true }).waitFor();
    await page.getByLabel('Search API keys').fill('gamma');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await list.getByText('gamma-report', { exact: true }).waitFor();
    await list.getByText('Unrestricted: no scope, reaches every part of the service').waitFor();
    await page.getByLabel('Search API keys').fill('nothing-like-this');
    await page.getByText('Nothing matches “nothing-like-this”.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
