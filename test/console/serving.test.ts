import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_DIST, consoleBuildIsStale, ensureConsoleBuilt, firstLoad } from '../../console/build.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  await ensureConsoleBuilt({ quiet: true });
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('serving /console', () => {
  it('is up to date after a build (npm start builds only when the sources changed)', () => {
    expect(consoleBuildIsStale()).toBe(false);
  });

  it('answers the page for the app and its own routes, never cached, not frameable', async () => {
    for (const path of ['/console', '/console/', '/console/agents', '/console/chat/ses_x']) {
      const res = await fetch(t.baseUrl + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await res.text()).toContain('<div id="root"></div>');
    }
  });

  it('serves the set-password page with the console page\'s security headers, its one inline script allowed by hash', async () => {
    const consolePage = await fetch(`${t.baseUrl}/console`);
    const res = await fetch(`${t.baseUrl}/auth/set-password`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = res.headers.get('content-security-policy') ?? '';
    const body = await res.text();
    const scripts = [...body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]!, 'utf8').digest('base64');
    // The same policy as the console's page, with only that script's hash added to script-src.
    expect(csp).toBe(consolePage.headers.get('content-security-policy')!.replace("script-src 'self'", `script-src 'self' 'sha256-${hash}'`));
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('serves hashed assets for a year (immutable) and a missing one as a native 404', async () => {
    const script = readdirSync(join(CONSOLE_DIST, 'assets')).find((f) => /^index-.+\.js$/.test(f))!;
    const res = await fetch(`${t.baseUrl}/console/assets/${script}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const page = await (await fetch(`${t.baseUrl}/console`)).text();
    expect(page).toContain(`/console/assets/${script}`);

    const missing = await fetch(`${t.baseUrl}/console/assets/nope-123.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Console file not found: /console/assets/nope-123.js' });
  });

  it('keeps the first load (page, entry chunk and its static imports, CSS) within 300 kB gzipped; screens load on demand', async () => {
    const load = firstLoad();
    expect(load.gzipped).toBeLessThanOrEqual(300_000);
    const page = await (await fetch(`${t.baseUrl}/console`)).text();
    for (const f of load.files.filter((x) => x.file.startsWith('assets/index-'))) expect(page).toContain(`/console/${f.file}`);
    // The chart library and the screens are not part of it.
    expect(load.files.some((f) => /usage|chat|agents/.test(f.file))).toBe(false);
  });
});
