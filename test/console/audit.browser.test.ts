import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

describe('console: the Audit screen', () => {
  it('lists the workspace’s changes for an admin, filtered by kind; a member has no Audit link', async () => {
    const { tenant, email, password } = await h.person();
    const made = await fetch(`${h.t.baseUrl}/developer/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'audited-key' }),
    });
    expect(made.status).toBe(201);
    const page = await h.signedIn(email, password, { width: 1280 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Audit', exact: true }).click();
    await page.getByRole('heading', { name: 'Audit', exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'Audit entries, newest first' });
    await table.getByText('key.created').first().waitFor();
    await table.getByText('person.signed_in').first().waitFor();
    await page.getByLabel('Show').selectOption({ label: 'API keys' });
    await expect.poll(() => table.getByText('person.signed_in').count()).toBe(0);
    expect(await table.getByText(/audited-key/).count()).toBeGreaterThan(0);
    // Details read as name: value pairs, not raw JSON, and wrap inside the table.
    expect(await table.getByText(/name: audited-key/).count()).toBeGreaterThan(0);
    expect(await table.textContent()).not.toContain('{"');
    expect(await page.getByRole('region', { name: 'Audit entries' }).evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

    const member = await h.person({ role: 'member' });
    const other = await h.signedIn(member.email, member.password, { width: 1280 });
    const nav = other.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Agents', exact: true }).waitFor();
    expect(await nav.getByRole('link', { name: 'Audit', exact: true }).count()).toBe(0);
  }, 180_000);
});
