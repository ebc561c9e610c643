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
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Choose a password').fill('a long enough password');
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(await page.locator('.who').textContent()).toContain(invited);
  });
});
