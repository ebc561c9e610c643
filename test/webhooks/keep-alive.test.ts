import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueDeliveries, runRetrySweep } from '../../src/modules/webhooks/dispatcher.js';
import type { ResolvedAddress, Resolver } from '../../src/net/index.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createEndpoint, deliveries, flowFinished, publish } from '../support/webhooks.js';

/** Names under the test's control, counting lookups per name. */
const answers = new Map<string, string[]>();
const lookups = new Map<string, number>();
const resolve: Resolver = async (hostname) => {
  lookups.set(hostname, (lookups.get(hostname) ?? 0) + 1);
  const list = answers.get(hostname);
  if (!list) throw new Error(`no such name: ${hostname}`);
  return list.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};

let t: TestApp;
let receiver: WebhookReceiver;
let tenant: TestTenant;

beforeAll(async () => {
  t = await startTestApp({ resolve });
  // 127.0.0.2 is loopback too: the name below can move from one address to the other and reach the receiver.
  receiver = await startWebhookReceiver({ alsoOn: ['127.0.0.2'] });
  tenant = await t.tenant();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const due = () => runDueDeliveries(t.app.services, t.clock.now());
const connectionsOf = (path: string) => new Set(receiver.requestsTo(path).map((r) => r.connection));

describe('keep-alive connections per checked address', () => {
  it('deliveries to one endpoint, its test and replay attempts reuse one connection', async () => {
    const endpoint = await createEndpoint(t, tenant, receiver);
    for (let i = 0; i < 5; i++) {
      await publish(t, flowFinished(tenant.workspaceId, `run_keep_${i}`));
      expect(await due()).toEqual({ attempted: 1, succeeded: 1 });
    }
    const c = api(t.baseUrl, tenant.key);
    expect((await c.post(`/v1/webhooks/${endpoint.id}/test`)).body).toEqual({ success: true, statusCode: 200 });
    const [latest] = await deliveries(t, tenant, endpoint.id);
    expect((await c.post(`/v1/webhooks/${endpoint.id}/deliveries/${latest!.id}/replay`)).body).toEqual({ success: true, statusCode: 200 });

    const received = receiver.requestsTo(endpoint.path);
    expect(received).toHaveLength(7);
    expect(received.every((r) => r.signatureValid)).toBe(true);
    expect(connectionsOf(endpoint.path).size).toBe(1);
  });

  it('several endpoints of one origin share its pool: a second round of deliveries opens no connection', async () => {
    const own = await t.tenant();
    const endpoints = await Promise.all([0, 1, 2].map(() => createEndpoint(t, own, receiver)));
    const paths = endpoints.map((e) => e.path);
    const before = receiver.connections.length;
    await publish(t, flowFinished(own.workspaceId, 'run_round_1'));
    expect(await due()).toEqual({ attempted: 3, succeeded: 3 }); // three attempts at once
    const afterFirst = receiver.connections.length;
    expect(afterFirst - before).toBeLessThanOrEqual(3);
    await publish(t, flowFinished(own.workspaceId, 'run_round_2'));
    expect(await due()).toEqual({ attempted: 3, succeeded: 3 });
    expect(receiver.connections.length).toBe(afterFirst);
    const requests = receiver.requests.filter((r) => paths.includes(r.path));
    expect(requests).toHaveLength(6);
    expect(new Set(requests.map((r) => r.connection)).size).toBeLessThanOrEqual(3);
  });

  it('a DNS answer that changes is checked again: a new address gets a new connection, a refused one none', async () => {
    const tenant = await t.tenant();
    const name = 'hooks.keepalive.test';
    answers.set(name, ['127.0.0.1']);
    const res = await api(t.baseUrl, tenant.key).post('/v1/webhooks', { url: `http://${name}:${receiver.port}/moving`, events: ['flow.run.finished'] });
    expect(res.status).toBe(201);
    const id = res.body.webhook.id as string;
    receiver.secret('/moving', res.body.webhook.secret);
    const origin = `http://${name}:${receiver.port}`;
    const pools = t.app.services.webhooks.pools;

    // Two deliveries at 127.0.0.1: each attempt resolves the name again (one lookup each), one connection.
    lookups.set(name, 0);
    for (const runId of ['run_a', 'run_b']) {
      await publish(t, flowFinished(tenant.workspaceId, runId));
      await due();
    }
    expect(lookups.get(name)).toBe(2);
    const atFirst = receiver.requestsTo('/moving');
    expect(atFirst).toHaveLength(2);
    expect(atFirst.every((r) => r.localAddress === '127.0.0.1' && r.headers.host === `${name}:${receiver.port}`)).toBe(true);
    expect(new Set(atFirst.map((r) => r.connection)).size).toBe(1);
    const firstConnection = receiver.connections.find((c) => c.id === atFirst[0]!.connection)!;
    expect(pools.addressesOf(origin)).toEqual(['127.0.0.1']);

    // The name moves to 127.0.0.2 (allowed on-prem): checked again, a new connection there, with the same
    // Host header; the pool at the address the name no longer answers is closed with its connection.
    answers.set(name, ['127.0.0.2']);
    await publish(t, flowFinished(tenant.workspaceId, 'run_c'));
    await due();
    expect(lookups.get(name)).toBe(3);
    const moved = receiver.requestsTo('/moving').at(-1)!;
    expect(moved).toMatchObject({ localAddress: '127.0.0.2', signatureValid: true });
    expect(moved.headers.host).toBe(`${name}:${receiver.port}`);
    expect(moved.connection).not.toBe(firstConnection.id);
    expect(pools.addressesOf(origin)).toEqual(['127.0.0.2']);
    await expect.poll(() => firstConnection.open).toBe(false);

    // Now the metadata address: refused at the check, on every path, and the open connection to
    // 127.0.0.2 is not used for it.
    answers.set(name, ['169.254.169.254']);
    await publish(t, flowFinished(tenant.workspaceId, 'run_d'));
    await due();
    t.clock.advance(1000);
    await due();
    t.clock.advance(4000);
    await due();
    t.clock.advance(5 * 60_000);
    await runRetrySweep(t.app.services, t.clock.now());
    const [refused] = await deliveries(t, tenant, id);
    expect(refused).toMatchObject({ statusCode: null, success: false, retryCount: 3 });
    expect(refused!.failureReason).toMatch(/refused.*link-local/);
    const c = api(t.baseUrl, tenant.key);
    expect((await c.post(`/v1/webhooks/${id}/test`)).body).toEqual({ success: false, statusCode: null });
    expect((await c.post(`/v1/webhooks/${id}/deliveries/${refused!.id}/replay`)).body).toEqual({ success: false, statusCode: null });
    expect(receiver.requestsTo('/moving')).toHaveLength(3);
    expect(lookups.get(name)).toBe(9);

    // One allowed and one refused answer: refused too, even though a pool for the allowed one is open.
    answers.set(name, ['127.0.0.2', '169.254.169.254']);
    expect((await c.post(`/v1/webhooks/${id}/test`)).body).toEqual({ success: false, statusCode: null });
    expect(receiver.requestsTo('/moving')).toHaveLength(3);

    // Allowed again: the replay goes out, with the same delivery id.
    answers.set(name, ['127.0.0.2']);
    expect((await c.post(`/v1/webhooks/${id}/deliveries/${refused!.id}/replay`)).body).toEqual({ success: true, statusCode: 200 });
    expect(receiver.requestsTo('/moving').at(-1)!.headers['x-svc-delivery']).toBe(refused!.id);
  });
});
