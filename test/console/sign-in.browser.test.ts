import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

describe('console sign-in (headless Chromium)', () => {
  it('refuses wrong credentials with the catalogue message, signs in, survives a reload and signs out', async () => {
    const { email, password } = await h.person();
    const page = await h.page();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Invalid e-mail or password');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(await page.locator('.who').textContent()).toContain(email);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'svc_session')?.httpOnly).toBe(true);

    await page.reload();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => page.url()).toMatch(/\/console\/webhooks$/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
});
