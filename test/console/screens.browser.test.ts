import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

const SCREENS = ['Agents', 'Chat', 'Debates', 'Flows', 'Knowledge', 'Postes', 'Webhooks', 'Usage', 'API keys', 'Proofs'];

describe('every screen at 1280 px and 390 px (headless Chromium)', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: reachable from the navigation, an empty state or content, nothing wider than the window, no serious axe violation`, async () => {
      const { email, password } = await h.person();
      const page = await h.signedIn(email, password, { width });
      for (const name of SCREENS) {
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
        await page.locator('main h1').first().waitFor();
        await expect.poll(() => page.locator('main').getByText('Loading…').count(), { message: name }).toBe(0);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), name).toEqual([]);
      }
    });
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
