/**
 * The widget in real headless Chromium (Debian's, driven by playwright-core): a customer page served from
 * a second loopback origin embeds it with one script tag; the answer of a scripted model streams into the
 * panel; the monthly ceiling is a clear message there; a third origin is refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import type { TestApp, TestTenant } from '../support/app.js';
import { createAgent, persona } from '../support/agents.js';
import { CHROMIUM, seriousViolations } from '../support/browser.js';
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
/** The customer's site (allowed) and a third origin on the same page server (not allowed). */
let site: string;
let third: string;

async function makeWidget(extra: Record<string, unknown> = {}) {
  const res = await api(t.baseUrl, a.key).post('/engine/widgets', {
    name: 'Travel help',
    family: 'agent',
    agentId,
    allowedOrigins: [site],
    monthlyQuestionLimit: 100,
    ipRatePerMinute: 100,
    greeting: 'Hello! Ask me about travel.',
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.widget as { id: string; publicId: string };
}

/** The customer's page: one script tag, nothing else of the service. */
async function openPage(origin: string, publicId: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${origin}/?w=${encodeURIComponent(publicId)}`);
  return page;
}

async function widgetLedgerRows(widgetId: string): Promise<number> {
  const rows = await t.app.services.orm.em
    .fork()
    .execute<{ n: number }[]>('select count(*)::int as n from usage_ledger where key_id = ?', [`widget:${widgetId}`]);
  return rows[0].n;
}

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp());
  a = await t.tenant();
  agentId = await createAgent(t, a.key, persona('Travel desk'));
  const col = (await api(t.baseUrl, a.key).post('/v1/knowledge-collections', { name: 'Travel dossier' })).body.collection;
  await ingest(t, a, fixtures.markdown(), 'travel.md', { collectionId: col.id });
  await api(t.baseUrl, a.key).post(`/v1/knowledge/agents/${agentId}/links`, { collectionId: col.id });
  pages = createServer((req, res) => {
    const publicId = new URL(req.url ?? '/', 'http://x').searchParams.get('w') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Travel shop</title></head><body><main><h1>Travel shop</h1><p>Our offers.</p></main>` +
        `<script src="${t.baseUrl}/widget.js" data-widget="${publicId}" async></script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const { port } = pages.address() as AddressInfo;
  // Same page server, two origins: `localhost` is the customer's site, `127.0.0.1` a third origin (the
  // service itself is a second one, on its own port).
  site = `http://localhost:${port}`;
  third = `http://127.0.0.1:${port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await new Promise((resolve) => pages?.close(resolve));
  await t?.close();
  await model?.close();
});

describe('the widget on a customer page', () => {
  it('opens from one script tag and streams the answer into the panel, tokens before the end, then the sources', async () => {
    const w = await makeWidget();
    const page = await openPage(site, w.publicId);
    const launcher = page.getByRole('button', { name: 'Travel help' });
    await launcher.click();
    const panel = page.getByRole('dialog', { name: 'Travel help' });
    await expect.poll(() => panel.isVisible()).toBe(true);
    await expect.poll(() => panel.getByText('Hello! Ask me about travel.').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // An answer that stops half-way: what came is already in the panel while the turn is still running.
    model.enqueue({ chunks: ['The hotel cap ', 'is 150 EUR'], hang: true });
    await page.getByLabel('Your question').fill('What is the hotel cap?');
    await page.getByRole('button', { name: 'Send' }).click();
    const answers = page.locator('.m.a');
    await expect.poll(() => answers.last().textContent()).toBe('The hotel cap is 150 EUR');
    expect(await page.getByRole('log').getAttribute('aria-busy')).toBe('true');
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await page.close();

    // A whole answer, on a fresh page: tokens, then done with its citations.
    const next = await openPage(site, w.publicId);
    await next.getByRole('button', { name: 'Travel help' }).click();
    model.enqueue({ chunks: ['The hotel cap ', 'is 150 EUR ', 'per night [1].'] });
    await next.getByLabel('Your question').fill('What is the hotel cap per night?');
    await next.getByLabel('Your question').press('Enter');
    await expect.poll(() => next.locator('.m.a').last().textContent(), { timeout: 15_000 }).toMatch(/^The hotel cap is 150 EUR per night \[1\]\.Sources: \[1\] travel\.md/);
    expect(await next.getByRole('log').getAttribute('aria-busy')).toBe('false');
    expect(await next.getByText('What is the hotel cap per night?').isVisible()).toBe(true);
    await expect.poll(() => widgetLedgerRows(w.id)).toBeGreaterThanOrEqual(2);
  });

  it('shows the monthly ceiling as a clear message in the panel', async () => {
    const w = await makeWidget({ monthlyQuestionLimit: 1 });
    const page = await openPage(site, w.publicId);
    await page.getByRole('button', { name: 'Travel help' }).click();
    model.enqueue({ chunks: ['Trains are booked ', 'for trips under four hours.'] });
    await page.getByLabel('Your question').fill('When do I take the train?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.m.a').last().textContent()).toContain('for trips under four hours.');
    await expect.poll(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    const sent = model.requests.length;
    await page.getByLabel('Your question').fill('And hotels?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => page.locator('.m.e').last().textContent())
      .toBe('This assistant has answered all the questions it can this month; please come back next month');
    expect(model.requests.length).toBe(sent);
    expect(await widgetLedgerRows(w.id)).toBe(1);
  });

  it('is refused from a third origin: the panel says so, the page cannot reach the chat, nothing is answered', async () => {
    const w = await makeWidget();
    const sent = model.requests.length;
    const page = await openPage(third, w.publicId);
    const launcher = page.getByRole('button', { name: 'Questions?' });
    await launcher.click();
    await expect.poll(() => page.getByText('This assistant is not available on this site.').isVisible()).toBe(true);
    expect(await page.getByLabel('Your question').isVisible()).toBe(false);
    // The page's own script cannot call the chat either: the preflight is refused.
    const direct = await page.evaluate(async (url) => {
      try {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'hi' }) });
        return `status ${res.status}`;
      } catch (err) {
        return `blocked: ${(err as Error).name}`;
      }
    }, `${t.baseUrl}/widget/${w.publicId}/chat`);
    expect(direct).toBe('blocked: TypeError');
    expect(model.requests.length).toBe(sent);
    expect(await widgetLedgerRows(w.id)).toBe(0);
  });
});
