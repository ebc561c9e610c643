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
  it('uploads several documents at once (chosen, then dropped), sees them become ready, finds a passage, previews it marked in its document, and deletes', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password, { width: 390 });
    await page.getByRole('link', { name: 'Knowledge' }).click();
    await page.getByText('No documents yet').waitFor();

    await page.getByLabel('Collection name').fill('Policies');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('combobox', { name: 'Collection' }).getByRole('option', { name: 'Policies' }).waitFor({ state: 'attached' });
    await page.getByRole('combobox', { name: 'Collection' }).selectOption({ label: 'Policies' });

    // Two files through the file input at once.
    const refunds = join(tmpdir(), `refunds-${process.pid}.md`);
    writeFileSync(refunds, '# Refunds\n\nRefunds are granted within 30 days of purchase.\n\n## Contact\n\nWrite to help@example.com.\n');
    const shipping = join(tmpdir(), `shipping-${process.pid}.md`);
    writeFileSync(shipping, '# Shipping\n\nParcels leave the warehouse within two working days.\n');
    await page.getByLabel('Documents', { exact: true }).setInputFiles([refunds, shipping]);
    expect(await page.getByRole('list', { name: 'Files to upload' }).getByRole('listitem').count()).toBe(2);
    await page.getByRole('button', { name: 'Upload 2 files' }).click();
    await page.getByRole('list', { name: 'Files to upload' }).getByText(new RegExp(`^refunds-${process.pid}\\.md uploaded(: ingestion is running\\.| and ready)`)).waitFor();
    await page.getByRole('list', { name: 'Files to upload' }).getByText(new RegExp(`^shipping-${process.pid}\\.md uploaded(: ingestion is running\\.| and ready)`)).waitFor();

    // A third dropped on the upload box (a real drop event carrying a file).
    const drop = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['# Returns\n\nReturned goods are inspected on arrival.\n'], 'returns.md', { type: 'text/markdown' }));
      return dt;
    });
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: drop });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('list', { name: 'Files to upload' }).getByText(/^returns\.md uploaded(: ingestion is running\.| and ready)/).waitFor();

    // Ingestion state updates by itself.
    const docs = page.getByRole('list', { name: 'Documents' });
    for (const name of [`refunds-${process.pid}.md`, `shipping-${process.pid}.md`, 'returns.md']) {
      await expect.poll(() => docs.getByRole('listitem', { name, exact: true }).locator('.badge').textContent(), { timeout: 30_000 }).toBe('ready');
    }
    // The upload's own line follows the document's state: ready there too, never still "running".
    const queue = page.getByRole('list', { name: 'Files to upload' });
    await queue.getByText(/^returns\.md uploaded and ready: \d+ passages? to cite\.$/).waitFor();
    expect(await queue.getByText('ingestion is running', { exact: false }).count()).toBe(0);
    expect(await docs.getByRole('listitem', { name: `refunds-${process.pid}.md` }).textContent()).toContain('Policies');
    await page.getByLabel('Search documents').fill('shipping');
    await expect.poll(() => docs.getByRole('listitem').count()).toBe(1);
    await page.getByLabel('Search documents').fill('');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Search the documents').fill('refunds purchase days');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByText('within 30 days of purchase', { exact: false }).first().waitFor();
    expect(await results.locator('mark').first().textContent()).toMatch(/^(Refunds|purchase|days)$/i);
    await results.getByRole('button', { name: `Show in refunds-${process.pid}.md` }).first().click();
    const preview = page.getByRole('region', { name: `Preview of refunds-${process.pid}.md` });
    await preview.waitFor();
    const found = preview.getByRole('listitem', { name: /^Found passage/ });
    await found.first().waitFor();
    expect(await found.first().textContent()).toContain('Refunds are granted within 30 days of purchase.');
    expect(await found.first().locator('mark').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    // Delete a document and the collection, each confirmed in the page.
    await docs.getByRole('button', { name: 'Delete the document returns.md' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the document returns.md?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => docs.getByRole('listitem', { name: 'returns.md' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Delete the collection Policies' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the collection Policies?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No collections yet').waitFor();
    await expect.poll(() => docs.getByRole('listitem', { name: `refunds-${process.pid}.md` }).textContent()).toContain('No collection');
  }, 150_000);

  it('creates a webhook (secret shown once), sends a test, opens a delivery’s payload and response, replays it, edits, rotates the secret and deletes it', async () => {
    const { email, password } = await h.person();
    const page = await h.signedIn(email, password, { width: 390 });
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet').waitFor();

    // Only the events something publishes are offered, each said in words.
    const create = page.getByRole('form', { name: 'New webhook' });
    const offered = await create.getByRole('group', { name: 'Events' }).getByRole('checkbox').count();
    expect(offered).toBe(7);
    expect(await create.getByText('simulation.tick.completed').count()).toBe(0);
    await create.getByRole('checkbox', { name: /flow\.approval\.requested/ }).check();

    const path = '/console-hook';
    receiver.behave(path, [{ kind: 'status', status: 500, body: 'down for maintenance' }, { kind: 'status', status: 200, body: 'ok' }, { kind: 'status', status: 204 }]);
    await create.getByLabel('Endpoint URL').fill(receiver.url(path));
    await create.getByLabel('Description').fill('Our CRM');
    await create.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await page.getByTestId('secret').textContent())!;
    expect(secret.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const item = page.getByRole('listitem', { name: receiver.url(path) });
    expect(await item.getByText('source.ingested, flow.approval.requested').count()).toBe(1);
    // The button is named by what it reads.
    await item.getByRole('button', { name: 'Send test', exact: true }).click();
    await item.getByRole('status').getByText('Test event: failed (HTTP 500)').waitFor();
    await item.getByRole('button', { name: 'Deliveries' }).click();
    const log = item.getByRole('list', { name: `Deliveries of ${receiver.url(path)}` });
    await log.getByText('webhook.test').waitFor();
    await log.getByRole('button', { name: /^Details of webhook\.test/ }).click();
    const detail = log.getByRole('group', { name: /^Delivery / });
    await detail.getByText('down for maintenance').waitFor();
    const sent = receiver.requestsTo(path)[0]!;
    expect(JSON.parse((await detail.locator('pre').first().textContent())!)).toEqual(JSON.parse(sent.body));
    expect(await seriousViolations(page)).toEqual([]);

    await log.getByRole('button', { name: /^Replay webhook\.test/ }).click();
    await item.getByRole('status').getByText('Replay: delivered (HTTP 200)').waitFor();
    await log.getByText('HTTP 200', { exact: true }).waitFor();
    const received = receiver.requestsTo(path);
    expect(received).toHaveLength(2);
    expect(received[0].body).toBe(received[1].body);
    expect(verifySvcSignature(secret, received[1].rawBody, received[1].headers['x-svc-signature'])).toBe(true);

    // Edit: another description and one event less; the list shows it.
    await item.getByRole('button', { name: 'Edit' }).click();
    const edit = item.getByRole('form', { name: `Edit ${receiver.url(path)}` });
    await edit.getByLabel('Description').fill('Our CRM, production');
    await edit.getByRole('checkbox', { name: /flow\.approval\.requested/ }).uncheck();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await item.getByText('Our CRM, production').waitFor();
    await expect.poll(() => item.getByText('Events: source.ingested ·', { exact: false }).count()).toBe(1);

    // Rotate: a new secret, shown once, which signs the next event; the old one no longer does.
    await item.getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => page.getByTestId('secret').textContent()).not.toBe(secret);
    const rotated = (await page.getByTestId('secret').textContent())!;
    await item.getByRole('button', { name: 'Send test', exact: true }).click();
    await item.getByRole('status').getByText('Test event: delivered (HTTP 204)').waitFor();
    const third = receiver.requestsTo(path)[2]!;
    expect(verifySvcSignature(rotated, third.rawBody, third.headers['x-svc-signature'])).toBe(true);
    expect(verifySvcSignature(secret, third.rawBody, third.headers['x-svc-signature'])).toBe(false);

    await item.getByRole('button', { name: 'Pause' }).click();
    await item.getByRole('button', { name: 'Resume' }).waitFor();

    // Delete asks in the page first; Cancel keeps it, Delete removes it.
    await item.getByRole('button', { name: `Delete the webhook ${receiver.url(path)}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete the webhook ${receiver.url(path)}?` });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await item.waitFor();
    await item.getByRole('button', { name: `Delete the webhook ${receiver.url(path)}` }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No webhooks yet').waitFor();
  }, 120_000);
});
