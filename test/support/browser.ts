/**
 * Browser tests of the console: the real app on loopback (test/support/app.ts), the built console
 * (console/build.ts builds it when its sources changed) and Debian's headless Chromium driven by
 * playwright-core. `.ci/run` installs /usr/bin/chromium when it is missing.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { ensureConsoleBuilt } from '../../console/build.js';
import { createPerson } from '../../src/modules/people/people.service.js';
import type { UserRole } from '../../src/core/access.js';
import { startTestApp, type TestApp, type TestTenant } from './app.js';

export const CHROMIUM = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';

export interface ConsoleHarness {
  t: TestApp;
  browser: Browser;
  /** A workspace with a signed-in-able person (admin by default). */
  person(opts?: { role?: UserRole; email?: string }): Promise<{ tenant: TestTenant; email: string; password: string }>;
  /** A fresh browser context (own cookies) at `width` × 900, on a page of the console. */
  page(opts?: { width?: number }): Promise<Page>;
  /** A page already signed in as `email` through the sign-in form. */
  signedIn(email: string, password: string, opts?: { width?: number }): Promise<Page>;
  close(): Promise<void>;
}

let people = 0;

export async function startConsole(opts: { env?: Record<string, string>; app?: TestApp } = {}): Promise<ConsoleHarness> {
  await ensureConsoleBuilt({ quiet: true });
  const t = opts.app ?? (await startTestApp({ env: opts.env }));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const contexts: BrowserContext[] = [];
  const harness: ConsoleHarness = {
    t,
    browser,
    async person(p = {}) {
      const tenant = await t.tenant({ name: 'Console workspace' });
      const email = p.email ?? `person${++people}-${Date.now()}@example.com`;
      const password = 'correct horse battery';
      await createPerson({ em: t.app.services.orm.em.fork(), clock: t.clock }, tenant.workspaceId, { email, password, role: p.role ?? 'admin' });
      return { tenant, email, password };
    },
    async page(p = {}) {
      const context = await browser.newContext({ baseURL: t.baseUrl, viewport: { width: p.width ?? 1280, height: 900 } });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto('/console');
      return page;
    },
    async signedIn(email, password, p = {}) {
      const page = await harness.page(p);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      return page;
    },
    async close() {
      for (const c of contexts) await c.close();
      await browser.close();
      if (!opts.app) await t.close();
    },
  };
  return harness;
}

/** axe-core's serious and critical violations on the page as it is now (rule id and the first target). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Read the settled page: a toast not yet mounted or on its way out (sonner's opacity transition) has the contrast of a
  // half-drawn frame, which axe reports as a color-contrast violation when a loaded machine stretches it (CI, load 5).
  // A transition starts on the frame after its attribute flips (`data-mounted` to true): the page is settled when two frames
  // in a row show nothing moving, not one (a loaded CI machine, load 15, caught a toast between the flip and its transition).
  // A toast may still start leaving while axe reads the page (its timer runs during the analysis, seconds on a loaded machine:
  // clean-clone CI 2026-11-28 14:10, `color-contrast: div[data-title=""]`): a violation found only on toast nodes is read
  // again once the page settles, up to three reads; one found on the third read is reported (a toast gone by then is not read).
  for (let attempt = 1; ; attempt++) {
    await settled(page);
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const targets = serious.flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
    const inToasts = targets.length > 0 && (await page.evaluate((sels) => sels.every((sel) => {
      try {
        const el = document.querySelector(sel);
        return el === null || el.closest('[data-sonner-toast], [data-sonner-toaster]') !== null;
      } catch {
        return false;
      }
    }), targets));
    if (!inToasts || attempt >= 3) return serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  }
}

/** Resolves once two frames in a row show no sonner toast mounting or leaving and no finite animation running. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const still = () =>
          document.querySelectorAll('[data-sonner-toast][data-mounted="false"], [data-sonner-toast][data-removed="true"]').length === 0 &&
          document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity);
        if (!still()) return resolve(false);
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(still())));
      }),
    undefined,
    { timeout: 10_000 },
  );
}

/**
 * What the browser's own console reports on `page` from now on: errors logged by the page or by Chromium
 * (a resource answered 4xx/5xx, a blocked script), uncaught exceptions, and requests that failed for a
 * reason other than the page leaving them. A person never sees these; a test asserts the list stays empty.
 */
export function watchBrowserErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => {
    const reason = r.failure()?.errorText ?? '';
    if (reason !== 'net::ERR_ABORTED') errors.push(`request failed: ${r.method()} ${r.url()} ${reason}`);
  });
  return errors;
}

/**
 * How a form control (or a group of choices) says its refusal to a person and to a screen reader: marked
 * `aria-invalid`, holding the focus (itself or one of its choices), and the text its `aria-describedby`
 * points to.
 */
export async function refusalOf(control: Locator): Promise<{ invalid: boolean; focused: boolean; described: string }> {
  return control.evaluate((el) => ({
    invalid: el.getAttribute('aria-invalid') === 'true',
    focused: el === document.activeElement || el.contains(document.activeElement),
    described: (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
      .join(' ')
      .trim(),
  }));
}
