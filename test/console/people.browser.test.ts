import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../src/modules/people/people.service.js';
import { refusalOf, seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

describe('people and your account in the console (headless Chromium)', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: an admin invites by e-mail with a role, sees seats and the pending invitation, changes a role and removes someone through the in-page confirmation`, async () => {
      const { tenant, email, password } = await h.person();
      await createPerson({ em: h.t.app.services.orm.em.fork(), clock: h.t.clock }, tenant.workspaceId, {
        email: `grace-${width}@example.com`,
        password: 'another long password',
        role: 'member',
      });
      const page = await h.signedIn(email, password, { width });
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'People', exact: true }).click();
      await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
      // The tenant's API-key user, the admin and Grace: 3 of the 5 seats.
      await page.getByText('3 of 5 seats used · 2 available').waitFor();
      await page.getByText('No invitation waiting', { exact: false }).waitFor();
      // The API-key user has no e-mail: said in words, never shown by its id.
      const members = page.getByRole('list', { name: 'People' });
      await members.getByText('A person without an e-mail', { exact: true }).waitFor();
      expect(await members.textContent()).not.toMatch(/usr_/);
      expect(await seriousViolations(page)).toEqual([]);

      const invited = `lin-${width}@example.com`;
      await page.getByLabel('E-mail address').fill(invited);
      await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Admin: also manages people, keys and settings' });
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`${invited} invited`, { exact: true }).waitFor();
      const pending = page.getByRole('list', { name: 'Pending invitations' });
      const lin = pending.getByRole('listitem').filter({ hasText: invited });
      await lin.getByText('invited', { exact: true }).waitFor();
      expect(await lin.getByLabel(`Role of ${invited}`).inputValue()).toBe('admin');
      await page.getByText('4 of 5 seats used · 1 available').waitFor();

      // Change a role: Grace becomes an admin, and it holds after a reload.
      const people = page.getByRole('list', { name: 'People' });
      await people.getByLabel(`Role of grace-${width}@example.com`).selectOption('admin');
      await page.getByText(`grace-${width}@example.com is now an admin`).waitFor();
      await page.reload();
      await expect.poll(() => page.getByRole('list', { name: 'People' }).getByLabel(`Role of grace-${width}@example.com`).inputValue()).toBe('admin');

      // Remove Grace: the dialog names her, Cancel keeps her, Remove signs her out for good.
      await page.getByRole('button', { name: `Remove grace-${width}@example.com` }).click();
      const dialog = page.getByRole('alertdialog', { name: `Remove grace-${width}@example.com?` });
      await dialog.waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: `Remove grace-${width}@example.com` }).click();
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText(`grace-${width}@example.com removed`).waitFor();
      await expect.poll(() => page.getByRole('list', { name: 'People' }).getByText(`grace-${width}@example.com`).count()).toBe(0);
      const refused = await fetch(`${h.t.baseUrl}/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: h.t.baseUrl },
        body: JSON.stringify({ email: `grace-${width}@example.com`, password: 'another long password' }),
      });
      expect(refused.status).toBeGreaterThanOrEqual(400);

      // Withdraw the pending invitation the same way.
      await page.getByRole('button', { name: `Withdraw the invitation of ${invited}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Withdraw' }).click();
      await page.getByText(`Invitation of ${invited} withdrawn`).waitFor();
      await page.getByText('No invitation waiting', { exact: false }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    }, 150_000);
  }

  it('a person changes their own password; the wrong current one is refused in words, the new one signs in', async () => {
    const { email, password } = await h.person({ role: 'member' });
    const page = await h.signedIn(email, password);
    expect(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'People', exact: true }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { name: 'Change your password' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password', { exact: true }).fill('a fresh password 2026');
    await page.getByLabel('New password again').fill('a fresh password 2026');
    await page.getByRole('button', { name: 'Change password' }).click();
    // Said under the current password, in words, which is marked and takes the focus; what was typed stays.
    const current = page.getByLabel('Current password');
    await expect.poll(() => refusalOf(current)).toEqual({ invalid: true, focused: true, described: 'Current password is wrong' });
    expect(await page.getByLabel('New password again').inputValue()).toBe('a fresh password 2026');

    // Two new passwords that differ: said under the second, before anything is sent.
    await page.getByLabel('New password again').fill('a fresh password 2027');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => refusalOf(page.getByLabel('New password again'))).toEqual({
      invalid: true,
      focused: true,
      described: 'The two new passwords differ: type the same one twice.',
    });
    expect(await current.getAttribute('aria-invalid')).toBeNull();
    await page.getByLabel('New password again').fill('a fresh password 2026');

    await page.getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed.', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('a fresh password 2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  }, 120_000);
});
