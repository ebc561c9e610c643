import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { WebhookEndpoint } from '../../src/modules/webhooks/webhook.entity.js';
import { runDueDeliveries, runRetrySweep } from '../../src/modules/webhooks/dispatcher.js';
import { publishEvent } from '../../src/modules/webhooks/events.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createEndpoint, deliveries, flowFinished, publish, sourceIngested, storedDeliveries, type CreatedEndpoint } from '../support/webhooks.js';

let t: TestApp;
let receiver: WebhookReceiver;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/** Each test gets its own workspace and user, so routing in one test never reaches another's endpoints. */
let tenant: TestTenant;
beforeEach(async () => {
  tenant = await t.tenant();
});

const due = () => runDueDeliveries(t.app.services, t.clock.now());
const sweep = () => runRetrySweep(t.app.services, t.clock.now());

describe('a delivery request', () => {
  it('is a POST of the payload alone with the SPEC headers; the receiver verifies the signature with the secret and raw body', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    const event = flowFinished(tenant.workspaceId, 'run_hdr');
    await publish(t, event);
    expect(await due()).toEqual({ attempted: 1, succeeded: 1 });
    const [req] = receiver.requestsTo(ep.path);
    expect(req!.method).toBe('POST');
    expect(req!.body).toBe(JSON.stringify(event.payload));
    expect(req!.signatureValid).toBe(true);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['user-agent']).toBe('Svc-Webhooks/1.0');
    expect(req!.headers['x-svc-event']).toBe('flow.run.finished');
    const expected = 'sha256=' + createHmac('sha256', ep.secret).update(req!.rawBody).digest('hex');
    expect(req!.headers['x-svc-signature']).toBe(expected);
    const [logged] = await deliveries(t, tenant, ep.id);
    expect(req!.headers['x-svc-delivery']).toBe(logged!.id);
    expect(req!.headers['webhook-id']).toBe(logged!.id);
    expect(req!.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    // A receiver holding another secret rejects it.
    receiver.secret(ep.path, 'whsec_' + Buffer.alloc(32, 7).toString('base64'));
    await publish(t, event);
    await due();
    expect(receiver.requestsTo(ep.path)[1]!.signatureValid).toBe(false);
  });

  it('verifies with the public standardwebhooks library (secret as returned at creation)', async () => {
    t.clock.set(new Date()); // the library checks the timestamp against the real time (5 min tolerance)
    const ep = await createEndpoint(t, tenant, receiver);
    await publish(t, flowFinished(tenant.workspaceId, 'run_std'));
    await due();
    const [req] = receiver.requestsTo(ep.path);
    const headers = {
      'webhook-id': String(req!.headers['webhook-id']),
      'webhook-timestamp': String(req!.headers['webhook-timestamp']),
      'webhook-signature': String(req!.headers['webhook-signature']),
    };
    expect(new Webhook(ep.secret).verify(req!.rawBody, headers)).toEqual(JSON.parse(req!.body));
    expect(() => new Webhook(ep.secret).verify(Buffer.from(req!.body.replace('run_std', 'run_xxx')), headers)).toThrow();
    const otherSecret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
    expect(() => new Webhook(otherSecret).verify(req!.rawBody, headers)).toThrow();
  });
});

describe('the retry schedule (ManualClock)', () => {
  it('attempts at 0 s, 1 s, 5 s, then the sweep at 5 min, 30 min, 2 h, 12 h after each failure; then failed for good', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    receiver.behave(ep.path, { kind: 'status', status: 500, body: 'boom' });
    const t0 = t.clock.now().getTime();
    await publish(t, flowFinished(tenant.workspaceId, 'run_sched'));
    const [pending] = await deliveries(t, tenant, ep.id);
    expect(pending).toMatchObject({ statusCode: null, success: false, retryCount: 0, deliveredAt: null, nextRetryAt: new Date(t0).toISOString() });

    const count = () => receiver.requestsTo(ep.path).length;
    const at = (ms: number) => t.clock.set(new Date(t0 + ms));
    const expectLog = async (retryCount: number, nextRetryAt: number | null) => {
      const [d] = await deliveries(t, tenant, ep.id);
      expect(d).toMatchObject({ statusCode: 500, responseBody: 'boom', success: false, retryCount });
      expect(d!.nextRetryAt).toBe(nextRetryAt === null ? null : new Date(t0 + nextRetryAt).toISOString());
      expect(d!.failureReason).toMatch(/500/);
    };

    await due();
    expect(count()).toBe(1);
    await expectLog(0, 1 * SECOND);
    at(999);
    await due();
    expect(count()).toBe(1);
    at(1 * SECOND);
    await due();
    expect(count()).toBe(2);
    await expectLog(1, 5 * SECOND);
    at(5 * SECOND - 1);
    await due();
    expect(count()).toBe(2);
    at(5 * SECOND);
    await due();
    expect(count()).toBe(3);
    let next = 5 * SECOND + 5 * MINUTE;
    await expectLog(2, next);

    // From here on only the sweep retries; the worker's run leaves them alone.
    for (const [retryCount, delay] of [
      [3, 30 * MINUTE],
      [4, 2 * HOUR],
      [5, 12 * HOUR],
    ] as const) {
      at(next - 1);
      await sweep();
      at(next + HOUR);
      await due();
      at(next);
      await due();
      expect(count()).toBe(retryCount);
      await sweep();
      expect(count()).toBe(retryCount + 1);
      next += delay;
      await expectLog(retryCount, next);
    }
    at(next);
    await sweep();
    expect(count()).toBe(7);
    await expectLog(6, null);
    at(next + 7 * 24 * HOUR);
    await sweep();
    await due();
    expect(count()).toBe(7);

    // One delivery id across all seven attempts, each freshly timestamped for Standard Webhooks.
    const reqs = receiver.requestsTo(ep.path);
    expect(new Set(reqs.map((r) => r.headers['x-svc-delivery'])).size).toBe(1);
    expect(new Set(reqs.map((r) => r.headers['webhook-timestamp'])).size).toBe(7);
    expect(reqs.every((r) => r.signatureValid && r.body === reqs[0]!.body)).toBe(true);
  });

  it('a sweep still working through a backlog leases from the moment it claims: a later sweep never sends the attempt again', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const failing = { kind: 'status', status: 500 } as const;
    receiver.behave(ep.path, [failing, failing, failing, { kind: 'status', status: 200, until: held }, { kind: 'status', status: 200 }]);
    await publish(t, flowFinished(tenant.workspaceId, 'run_backlog'));
    for (const step of [0, 1 * SECOND, 4 * SECOND]) {
      t.clock.advance(step);
      await due();
    }
    t.clock.advance(5 * MINUTE);
    const sweepStartedAt = t.clock.now();
    // That sweep has spent 3 minutes (longer than a lease) on other deliveries before reaching this one.
    t.clock.advance(3 * MINUTE);
    const late = runRetrySweep(t.app.services, sweepStartedAt);
    await receiver.waitFor(4, { path: ep.path });
    // Meanwhile another process's sweep starts, while the receiver is still answering the first one.
    const other = await sweep();
    answer();
    expect(await late).toEqual({ attempted: 1, succeeded: 1 });
    expect(other.attempted).toBe(0);
    expect(receiver.requestsTo(ep.path)).toHaveLength(4);
  });

  it('stops at the first 2xx', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    receiver.behave(ep.path, [
      { kind: 'status', status: 502 },
      { kind: 'status', status: 404 },
      { kind: 'status', status: 204 },
    ]);
    await publish(t, flowFinished(tenant.workspaceId));
    await due();
    t.clock.advance(1 * SECOND);
    await due();
    t.clock.advance(4 * SECOND);
    await due();
    const [d] = await deliveries(t, tenant, ep.id);
    expect(d).toMatchObject({ statusCode: 204, success: true, retryCount: 2, nextRetryAt: null, deliveredAt: t.clock.now().toISOString() });
    t.clock.advance(24 * HOUR);
    await due();
    await sweep();
    expect(receiver.requestsTo(ep.path)).toHaveLength(3);
  });

  it('a hang past the timeout is a failure with statusCode null, and is retried', async () => {
    // A short acknowledgement timeout for this test only, so the hang costs a fraction of a second. The
    // receiver never answers, so the attempt times out however slowly this machine runs.
    const config = t.app.services.config;
    const timeout = config.webhookTimeoutMs;
    config.webhookTimeoutMs = 300;
    onTestFinished(() => {
      config.webhookTimeoutMs = timeout;
    });
    const hang = await createEndpoint(t, tenant, receiver);
    receiver.behave(hang.path, { kind: 'hang' });
    await publish(t, flowFinished(tenant.workspaceId));
    await due();
    const [h] = await deliveries(t, tenant, hang.id);
    expect(h).toMatchObject({ statusCode: null, success: false, retryCount: 0 });
    expect(h!.failureReason).toMatch(/timed out after 300 ms/);
    expect(h!.nextRetryAt).toBe(new Date(t.clock.now().getTime() + 1 * SECOND).toISOString());
    // Its retries would slow the other tests' runs down.
    await api(t.baseUrl, tenant.key).delete(`/v1/webhooks/${hang.id}`);
  });

  it('a redirect (not followed) and a dropped connection are failures', async () => {
    // The real 10 s acknowledgement timeout: both answer at once, so a busy machine cannot turn them into timeouts.
    const redirect = await createEndpoint(t, tenant, receiver);
    const dropped = await createEndpoint(t, tenant, receiver);
    receiver.behave(redirect.path, { kind: 'redirect', location: receiver.url('/redirect-target') });
    receiver.behave(dropped.path, { kind: 'close' });
    await publish(t, flowFinished(tenant.workspaceId));
    await due();
    const [r] = await deliveries(t, tenant, redirect.id);
    expect(r).toMatchObject({ statusCode: 302, success: false, retryCount: 0 });
    expect(r!.nextRetryAt).not.toBeNull();
    expect(receiver.requestsTo('/redirect-target')).toHaveLength(0);
    const [c] = await deliveries(t, tenant, dropped.id);
    expect(c).toMatchObject({ statusCode: null, success: false, retryCount: 0 });
    expect(c!.failureReason).toMatch(/connection/);
    expect(c!.nextRetryAt).not.toBeNull();
    for (const ep of [redirect, dropped]) await api(t.baseUrl, tenant.key).delete(`/v1/webhooks/${ep.id}`);
  });

  it('keeps only the beginning of the response body, and survives binary answers', async () => {
    const big = await createEndpoint(t, tenant, receiver);
    const binary = await createEndpoint(t, tenant, receiver);
    receiver.behave(big.path, { kind: 'status', status: 200, body: 'x'.repeat(100_000) });
    receiver.behave(binary.path, { kind: 'status', status: 500, body: 'a\u0000b' });
    await publish(t, flowFinished(tenant.workspaceId));
    await due();
    const [d] = await deliveries(t, tenant, big.id);
    expect(d!.responseBody).toBe('x'.repeat(4096));
    const [e] = await deliveries(t, tenant, binary.id);
    expect(e).toMatchObject({ statusCode: 500, responseBody: 'ab' });
  });
});

describe('routing (SPEC, Events 5 and 6)', () => {
  it('knowledge events go to the actor’s subscribed active endpoints; flow events to every subscribed active endpoint of the workspace', async () => {
    const colleague = await t.user(tenant.workspaceId);
    const stranger = await t.tenant();
    const mine = await createEndpoint(t, tenant, receiver, ['source.ingested', 'flow.run.finished']);
    const theirs = await createEndpoint(t, colleague, receiver, ['source.ingested', 'flow.run.finished']);
    const unsubscribed = await createEndpoint(t, tenant, receiver, ['source.failed']);
    const paused = await createEndpoint(t, tenant, receiver, ['source.ingested', 'flow.run.finished']);
    await api(t.baseUrl, tenant.key).put(`/v1/webhooks/${paused.id}`, { isActive: false });
    const foreign = await createEndpoint(t, stranger, receiver, ['source.ingested', 'flow.run.finished']);

    await publish(t, sourceIngested(tenant));
    await publish(t, { ...sourceIngested(tenant), actorUserId: null });
    await publish(t, flowFinished(tenant.workspaceId));
    await due();
    const events = (ep: CreatedEndpoint) => receiver.requestsTo(ep.path).map((r) => r.headers['x-svc-event']);
    expect(events(mine).sort()).toEqual(['flow.run.finished', 'source.ingested']);
    expect(events(theirs)).toEqual(['flow.run.finished']);
    expect(events(unsubscribed)).toEqual([]);
    expect(events(paused)).toEqual([]);
    expect(events(foreign)).toEqual([]);
    const payload = JSON.parse(receiver.requestsTo(mine.path).find((r) => r.headers['x-svc-event'] === 'source.ingested')!.body);
    expect(payload).toEqual(sourceIngested(tenant).payload);
  });

  it('refuses unknown event names and webhook.test from producers', async () => {
    const em = t.app.services.orm.em.fork();
    await expect(publishEvent({ em, clock: t.clock, app: t.app.services }, { ...flowFinished(tenant.workspaceId), name: 'nope' as never })).rejects.toThrow(/Unknown webhook event/);
    await expect(publishEvent({ em, clock: t.clock, app: t.app.services }, { ...flowFinished(tenant.workspaceId), name: 'webhook.test' })).rejects.toThrow(/test route/);
  });
});

describe('the outbox', () => {
  it('commits with the producer’s change, wakes the worker after the commit, and writes nothing on rollback', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    let wakes = 0;
    const unsubscribe = t.app.services.webhooks.wake.subscribe(() => void (wakes += 1));
    try {
      const em = t.app.services.orm.em.fork();
      await em.transactional(async (tx) => {
        const change = await tx.findOneOrFail(WebhookEndpoint, { id: ep.id });
        change.description = 'changed with the event';
        await publishEvent({ em: tx, clock: t.clock, app: t.app.services }, flowFinished(tenant.workspaceId, 'run_tx'));
        await tx.flush();
        // Flushed but not committed: the worker was not woken yet, and (on PostgreSQL, where another
        // session can look while this transaction is open; the embedded database has only one) the rows
        // are invisible to others.
        expect(wakes).toBe(0);
        if (t.db.url) expect(await storedDeliveries(t, ep.id)).toHaveLength(0);
      });
      expect(wakes).toBe(1);
      expect(await storedDeliveries(t, ep.id)).toHaveLength(1);

      await expect(
        em.fork().transactional(async (tx) => {
          await publishEvent({ em: tx, clock: t.clock, app: t.app.services }, flowFinished(tenant.workspaceId, 'run_rolled_back'));
          await tx.flush();
          throw new Error('the producer failed');
        }),
      ).rejects.toThrow('the producer failed');
      expect(wakes).toBe(1);
      expect(await storedDeliveries(t, ep.id)).toHaveLength(1);

      // Without an explicit transaction: written (and the worker woken) by the producer's own flush.
      const plain = em.fork();
      const change = await plain.findOneOrFail(WebhookEndpoint, { id: ep.id });
      change.description = 'second change';
      await publishEvent({ em: plain, clock: t.clock, app: t.app.services }, flowFinished(tenant.workspaceId, 'run_flush'));
      expect(await storedDeliveries(t, ep.id)).toHaveLength(1);
      await plain.flush();
      expect(wakes).toBe(2);
      expect(await storedDeliveries(t, ep.id)).toHaveLength(2);
    } finally {
      unsubscribe();
    }
    await due();
    const runs = receiver.requestsTo(ep.path).map((r) => JSON.parse(r.body).runId);
    expect(runs.sort()).toEqual(['run_flush', 'run_tx']);
  });
});

describe('pause and resume', () => {
  it('pausing stops first attempts and retries; resuming restarts them', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    const c = api(t.baseUrl, tenant.key);
    await publish(t, flowFinished(tenant.workspaceId, 'run_before_pause'));
    await c.put(`/v1/webhooks/${ep.id}`, { isActive: false });
    await due();
    await publish(t, flowFinished(tenant.workspaceId, 'run_while_paused'));
    t.clock.advance(HOUR);
    await due();
    await sweep();
    expect(receiver.requestsTo(ep.path)).toHaveLength(0);
    await c.put(`/v1/webhooks/${ep.id}`, { isActive: true });
    await due();
    // The waiting delivery goes out; an event that happened while paused was never routed here.
    expect(receiver.requestsTo(ep.path).map((r) => JSON.parse(r.body).runId)).toEqual(['run_before_pause']);
  });

  it('the sweep skips a paused endpoint and retries once it is resumed', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    receiver.behave(ep.path, { kind: 'status', status: 500 });
    await publish(t, flowFinished(tenant.workspaceId));
    for (const step of [0, 1 * SECOND, 4 * SECOND]) {
      t.clock.advance(step);
      await due();
    }
    expect(receiver.requestsTo(ep.path)).toHaveLength(3);
    const c = api(t.baseUrl, tenant.key);
    await c.put(`/v1/webhooks/${ep.id}`, { isActive: false });
    t.clock.advance(3 * HOUR);
    await sweep();
    expect(receiver.requestsTo(ep.path)).toHaveLength(3);
    receiver.behave(ep.path, { kind: 'status', status: 200 });
    await c.put(`/v1/webhooks/${ep.id}`, { isActive: true });
    await sweep();
    expect(receiver.requestsTo(ep.path)).toHaveLength(4);
    const [d] = await deliveries(t, tenant, ep.id);
    expect(d).toMatchObject({ success: true, retryCount: 3, nextRetryAt: null });
  });
});

describe('replay', () => {
  it('makes a new attempt now with the same body and delivery id, and cancels the pending retry', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    receiver.behave(ep.path, [{ kind: 'status', status: 500 }, { kind: 'status', status: 500 }, { kind: 'status', status: 202 }]);
    await publish(t, flowFinished(tenant.workspaceId, 'run_replay'));
    await due();
    t.clock.advance(1 * SECOND);
    await due();
    const [before] = await deliveries(t, tenant, ep.id);
    expect(before!.nextRetryAt).not.toBeNull();

    const res = await api(t.baseUrl, tenant.key).post(`/v1/webhooks/${ep.id}/deliveries/${before!.id}/replay`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, statusCode: 202 });
    const [after] = await deliveries(t, tenant, ep.id);
    expect(after).toMatchObject({ id: before!.id, statusCode: 202, success: true, retryCount: 2, nextRetryAt: null });

    // The cancelled automatic retries never happen.
    t.clock.advance(24 * HOUR);
    await due();
    await sweep();
    const reqs = receiver.requestsTo(ep.path);
    expect(reqs).toHaveLength(3);
    expect(new Set(reqs.map((r) => r.headers['x-svc-delivery']))).toEqual(new Set([before!.id]));
    expect(reqs[2]!.body).toBe(reqs[0]!.body);
    expect(reqs[2]!.signatureValid).toBe(true);
  });

  it('a replay or test whose caller hangs up still makes its attempt and records it', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    receiver.behave(ep.path, [{ kind: 'status', status: 500 }, { kind: 'status', status: 200, body: 'late', until: held }]);
    await publish(t, flowFinished(tenant.workspaceId, 'run_hangup'));
    await due();
    const [failed] = await deliveries(t, tenant, ep.id);
    expect(failed!.nextRetryAt).not.toBeNull();

    const hangUp = new AbortController();
    const call = (path: string) =>
      fetch(t.baseUrl + path, { method: 'POST', headers: { authorization: `Bearer ${tenant.key}` }, signal: hangUp.signal }).catch(
        () => undefined,
      );
    const calls = [call(`/v1/webhooks/${ep.id}/deliveries/${failed!.id}/replay`), call(`/v1/webhooks/${ep.id}/test`)];
    await receiver.waitFor(3, { path: ep.path }); // the first attempt, then the replay and the test, both held
    hangUp.abort();
    await Promise.all(calls);
    await expect.poll(() => t.openRequests, { timeout: 5_000 }).toBe(0); // the server has seen both callers leave
    answer();

    // The replay's outcome is recorded (its cancelled retry is not silently lost), and so is the test's.
    await expect
      .poll(async () => (await deliveries(t, tenant, ep.id)).find((d) => d.id === failed!.id), { timeout: 10_000 })
      .toMatchObject({ statusCode: 200, responseBody: 'late', success: true, retryCount: 1, nextRetryAt: null });
    await expect
      .poll(async () => (await deliveries(t, tenant, ep.id)).find((d) => d.event === 'webhook.test'), { timeout: 10_000 })
      .toMatchObject({ statusCode: 200, success: true, retryCount: 0, nextRetryAt: null });
  });

  it('replays a delivered one too, and reports an unreachable receiver with statusCode null', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    await publish(t, flowFinished(tenant.workspaceId));
    await due();
    const [d] = await deliveries(t, tenant, ep.id);
    receiver.behave(ep.path, { kind: 'close' });
    const res = await api(t.baseUrl, tenant.key).post(`/v1/webhooks/${ep.id}/deliveries/${d!.id}/replay`);
    expect(res.body).toEqual({ success: false, statusCode: null });
    const [after] = await deliveries(t, tenant, ep.id);
    expect(after).toMatchObject({ id: d!.id, success: false, statusCode: null, nextRetryAt: null, retryCount: 1 });
    t.clock.advance(24 * HOUR);
    await due();
    await sweep();
    expect(receiver.requestsTo(ep.path)).toHaveLength(2);
  });
});

describe('the delivery log', () => {
  it('keeps the latest 50 per endpoint, newest first, never dropping one still waiting for a retry', async () => {
    const ep = await createEndpoint(t, tenant, receiver);
    receiver.behave(ep.path, [{ kind: 'status', status: 500 }, { kind: 'status', status: 200 }]);
    await publish(t, flowFinished(tenant.workspaceId, 'run_pending'));
    await due(); // fails: retry due in 1 s
    const [pending] = await deliveries(t, tenant, ep.id);
    for (let i = 0; i < 55; i++) {
      t.clock.advance(10);
      await publish(t, flowFinished(tenant.workspaceId, `run_${i}`));
    }
    // Only the fresh ones are due now (the failed one waits until 1 s has passed).
    await due();
    const list = await deliveries(t, tenant, ep.id);
    expect(list).toHaveLength(50);
    const runIds = async () =>
      (await storedDeliveries(t, ep.id)).map((row) => JSON.parse(String(row.body)).runId as string);
    expect(list.filter((d) => !d.success)).toEqual([]);
    const times = list.map((d) => d.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const stored = await runIds();
    expect(stored).toContain('run_pending');
    expect(stored).toHaveLength(51);
    expect(stored.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, i) => `run_${54 - i}`));

    // Once its schedule ends, the old one leaves the log too.
    t.clock.advance(SECOND);
    await due();
    expect(await runIds()).toHaveLength(50);
    expect(await runIds()).not.toContain('run_pending');
    expect(receiver.requestsTo(ep.path).filter((r) => r.headers['x-svc-delivery'] === pending!.id)).toHaveLength(2);
  });
});
