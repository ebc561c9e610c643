import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

const SCREENS = ['Agents', 'Chat', 'Debates', 'Flows', 'Knowledge', 'Postes', 'Webhooks', 'Usage', 'API keys', 'Proofs', 'Audit'];

describe('every screen at 1280 px and 390 px (headless Chromium)', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: reachable from the navigation, an empty state or content, nothing wider than the window, no serious axe violation`, async () => {
      const { tenant, email, password } = await h.person();
      // A document, so Knowledge shows its table (it once widened the page to 569 px at 390).
      const upload = await fetch(`${h.t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `mutation($input: UploadKnowledgeSourceInput!) { uploadKnowledgeSource(input: $input) { id } }`,
          variables: { input: { filename: 'refund-policy-for-every-country-2026.md', mimeType: 'text/markdown', contentBase64: Buffer.from('# Refunds\n\nWithin 30 days.\n').toString('base64') } },
        }),
      });
      expect((await upload.json()).data.uploadKnowledgeSource.id).toBeTruthy();
      const page = await h.signedIn(email, password, { width });
      for (const name of SCREENS) {
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
        await page.locator('main h1').first().waitFor();
        await expect.poll(() => page.locator('main').getByText('Loading…').count(), { message: name }).toBe(0);
        if (name === 'Knowledge') await page.getByRole('listitem', { name: 'refund-policy-for-every-country-2026.md', exact: true }).waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), name).toEqual([]);
      }
    }, 120_000);
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
