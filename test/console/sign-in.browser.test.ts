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

describe('accepting an invitation in the console (headless Chromium)', () => {
  it('an admin invites by GraphQL; the invited person opens the console link, chooses a password and is signed in', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join, resolve } = await import('node:path');
    const { browser, linkIn } = await import('../people/support.js');
    const admin = await h.person({ role: 'admin' });
    const session = browser(h.t.baseUrl, { ip: '10.44.0.1' });
    expect((await session.signIn(admin.email, admin.password)).status).toBe(200);
    const invited = `invited-${Date.now()}@example.com`;
    const res = await session.graphql(`mutation($e: String!) { invitePerson(input: { email: $e, role: member }) { person { state } } }`, { e: invited });
    expect(res.body.data.invitePerson.person.state).toBe('invited');
    // Without SMTP the mail is a file (docs/people.md, Mail): under the data directory, or the temp directory's svc-mail/.
    const { tmpdir } = await import('node:os');
    const dir = h.t.db.dataDir.startsWith('memory://') ? join(tmpdir(), 'svc-mail') : resolve(h.t.db.dataDir, 'mail');
    const mail = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).find((m) => m.includes(invited))!;
    const { token } = linkIn(mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='));

    const page = await h.page();
    await page.goto(`/console/accept-invitation#invite=${token}`);
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Your name').fill('Cleo');
    await page.getByLabel('Choose a password').fill('short');
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    // The refusal is said under the password, which is marked and takes the focus.
    const password = page.getByLabel('Choose a password');
    await page.getByText('The password must be at least 10 characters', { exact: true }).waitFor();
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => password.evaluate((el) => el.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent))).toContain(
      'The password must be at least 10 characters',
    );
    expect(await page.getByLabel('Your name').inputValue()).toBe('Cleo');
    await page.getByLabel('Choose a password').fill('a long enough password');
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(await page.locator('.who').textContent()).toContain(invited);
  });
});

/** The newest mail to `to` from the file mailer (docs/people.md, Mail), quoted-printable undone. */
async function mailTo(to: string): Promise<string> {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const { join, resolve } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = h.t.db.dataDir.startsWith('memory://') ? join(tmpdir(), 'svc-mail') : resolve(h.t.db.dataDir, 'mail');
  const found = readdirSync(dir)
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    .map((f) => readFileSync(f, 'utf8'))
    .find((m) => m.includes(to));
  if (!found) throw new Error(`no mail to ${to}`);
  return found.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

describe('sign-in refusals and a forgotten password (headless Chromium)', () => {
  it('after 5 wrong passwords even the right one is refused with the wait in words, and the focus is on the message', async () => {
    const { email, password } = await h.person();
    const page = await h.page();
    await page.getByLabel('E-mail').fill(email);
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Password').fill(`wrong password ${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Invalid e-mail or password');
      // The message has the focus, so a screen reader reads it and the person sees where to look.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':enabled')).waitFor();
    }
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Too many attempts. Try again in 15 minutes.');
    expect(await page.getByRole('alert').textContent()).not.toContain('rate_limited');
    expect(await page.getByRole('navigation', { name: 'Sections' }).count()).toBe(0);
  });

  it('a person who forgot the password asks for a link, chooses a new password on its page and reaches the console', async () => {
    const { email, password } = await h.person();
    const page = await h.page();
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`If an account uses ${email}`);

    const { linkIn } = await import('../people/support.js');
    let mail = '';
    await expect.poll(async () => (mail = await mailTo(email).catch(() => '')), { timeout: 20_000 }).toContain('/auth/set-password#reset=');
    const { link } = linkIn(mail);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('New password').fill('my brand new password');
    await page.getByRole('button', { name: 'Save and sign in' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Done: you are signed in as ${email}.`);
    await page.getByRole('link', { name: 'Open the console' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(await page.locator('.who').textContent()).toContain(email);

    // The old password no longer opens a session; the new one does.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Invalid e-mail or password');
    await page.getByLabel('Password').fill('my brand new password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  });
});
