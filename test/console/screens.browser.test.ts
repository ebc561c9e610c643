import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

/** Every section of the navigation (the screens a signed-in admin reaches). */
const SCREENS = ['Agents', 'Chat', 'Debates', 'Flows', 'Knowledge', 'Postes', 'Webhooks', 'Usage', 'API keys', 'Proofs', 'Audit', 'People', 'Your account'];

/** Content on every screen that lists something, so axe and the width check see rows, not only empty states. */
async function seed(baseUrl: string, key: string): Promise<void> {
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = await res.json();
    expect(body.errors, query).toBeUndefined();
    return body.data;
  };
  // A document, so Knowledge shows its list (it once widened the page to 569 px at 390).
  await gql(`mutation($input: UploadKnowledgeSourceInput!) { uploadKnowledgeSource(input: $input) { id } }`, {
    input: { filename: 'refund-policy-for-every-country-2026.md', mimeType: 'text/markdown', contentBase64: Buffer.from('# Refunds\n\nWithin 30 days.\n').toString('base64') },
  });
  await gql(`mutation($input: CreateAgentInput!) { createAgent(input: $input) { id } }`, {
    input: { name: 'Ada Lovelace-Byron of the Analytical Engine', role: 'Tax adviser', personality: 'calm', mission: 'Answer VAT questions', decisionStyle: 'rule first', systemPrompt: 'Be brief.' },
  });
  await gql(`mutation($input: CreateFlowInput!) { createFlow(input: $input) { flow { id } } }`, {
    input: {
      name: 'Refund approval with a rather long name for narrow screens',
      graph: {
        nodes: [
          { key: 'start', type: 'trigger.manual' },
          { key: 'ok', type: 'approval', config: { question: 'Refund?' } },
        ],
        edges: [{ from: 'start', to: 'ok' }],
      },
    },
  });
  await gql(`mutation($input: CreateDossierInput!) { createDossier(input: $input) { id } }`, { input: { name: 'Lease 2026' } });
}

describe('every screen at 1280 px and 390 px (headless Chromium)', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: the pages before signing in and every section, with content: nothing wider than the window, no serious or critical axe violation`, async () => {
      const { tenant, email, password } = await h.person();
      await seed(h.t.baseUrl, tenant.key);
      const fits = async (page: Page, name: string) => {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), name).toEqual([]);
      };

      // Before signing in: the sign-in form, a refused sign-in, "Forgot your password?", an invitation link, the set-password page.
      const out = await h.page({ width });
      await out.getByRole('heading', { name: 'Sign in' }).waitFor();
      await fits(out, 'sign-in');
      await out.getByLabel('E-mail').fill(email);
      await out.getByLabel('Password').fill('wrong password');
      await out.getByRole('button', { name: 'Sign in' }).click();
      await out.getByRole('alert').waitFor();
      await fits(out, 'sign-in refused');
      await out.getByRole('button', { name: 'Forgot your password?' }).click();
      await out.getByRole('heading', { name: 'Reset your password' }).waitFor();
      await fits(out, 'forgot password');
      await out.goto('/console/accept-invitation#invite=not-a-real-token');
      await out.locator('main h1').first().waitFor();
      await fits(out, 'accept invitation');
      await out.goto('/auth/set-password#reset=not-a-real-token');
      await out.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      // A reset link asks for the password only (the e-mail row is the first admin's invitation's).
      expect(await out.getByLabel('E-mail').isVisible()).toBe(false);
      await out.getByLabel('New password').waitFor();
      await fits(out, 'set password');

      const page = await h.signedIn(email, password, { width });
      // A webhook is its creator's: made with the person's own session.
      const made = await page.request.post('/graphql', {
        headers: { origin: h.t.baseUrl, 'content-type': 'application/json' },
        data: {
          query: `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }`,
          variables: { input: { url: 'http://127.0.0.1:9/a/very/long/path/for/narrow/screens/receiver', events: ['source.ingested'] } },
        },
      });
      expect((await made.json()).data.createWebhook.secret).toBeTruthy();
      for (const name of SCREENS) {
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
        await page.locator('main h1').first().waitFor();
        await expect.poll(() => page.locator('main').getByText('Loading…').count(), { message: name }).toBe(0);
        if (name === 'Knowledge') await page.getByRole('listitem', { name: 'refund-policy-for-every-country-2026.md', exact: true }).waitFor();
        if (name === 'Agents') await page.getByText('Ada Lovelace-Byron of the Analytical Engine').first().waitFor();
        if (name === 'Webhooks') await page.getByText('http://127.0.0.1:9/a/very/long/path/for/narrow/screens/receiver').first().waitFor();
        await fits(page, name);
        if (name === 'Flows') {
          // The editor with its inspector open.
          await page.getByRole('button', { name: 'Refund approval with a rather long name for narrow screens' }).click();
          await page.locator('.react-flow__node').nth(1).waitFor();
          await page.getByLabel('Steps', { exact: true }).selectOption('ok');
          await page.getByRole('region', { name: 'Step “ok”' }).waitFor();
          await fits(page, 'Flows editor and inspector');
        }
      }
    }, 180_000);
  }

  it('reaches the sections and their first action with the keyboard alone', async () => {
    const { email, password } = await h.person();
    const page = await h.page();
    await page.getByLabel('E-mail').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    // Tab from the top of the page to the Webhooks link, open it, then reach the URL field.
    let guard = 0;
    while (!(await page.evaluate(() => document.activeElement?.textContent === 'Webhooks')) && guard++ < 30) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    guard = 0;
    while (!(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type === 'url')) && guard++ < 30) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent)).toBe('Endpoint URL');
  });
});
