import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDue, runDueDeliveries, writeOutcomes } from '../../src/modules/webhooks/dispatcher.js';
import { publishEvent } from '../../src/modules/webhooks/events.js';
import { WebhookWorker } from '../../src/modules/webhooks/worker.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createEndpoint, deliveries, flowFinished, storedDeliveries } from '../support/webhooks.js';

let t: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/** Events committed together, as a producer's burst: one transaction, one creation time for all. */
async function publishBurst(tenant: TestTenant, runIds: string[]): Promise<void> {
  await t.app.services.orm.em.fork().transactional(async (em) => {
    for (const runId of runIds) await publishEvent({ em, clock: t.clock, app: t.app.services }, flowFinished(tenant.workspaceId, runId));
  });
}

describe('claims, outcomes and log trims in batches', () => {
  it('a burst committed at one instant keeps the 50 newest by id, every delivery recorded once', async () => {
    const tenant = await t.tenant();
    const [a, b] = [await createEndpoint(t, tenant, receiver), await createEndpoint(t, tenant, receiver)];
    const runIds = Array.from({ length: 120 }, (_, i) => `run_${String(i).padStart(3, '0')}`);
    await publishBurst(tenant, runIds);
    expect(await runDueDeliveries(t.app.services, t.clock.now())).toEqual({ attempted: 240, succeeded: 240 });
    for (const ep of [a, b]) {
      expect(receiver.requestsTo(ep.path)).toHaveLength(120);
      expect(new Set(receiver.requestsTo(ep.path).map((r) => r.headers['x-svc-delivery'])).size).toBe(120);
      const stored = await storedDeliveries(t, ep.id);
      // Same created_at for all: the log's tie-break (id, newest first) decides which 50 stay.
      expect(stored).toHaveLength(50);
      const allIds = receiver.requestsTo(ep.path).map((r) => String(r.headers['x-svc-delivery']));
      expect(stored.map((row) => row.id)).toEqual(allIds.sort().reverse().slice(0, 50));
      for (const row of stored) expect(row).toMatchObject({ attempts: 1, success: true, status_code: 200, next_attempt_at: null, lease_until: null, lease_token: null });
      expect(await deliveries(t, tenant, ep.id)).toHaveLength(50);
    }
  });

  it('an outcome is written only while the row still carries the claimer token', async () => {
    const tenant = await t.tenant();
    const ep = await createEndpoint(t, tenant, receiver);
    await publishBurst(tenant, ['run_token']);
    const [claimed] = await claimDue(t.app.services, t.clock.now(), 'immediate', 10);
    expect(claimed).toBeDefined();
    const outcome = (token: string) => ({
      id: claimed!.id,
      token,
      status_code: 200,
      response_body: 'ok',
      failure_reason: null,
      success: true,
      delivered_at: t.clock.now().toISOString(),
      next_attempt_at: null,
    });
    await writeOutcomes(t.app.services, [outcome('someone-else')]);
    expect((await storedDeliveries(t, ep.id))[0]).toMatchObject({ attempts: 0, success: false, lease_token: claimed!.leaseToken });
    await writeOutcomes(t.app.services, [outcome(claimed!.leaseToken)]);
    expect((await storedDeliveries(t, ep.id))[0]).toMatchObject({ attempts: 1, success: true, lease_token: null, lease_until: null });
  });

  it('the worker refills its slots while saturated: 60 deliveries through 4 slots, without polling', async () => {
    const tenant = await t.tenant();
    const ep = await createEndpoint(t, tenant, receiver);
    // Polling once a minute: only the refill (a quarter of the slots free again) claims the rest.
    const worker = new WebhookWorker(t.app.services, { pollMs: 60_000, maxInFlight: 4 });
    try {
      await publishBurst(tenant, Array.from({ length: 60 }, (_, i) => `run_w${i}`));
      worker.start();
      const received = await receiver.waitFor(60, { path: ep.path, timeoutMs: 20_000 });
      expect(new Set(received.map((r) => r.headers['x-svc-delivery'])).size).toBe(60);
      await expect.poll(async () => (await storedDeliveries(t, ep.id)).every((row) => row.success === true && row.lease_token === null)).toBe(true);
    } finally {
      await worker.stop();
    }
  });
});
