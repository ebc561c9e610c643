import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

/** The navigation's scroll state and whether its edge shadows are painted. */
const navState = (page: import('playwright-core').Page) =>
  page.getByRole('navigation', { name: 'Sections' }).evaluate((nav) => ({
    scrolls: nav.scrollWidth > nav.clientWidth,
    shadows: getComputedStyle(nav).backgroundImage.includes('radial-gradient'),
    left: nav.scrollLeft,
  }));

describe('the navigation, wide and narrow (headless Chromium)', () => {
  it('at 390 px it is a row that scrolls, with edge shadows saying so, and keeps the current section in view; at 1280 px it is a column that does not', async () => {
    const { email, password } = await h.person();
    const narrow = await h.signedIn(email, password, { width: 390 });
    const state = await navState(narrow);
    expect(state).toMatchObject({ scrolls: true, shadows: true });
    // Opening a section at the far end scrolls the row to it.
    await narrow.goto('/console/account');
    await narrow.getByRole('heading', { name: 'Your account' }).waitFor();
    await expect.poll(async () => (await navState(narrow)).left).toBeGreaterThan(0);
    const current = narrow.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Your account' });
    expect(await current.getAttribute('aria-current')).toBe('page');
    const box = (await current.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(391); // within the window (subpixel layout)
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(narrow)).toEqual([]);

    const wide = await h.signedIn(email, password, { width: 1280 });
    expect(await navState(wide)).toMatchObject({ scrolls: false, shadows: false });
    expect(await seriousViolations(wide)).toEqual([]);
  }, 120_000);
});
