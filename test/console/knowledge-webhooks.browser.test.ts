import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, startConsole, type ConsoleHarness } from '../support/browser.js';
import { startWebhookReceiver, verifySvcSignature, type WebhookReceiver } from '../support/webhook-receiver.js';

let h: ConsoleHarness;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // The ingestion worker runs in the background here, as in production.
  h = await startConsole({ env: { SVC_BACKGROUND_JOBS: 'on' } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

describe('knowledge and webhooks in the console (headless Chromium)', () => {
  it('uploads a document into a collection and sees it become ready, then finds it', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password);
    await page.getByRole('link', { name: 'Knowledge' }).click();
    await page.getByText('No documents yet').waitFor();

    await page.getByLabel('Collection name').fill('Policies');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('combobox', { name: 'Collection' }).getByRole('option', { name: 'Policies' }).waitFor({ state: 'attached' });
    await page.getByRole('combobox', { name: 'Collection' }).selectOption({ label: 'Policies' });

    const file = join(tmpdir(), `refunds-${process.pid}.md`);
    writeFileSync(file, '# Refunds\n\nRefunds are granted within 30 days of purchase.\n\n## Contact\n\nWrite to help@example.com.\n');
    await page.getByLabel('Document', { exact: true }).setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').getByText(/uploaded: ingestion is running/).waitFor();
    const row = page.getByTestId(`source-refunds-${process.pid}.md`);
    await expect.poll(() => row.locator('.badge').textContent(), { timeout: 20_000 }).toBe('ready');
    expect(await row.textContent()).toContain('Policies');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Search the documents').fill('refund purchase days');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Refunds are granted within 30 days of purchase.').waitFor();
  });

  it('creates a webhook (secret shown once), sees a failed test delivery and replays it', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password, { width: 390 });
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet').waitFor();

    const path = '/console-hook';
    receiver.behave(path, [{ kind: 'status', status: 500, body: 'down' }, { kind: 'status', status: 200, body: 'ok' }]);
    await page.getByLabel('Endpoint URL').fill(receiver.url(path));
    await page.getByLabel('Description').fill('Our CRM');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await page.getByTestId('secret').textContent())!;
    expect(secret.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: `Send test to ${receiver.url(path)}` }).click();
    await page.getByRole('status').getByText('Test event: failed (HTTP 500)').waitFor();
    await page.getByRole('button', { name: `Deliveries of ${receiver.url(path)}` }).click();
    const table = page.getByRole('table', { name: `Deliveries of ${receiver.url(path)}` });
    await table.getByText('webhook.test').waitFor();
    expect(await table.getByText('HTTP 500').count()).toBe(1);

    await table.getByRole('button', { name: /^Replay delivery webhook.test/ }).click();
    await page.getByRole('status').getByText('Replay: delivered (HTTP 200)').waitFor();
    await table.getByText('HTTP 200').waitFor();
    const received = receiver.requestsTo(path);
    expect(received).toHaveLength(2);
    expect(received[0].body).toBe(received[1].body);
    expect(verifySvcSignature(secret, received[1].rawBody, received[1].headers['x-svc-signature'])).toBe(true);

    await page.getByRole('button', { name: `Pause ${receiver.url(path)}` }).click();
    await page.getByRole('button', { name: `Resume ${receiver.url(path)}` }).waitFor();
  });
});
