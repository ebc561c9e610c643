/** Proofs and Usage in the console (issue 27): a certificate's deep link survives a reload; usage by person and month, as CSV. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser } from '../people/support.js';
import { api } from '../support/api.js';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.close();
});

const gatewayCall = async (key: string, content: string): Promise<string> => {
  const res = await fetch(`${h.t.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content }] }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('x-svc-proof')!;
};

describe('proofs in the console (headless Chromium)', () => {
  it('opens a certificate from the register at its own address, which shows it again after a reload, with its kind and model', async () => {
    const { tenant, email, password } = await h.person();
    const first = await gatewayCall(tenant.key, 'Hello');
    const second = await gatewayCall(tenant.key, 'Hello again');
    const page = await h.signedIn(email, password, { width: 390 });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Proofs' }).click();
    const list = page.getByRole('list', { name: 'Certificates' });
    await list.getByRole('link').first().waitFor();
    expect(await list.getByRole('link').count()).toBe(2);
    await list.getByRole('link', { name: /^#1 gateway · / }).click();
    await page.waitForURL(`**/console/proofs/${first}`);
    const card = page.getByRole('article', { name: 'Certificate #1' });
    await card.waitFor();
    expect(await card.getByText('gateway', { exact: true }).count()).toBe(1);

    // A shared link: a new page straight at the certificate's address, then a reload.
    await page.goto(`/console/proofs/${second}`);
    await page.getByRole('article', { name: 'Certificate #2' }).waitFor();
    await page.reload();
    const again = page.getByRole('article', { name: 'Certificate #2' });
    await again.waitFor();
    expect(await again.getByText(second, { exact: true }).count()).toBe(1);
    await again.getByRole('button', { name: 'Verify' }).click();
    await again.getByRole('status').getByText(/hash ok · signature ok · chain ok/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // An address naming no certificate says so in words.
    await page.goto('/console/proofs/prf_nope');
    await page.getByRole('alert').getByText('Proof not found: prf_nope').waitFor();
  });
});

describe('usage in the console (headless Chromium)', () => {
  it('names a person by e-mail and a key by name, moves between months, and exports the month as CSV', async () => {
    const { tenant, email, password } = await h.person({ email: `usage-${Date.now()}@example.com` });
    await gatewayCall(tenant.key, 'Counted against the key');
    const agentId = (await api(h.t.baseUrl, tenant.key).post('/v1/agents', { name: 'Bob', role: 'r', personality: 'calm', mission: 'm', decisionStyle: 'd', systemPrompt: 's' })).body.agent.id;
    const person = browser(h.t.baseUrl, { ip: '10.27.0.1' });
    expect((await person.signIn(email, password)).status).toBe(200);
    const turn = await person.graphql(`mutation { chat(agentId: "${agentId}", input: { message: "How are you?" }) { content } }`);
    expect(turn.body.errors).toBeUndefined();

    const page = await h.signedIn(email, password);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Usage' }).click();
    const table = page.getByRole('table', { name: 'Usage by key or person' });
    await table.getByRole('cell', { name: email, exact: true }).waitFor();
    expect(await table.getByText('person:').count()).toBe(0);
    expect(await table.getByRole('row').count()).toBe(3);
    const month = await page.getByLabel('Month').inputValue();
    expect(month).toMatch(/^\d{4}-\d{2}$/);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`usage-${month}.csv`);
    const csv = readFileSync((await file.path())!, 'utf8').trim().split('\r\n');
    expect(csv[0]).toBe('month,key or person,id,questions,answers,controls');
    expect(csv).toHaveLength(3);
    expect(csv.some((line) => line.startsWith(`${month},${email},person:`))).toBe(true);

    // A month with nothing: the page says what to do; then back.
    const [y, m] = month.split('-').map(Number);
    const earlier = new Date(Date.UTC(y!, m! - 3, 1)).toISOString().slice(0, 7);
    await page.getByLabel('Month').fill(earlier);
    await page.getByText('No key or person has asked anything in this window.', { exact: false }).waitFor();
    await page.getByLabel('Month').fill(month);
    await table.getByRole('cell', { name: email, exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
