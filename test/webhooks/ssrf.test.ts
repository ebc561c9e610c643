import { lookup } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueDeliveries, runRetrySweep } from '../../src/modules/webhooks/dispatcher.js';
import type { ResolvedAddress, Resolver } from '../../src/net/index.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { deliveries, flowFinished, publish } from '../support/webhooks.js';

/**
 * A DNS under the test's control: names in `answers` resolve to what the test says at that moment (a
 * function answers per call); other names go to the system resolver. Counts lookups per name.
 */
class FakeDns {
  answers = new Map<string, string[] | (() => string[])>();
  lookups = new Map<string, number>();
  resolve: Resolver = async (hostname) => {
    this.lookups.set(hostname, (this.lookups.get(hostname) ?? 0) + 1);
    const entry = this.answers.get(hostname);
    if (!entry) {
      const found = await lookup(hostname, { all: true });
      return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
    }
    const list = typeof entry === 'function' ? entry() : entry;
    return list.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  set(name: string, ...addresses: string[]): void {
    this.answers.set(name, addresses);
  }
}

let onprem: TestApp;
let cloud: TestApp;
let receiver: WebhookReceiver;
const dns = { onprem: new FakeDns(), cloud: new FakeDns() };
/** Matrix endpoints (some at unreachable or public addresses) live in tenants that never receive events. */
let onpremTenant: TestTenant;
let cloudTenant: TestTenant;
let onpremRebind: TestTenant;
let cloudRebind: TestTenant;

beforeAll(async () => {
  // The real 10 s acknowledgement timeout: the attempts that reach the loopback receiver must succeed even
  // on a busy machine, and the refused ones fail before any connection.
  [onprem, cloud] = await Promise.all([
    startTestApp({ resolve: dns.onprem.resolve }),
    startTestApp({ env: { SVC_DEPLOYMENT: 'cloud' }, resolve: dns.cloud.resolve }),
  ]);
  receiver = await startWebhookReceiver();
  onpremTenant = await onprem.tenant();
  cloudTenant = await cloud.tenant();
  onpremRebind = await onprem.tenant();
  cloudRebind = await cloud.tenant();
});
afterAll(async () => {
  await receiver.close();
  await Promise.all([onprem.close(), cloud.close()]);
});

const create = (t: TestApp, tenant: TestTenant, url: string) =>
  api(t.baseUrl, tenant.key).post('/v1/webhooks', { url, events: ['flow.run.finished'] });

describe('URL rule at creation and update', () => {
  const refusedEverywhere: [string, RegExp][] = [
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://169.254.10.10/', /link-local/],
    ['http://[fe80::1]/', /link-local/],
    ['http://[::ffff:169.254.169.254]/', /link-local/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://[::]/', /unspecified/],
    ['http://224.0.0.1/', /multicast/],
    ['http://metadata.example.com/', /link-local/],
    ['ftp://93.184.216.34/', /http or https/],
    ['http://user:secret@93.184.216.34/', /credentials/],
    ['http//missing-colon', /not valid/],
  ];
  const privateTargets: [string, RegExp][] = [
    ['http://10.0.0.1/hook', /private/],
    ['http://172.16.5.4/hook', /private/],
    ['http://192.168.1.10/hook', /private/],
    ['http://127.0.0.1:8080/hook', /loopback/],
    ['http://[::1]/hook', /loopback/],
    ['http://[fc00::1]/hook', /unique-local/],
    ['http://100.64.0.1/hook', /carrier-grade NAT/],
    ['http://[::ffff:10.0.0.1]/hook', /private/],
    ['http://[::ffff:127.0.0.1]/hook', /loopback/],
    ['http://internal-app.example.com/hook', /private/],
    ['http://rebound.example.com/hook', /private/],
  ];
  const internalNames: [string, RegExp][] = [
    ['http://localhost/hook', /internal name/],
    ['http://intranet/hook', /internal name/],
    ['http://db.internal/hook', /internal name/],
    ['http://printer.local/hook', /internal name/],
  ];

  beforeAll(() => {
    for (const d of [dns.onprem, dns.cloud]) {
      d.set('metadata.example.com', '169.254.169.254');
      d.set('internal-app.example.com', '10.20.30.40');
      d.set('rebound.example.com', '93.184.216.34', '10.0.0.1');
      d.set('hooks.example.com', '93.184.216.34');
      d.set('intranet', '10.0.0.8');
      d.set('db.internal', '10.0.0.9');
      d.set('printer.local', '192.168.1.50');
    }
  });

  it('cloud: public addresses only; private ranges, loopback, unique-local, CGNAT, mapped forms and internal names refused with the reason', async () => {
    for (const [url, reason] of [...refusedEverywhere, ...privateTargets, ...internalNames]) {
      const res = await create(cloud, cloudTenant, url);
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatch(reason);
      expect(res.body.field).toBe('url');
    }
    for (const url of ['http://93.184.216.34/hook', 'https://hooks.example.com/hook', 'http://[2606:2800:220:1:248:1893:25c8:1946]/']) {
      expect((await create(cloud, cloudTenant, url)).status, url).toBe(201);
    }
  });

  it('on-prem: private network and loopback allowed, link-local never', async () => {
    for (const [url, reason] of refusedEverywhere) {
      const res = await create(onprem, onpremTenant, url);
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatch(reason);
    }
    for (const [url] of [...privateTargets, ...internalNames]) {
      expect((await create(onprem, onpremTenant, url)).status, url).toBe(201);
    }
  });

  it('the update is checked the same way', async () => {
    const ok = await create(cloud, cloudTenant, 'https://hooks.example.com/hook');
    const res = await api(cloud.baseUrl, cloudTenant.key).put(`/v1/webhooks/${ok.body.webhook.id}`, { url: 'http://10.0.0.1/' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/private/);
  });
});

describe('a name whose DNS answer changes after creation', () => {
  it('on-prem: every path checks the answer of the moment and connects to the checked address only', async () => {
    const t = onprem;
    const name = 'hooks.customer.test';
    dns.onprem.set(name, '127.0.0.1');
    const created = await create(t, onpremRebind, `http://${name}:${receiver.port}/rebind`);
    expect(created.status).toBe(201);
    const id = created.body.webhook.id;
    receiver.secret('/rebind', created.body.webhook.secret);
    const c = api(t.baseUrl, onpremRebind.key);

    // Reachable through the checked address (the system DNS does not know this name at all).
    expect((await c.post(`/v1/webhooks/${id}/test`)).body).toEqual({ success: true, statusCode: 200 });
    const [first] = receiver.requestsTo('/rebind');
    expect(first!.headers.host).toBe(`${name}:${receiver.port}`);
    expect(first!.signatureValid).toBe(true);

    // The name now points at the cloud metadata address: nothing leaves, on any path.
    dns.onprem.set(name, '169.254.169.254');
    await publish(t, flowFinished(onpremRebind.workspaceId, 'run_rebind'));
    await runDueDeliveries(t.app.services, t.clock.now()); // first attempt
    t.clock.advance(1000);
    await runDueDeliveries(t.app.services, t.clock.now()); // immediate retry
    t.clock.advance(4000);
    await runDueDeliveries(t.app.services, t.clock.now());
    t.clock.advance(5 * 60_000);
    await runRetrySweep(t.app.services, t.clock.now()); // sweep retry
    const [refused] = (await deliveries(t, onpremRebind, id)).filter((d) => d.event === 'flow.run.finished');
    expect(refused).toMatchObject({ statusCode: null, success: false, retryCount: 3 });
    expect(refused!.failureReason).toMatch(/refused.*link-local/);
    expect((await c.post(`/v1/webhooks/${id}/test`)).body).toEqual({ success: false, statusCode: null });
    expect((await c.post(`/v1/webhooks/${id}/deliveries/${refused!.id}/replay`)).body).toEqual({ success: false, statusCode: null });
    // One answer out of two refused is enough to refuse.
    dns.onprem.set(name, '127.0.0.1', '169.254.169.254');
    expect((await c.post(`/v1/webhooks/${id}/deliveries/${refused!.id}/replay`)).body).toEqual({ success: false, statusCode: null });
    expect(receiver.requestsTo('/rebind')).toHaveLength(1);

    // Back to an allowed answer: the replay goes out with the same delivery id.
    dns.onprem.set(name, '127.0.0.1');
    expect((await c.post(`/v1/webhooks/${id}/deliveries/${refused!.id}/replay`)).body).toEqual({ success: true, statusCode: 200 });
    const last = receiver.requestsTo('/rebind').at(-1)!;
    expect(last.headers['x-svc-delivery']).toBe(refused!.id);
    expect(JSON.parse(last.body).runId).toBe('run_rebind');
  });

  it('on-prem: a name answering an allowed address first and a refused one next cannot be rebound (one lookup per attempt)', async () => {
    const t = onprem;
    const name = 'flip.customer.test';
    let calls = 0;
    dns.onprem.answers.set(name, () => (++calls % 2 === 1 ? ['127.0.0.1'] : ['169.254.169.254']));
    const created = await create(t, onpremRebind, `http://${name}:${receiver.port}/flip`);
    expect(created.status).toBe(201); // creation used answer 1
    dns.onprem.lookups.set(name, 0);
    calls = 0;
    const res = await api(t.baseUrl, onpremRebind.key).post(`/v1/webhooks/${created.body.webhook.id}/test`);
    // The attempt checked answer 1 and connected to it; a second lookup would have reached the refused address.
    expect(res.body).toEqual({ success: true, statusCode: 200 });
    expect(dns.onprem.lookups.get(name)).toBe(1);
    expect(receiver.requestsTo('/flip')).toHaveLength(1);
  });

  it('cloud: public at creation, loopback at delivery: refused, the loopback receiver never reached', async () => {
    const t = cloud;
    const name = 'hooks.partner.example';
    dns.cloud.set(name, '93.184.216.34');
    const created = await create(t, cloudRebind, `http://${name}:${receiver.port}/cloud-rebind`);
    expect(created.status).toBe(201);
    const id = created.body.webhook.id;
    dns.cloud.set(name, '127.0.0.1');
    const c = api(t.baseUrl, cloudRebind.key);
    expect((await c.post(`/v1/webhooks/${id}/test`)).body).toEqual({ success: false, statusCode: null });
    await publish(t, flowFinished(cloudRebind.workspaceId, 'run_cloud'));
    await runDueDeliveries(t.app.services, t.clock.now());
    const log = await deliveries(t, cloudRebind, id);
    expect(log).toHaveLength(2);
    for (const d of log) {
      expect(d).toMatchObject({ statusCode: null, success: false });
      expect(d.failureReason).toMatch(/refused.*loopback/);
    }
    dns.cloud.set(name, '10.9.8.7');
    expect((await c.post(`/v1/webhooks/${id}/deliveries/${log[0]!.id}/replay`)).body).toEqual({ success: false, statusCode: null });
    expect((await deliveries(t, cloudRebind, id))[0]!.failureReason).toMatch(/private/);
    expect(receiver.requestsTo('/cloud-rebind')).toHaveLength(0);
  });
});
