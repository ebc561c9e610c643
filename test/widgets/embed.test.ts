/**
 * The widget as a customer's site really embeds it (docs/widgets.md "On the page"): a page of another
 * loopback origin with its own strict headers (a Content-Security-Policy without inline styles, Trusted
 * Types, Cross-Origin-Embedder-Policy), headless Chromium, and what a visitor can type. The browser's
 * console stays clean throughout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import type { TestApp, TestTenant } from '../support/app.js';
import { createAgent, persona } from '../support/agents.js';
import { CHROMIUM, watchBrowserErrors } from '../support/browser.js';
import { startScriptedChatApp } from '../support/chat.js';
import { fixtures, ingest } from '../support/knowledge.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let agentId: string;
let pages: Server;
let browser: Browser;
const contexts: BrowserContext[] = [];
let site: string;

/** The strict policy a careful shop sends: only the service's script and API, no inline style or script. */
const strictHeaders = (service: string) => ({
  'content-security-policy':
    `default-src 'none'; script-src ${service}; connect-src ${service}; style-src 'self'; img-src 'self'; ` +
    `require-trusted-types-for 'script'; trusted-types 'none'`,
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-opener-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
});

async function makeWidget(extra: Record<string, unknown> = {}) {
  const res = await api(t.baseUrl, a.key).post('/engine/widgets', {
    name: 'Travel help',
    family: 'agent',
    agentId,
    allowedOrigins: [site],
    monthlyQuestionLimit: 100,
    ipRatePerMinute: 100,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.widget as { id: string; publicId: string };
}

/** The customer's page (`strict` adds the policy above); the browser console is watched from the start. */
async function openPage(publicId: string, strict: boolean): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const errors = watchBrowserErrors(page);
  await page.goto(`${site}/?w=${encodeURIComponent(publicId)}&strict=${strict ? 1 : 0}`);
  await page.getByRole('button', { name: 'Travel help' }).click();
  await expect.poll(() => page.getByLabel('Your question').isVisible()).toBe(true);
  return { page, errors };
}

async function ask(page: Page, question: string) {
  await page.getByLabel('Your question').fill(question);
  await page.getByRole('button', { name: 'Send' }).click();
}

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp({ SVC_RATE_AGENT_CHAT: '2' }));
  a = await t.tenant();
  agentId = await createAgent(t, a.key, persona('Travel desk'));
  const col = (await api(t.baseUrl, a.key).post('/v1/knowledge-collections', { name: 'Travel dossier' })).body.collection;
  await ingest(t, a, fixtures.markdown(), 'travel.md', { collectionId: col.id });
  await api(t.baseUrl, a.key).post(`/v1/knowledge/agents/${agentId}/links`, { collectionId: col.id });
  pages = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    if (req.url?.startsWith('/favicon')) return void res.writeHead(204).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(q.get('strict') === '1' ? strictHeaders(t.baseUrl) : {}) });
    res.end(
      `<!doctype html><html lang="en"><head><title>Travel shop</title></head><body><main><h1>Travel shop</h1></main>` +
        `<script src="${t.baseUrl}/widget.js" data-widget="${q.get('w') ?? ''}" async></script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  site = `http://localhost:${(pages.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await new Promise((resolve) => pages?.close(resolve));
  await t?.close();
  await model?.close();
});

describe('the widget under the page’s own policy', () => {
  it('works under a strict CSP (no inline style, Trusted Types), COEP and COOP: styled, streamed with its sources, no console error', async () => {
    const w = await makeWidget();
    const { page, errors } = await openPage(w.publicId, true);
    // Its own styles apply although the page forbids inline ones: the launcher is pinned to the corner.
    const position = await page.locator('[data-svc-widget]').evaluate((host) => getComputedStyle(host.shadowRoot!.querySelector('.l')!).position);
    expect(position).toBe('fixed');
    model.enqueue({ chunks: ['The hotel cap ', 'is 150 EUR ', 'per night [1].'] });
    await ask(page, 'What is the hotel cap per night?');
    await expect
      .poll(() => page.locator('.m.a').last().textContent(), { timeout: 15_000 })
      .toMatch(/^The hotel cap is 150 EUR per night \[1\]\.Sources: \[1\] travel\.md/);
    expect(errors).toEqual([]);
  });
});

describe('what a visitor types', () => {
  it('a NUL character or an over-long question: the service’s 400 message in the panel, no model asked, the console clean', async () => {
    const w = await makeWidget();
    const { page, errors } = await openPage(w.publicId, true);
    const sent = model.requests.length;
    await ask(page, 'hotel\u0000cap');
    await expect.poll(() => page.locator('.m.e').last().textContent()).toBe('message must not contain NUL characters');
    // The field stops typing at 2000 characters; a longer value set by the page's own script still reaches
    // the service's limit, shown as it says it.
    await page.locator('[data-svc-widget]').evaluate((host) => {
      const input = host.shadowRoot!.querySelector('input')!;
      input.value = 'x'.repeat(2001);
      host.shadowRoot!.querySelector('form')!.requestSubmit();
    });
    await expect.poll(() => page.locator('.m.e').last().textContent()).toBe('message must be at most 2000 characters');
    expect(model.requests.length).toBe(sent);
    // A browser logs a refused fetch (4xx) as a resource error; nothing else reaches the console.
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });

  it('an empty or blank question is not sent: the field says it needs a question, nothing is asked', async () => {
    const w = await makeWidget();
    const { page, errors } = await openPage(w.publicId, false);
    const sent = model.requests.length;
    await ask(page, '   ');
    const input = page.getByLabel('Your question');
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.m.u').count()).toBe(0);
    expect(model.requests.length).toBe(sent);
    // Typing again clears the mark.
    await input.fill('Hotels?');
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe(null);
    expect(errors).toEqual([]);
  });

  it('the agent-chat ceiling (per widget) reads as a wait, not as a failure', async () => {
    const w = await makeWidget();
    const { page } = await openPage(w.publicId, false);
    for (let i = 0; i < 2; i++) {
      model.enqueue({ chunks: ['Trains under four hours.'] });
      await ask(page, `Trains ${i}?`);
      await expect.poll(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    }
    await ask(page, 'And hotels?');
    await expect.poll(() => page.locator('.m.e').last().textContent()).toMatch(/^You are asking questions too quickly\. Please wait \d+ seconds\.$/);
  });
});
