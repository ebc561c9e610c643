import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runDueDeliveries } from '../../src/modules/webhooks/dispatcher.js';
import { WEBHOOK_EVENTS, newDelivery } from '../../src/modules/webhooks/events.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { deliveries, flowFinished, publish } from '../support/webhooks.js';

let t: TestApp;
let receiver: WebhookReceiver;
let a: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startWebhookReceiver();
  a = await t.tenant();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const ENDPOINT = 'id url events description isActive secretPreview createdAt updatedAt';
const DELIVERY = 'id event statusCode responseBody success retryCount deliveredAt nextRetryAt createdAt failureReason requestId';
const CREATE = `mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { secret webhook { ${ENDPOINT} } } }`;

async function createViaGraphql(tenant: TestTenant, path: string, events = ['flow.run.finished']) {
  const res = await api(t.baseUrl, tenant.key).graphql(CREATE, { i: { url: receiver.url(path), events, description: 'from the console' } });
  expect(res.errors).toBeUndefined();
  receiver.secret(path, res.data.createWebhook.secret);
  return res.data.createWebhook as { secret: string; webhook: Record<string, unknown> & { id: string } };
}

describe('GraphQL webhooks agree with REST', () => {
  it('createWebhook returns the secret once; queries and REST show the same endpoint without it', async () => {
    const created = await createViaGraphql(a, '/gql-created');
    expect(created.secret).toMatch(/^whsec_/);
    const rest = await api(t.baseUrl, a.key).get(`/v1/webhooks/${created.webhook.id}`);
    expect(rest.body.webhook).toEqual(created.webhook);
    const gql = await api(t.baseUrl, a.key).graphql(`query($id: ID!) { webhook(id: $id) { ${ENDPOINT} } webhooks { id } }`, {
      id: created.webhook.id,
    });
    expect(gql.data.webhook).toEqual(rest.body.webhook);
    const list = await api(t.baseUrl, a.key).get('/v1/webhooks');
    expect(gql.data.webhooks.map((w: { id: string }) => w.id)).toEqual(list.body.webhooks.map((w: { id: string }) => w.id));
  });

  it('endpoints with their deliveries (batched) match the REST logs', async () => {
    const tenant = await t.tenant();
    const one = await createViaGraphql(tenant, '/gql-one');
    const two = await createViaGraphql(tenant, '/gql-two');
    const quiet = await createViaGraphql(tenant, '/gql-quiet', ['source.failed']);
    receiver.behave('/gql-two', { kind: 'status', status: 500, body: 'nope' });
    await publish(t, flowFinished(tenant.workspaceId, 'run_a'));
    t.clock.advance(1000);
    await publish(t, flowFinished(tenant.workspaceId, 'run_b'));
    await runDueDeliveries(t.app.services, t.clock.now());
    const gql = await api(t.baseUrl, tenant.key).graphql(`{ webhooks { id deliveries { ${DELIVERY} } } }`);
    expect(gql.errors).toBeUndefined();
    const byId = new Map<string, unknown[]>(gql.data.webhooks.map((w: { id: string; deliveries: unknown[] }) => [w.id, w.deliveries]));
    expect(byId.get(one.webhook.id)).toEqual(await deliveries(t, tenant, one.webhook.id));
    expect(byId.get(two.webhook.id)).toEqual(await deliveries(t, tenant, two.webhook.id));
    expect(byId.get(two.webhook.id)).toHaveLength(2);
    expect(byId.get(quiet.webhook.id)).toEqual([]);
    const single = await api(t.baseUrl, tenant.key).graphql(`query($id: ID!) { webhookDeliveries(webhookId: $id) { ${DELIVERY} } }`, {
      id: two.webhook.id,
    });
    expect(single.data.webhookDeliveries).toEqual(byId.get(two.webhook.id));
  });

  it('deliveries keeps the 50 newest per endpoint (ties by id), read for every endpoint in one statement', async () => {
    const tenant = await t.tenant();
    const busy = await createViaGraphql(tenant, '/gql-busy');
    const small = await createViaGraphql(tenant, '/gql-small');
    const quiet = await createViaGraphql(tenant, '/gql-quiet-2');
    // Stored directly, with creation times shared by pairs of rows, so the id decides between them.
    const em = t.app.services.orm.em.fork();
    const base = t.clock.now().getTime();
    const rows = (endpointId: string, count: number) =>
      Array.from({ length: count }, (_, i) =>
        newDelivery(em, {
          workspaceId: tenant.workspaceId,
          endpointId,
          eventId: `evt_${i}`,
          event: 'flow.run.finished',
          body: JSON.stringify({ i }),
          createdAt: new Date(base + Math.floor(i / 2) * 1000),
          nextAttemptAt: null,
        }),
      );
    const busyRows = rows(busy.webhook.id, 63);
    const smallRows = rows(small.webhook.id, 3);
    await em.flush();
    const newest = (list: typeof busyRows, n: number) =>
      [...list]
        .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (x.id < y.id ? 1 : -1))
        .slice(0, n)
        .map((d) => d.id);

    // Every statement of the request goes through the one connection object: count those reading deliveries.
    const execute = vi.spyOn(t.app.services.orm.em.getConnection(), 'execute');
    let gql;
    let statements: string[];
    try {
      gql = await api(t.baseUrl, tenant.key).graphql(`{ webhooks { id deliveries { ${DELIVERY} } } }`);
      statements = execute.mock.calls.map(([sql]) => String(sql));
    } finally {
      execute.mockRestore();
    }
    expect(gql.errors).toBeUndefined();
    const deliveryReads = statements.filter((sql) => /webhook_delivery/.test(sql));
    expect(deliveryReads).toHaveLength(1);
    expect(deliveryReads[0]).toMatch(/row_number\(\) over \(partition by d\.endpoint_id/);

    type Listed = { id: string; deliveries: { id: string; createdAt: string }[] };
    const byId = new Map<string, Listed['deliveries']>(gql.data.webhooks.map((w: Listed) => [w.id, w.deliveries]));
    expect(byId.get(busy.webhook.id)).toHaveLength(50);
    expect(byId.get(busy.webhook.id)!.map((d) => d.id)).toEqual(newest(busyRows, 50));
    expect(byId.get(small.webhook.id)!.map((d) => d.id)).toEqual(newest(smallRows, 3));
    expect(byId.get(quiet.webhook.id)).toEqual([]);
    // Same entries, fields and order as the REST log and the single-endpoint query.
    expect(byId.get(busy.webhook.id)).toEqual(await deliveries(t, tenant, busy.webhook.id));
    expect(byId.get(small.webhook.id)).toEqual(await deliveries(t, tenant, small.webhook.id));
    const single = await api(t.baseUrl, tenant.key).graphql(`query($id: ID!) { webhookDeliveries(webhookId: $id) { ${DELIVERY} } }`, {
      id: busy.webhook.id,
    });
    expect(single.data.webhookDeliveries).toEqual(byId.get(busy.webhook.id));

    // Another user's endpoints are not theirs to read, even through the loader.
    const colleague = await t.user(tenant.workspaceId);
    expect((await api(t.baseUrl, colleague.key).graphql(`{ webhooks { id deliveries { id } } }`)).data.webhooks).toEqual([]);
  });

  it('update, test, replay and delete mutations behave like their routes', async () => {
    const c = api(t.baseUrl, a.key);
    const created = await createViaGraphql(a, '/gql-mut');
    const id = created.webhook.id;
    const updated = await c.graphql(`mutation($id: ID!) { updateWebhook(id: $id, input: { events: ["knowledge.stale"], isActive: false, description: null }) { ${ENDPOINT} } }`, { id });
    expect(updated.data.updateWebhook).toMatchObject({ events: ['knowledge.stale'], isActive: false, description: 'from the console' });
    expect((await c.get(`/v1/webhooks/${id}`)).body.webhook).toEqual(updated.data.updateWebhook);

    const tested = await c.graphql(`mutation($id: ID!) { testWebhook(id: $id) { success statusCode } }`, { id });
    expect(tested.data.testWebhook).toEqual({ success: true, statusCode: 200 });
    const [logged] = await deliveries(t, a, id);
    expect(logged!.event).toBe('webhook.test');
    receiver.behave('/gql-mut', { kind: 'status', status: 410 });
    const replayed = await c.graphql(`mutation($w: ID!, $d: ID!) { replayWebhookDelivery(webhookId: $w, deliveryId: $d) { success statusCode } }`, {
      w: id,
      d: logged!.id,
    });
    expect(replayed.data.replayWebhookDelivery).toEqual({ success: false, statusCode: 410 });
    const reqs = receiver.requestsTo('/gql-mut');
    expect(reqs.map((r) => r.headers['x-svc-delivery'])).toEqual([logged!.id, logged!.id]);
    expect(reqs.every((r) => r.signatureValid)).toBe(true);

    const missing = await c.graphql(`mutation($w: ID!) { replayWebhookDelivery(webhookId: $w, deliveryId: "whd_nope") { success } }`, { w: id });
    expect(missing.errors![0]).toMatchObject({ message: 'Delivery not found', extensions: { code: 'not_found', status: 404, resource: 'delivery' } });

    const deleted = await c.graphql(`mutation($id: ID!) { deleteWebhook(id: $id) }`, { id });
    expect(deleted.data.deleteWebhook).toBe(true);
    expect((await c.get(`/v1/webhooks/${id}`)).status).toBe(404);
  });

  it('refuses the same input, keys and users as REST', async () => {
    const c = api(t.baseUrl, a.key);
    const unknown = await c.graphql(CREATE, { i: { url: receiver.url(), events: ['nope'] } });
    expect(unknown.errors![0].message).toContain('nope');
    expect(unknown.errors![0].extensions).toMatchObject({ code: 'validation_failed', status: 400, validEvents: [...WEBHOOK_EVENTS] });
    const rest = await c.post('/v1/webhooks', { url: receiver.url(), events: ['nope'] });
    expect(unknown.errors![0].message).toBe(rest.body.error);

    // SPEC requires url, so CreateWebhookInput marks it non-null: GraphQL refuses a missing one itself;
    // an empty one reaches the service and gets the REST message.
    const noUrl = await c.graphql(CREATE, { i: { events: ['flow.run.finished'] } });
    expect(noUrl.errors![0].message).toMatch(/"url" of required type "String!"/);
    const emptyUrl = await c.graphql(CREATE, { i: { url: '', events: ['flow.run.finished'] } });
    expect(emptyUrl.errors![0].message).toBe((await c.post('/v1/webhooks', { url: '', events: ['flow.run.finished'] })).body.error);
    const refused = await c.graphql(CREATE, { i: { url: 'http://169.254.169.254/', events: ['flow.run.finished'] } });
    expect(refused.errors![0].message).toMatch(/link-local/);

    const created = await createViaGraphql(a, '/gql-private');
    const ro = api(t.baseUrl, await t.key(a, { readonly: true }));
    expect((await ro.graphql(`{ webhooks { id } }`)).errors).toBeUndefined();
    for (const mutation of [
      `mutation { createWebhook(input: { url: "${receiver.url()}", events: ["flow.run.finished"] }) { secret } }`,
      `mutation { updateWebhook(id: "${created.webhook.id}", input: { isActive: false }) { id } }`,
      `mutation { testWebhook(id: "${created.webhook.id}") { success } }`,
      `mutation { deleteWebhook(id: "${created.webhook.id}") }`,
    ]) {
      const res = await ro.graphql(mutation);
      expect(res.errors![0].extensions.code).toBe('read_only_key');
    }
    const denied = await api(t.baseUrl, await t.key(a, { scopes: ['agents'] })).graphql(`{ webhooks { id } }`);
    expect(denied.errors![0].extensions.code).toBe('scope_denied');

    const colleague = await t.user(a.workspaceId);
    const foreign = await api(t.baseUrl, colleague.key).graphql(`query($id: ID!) { webhook(id: $id) { id } }`, { id: created.webhook.id });
    expect(foreign.errors![0]).toMatchObject({ message: 'Webhook not found', extensions: { code: 'not_found', resource: 'webhook' } });
    const theirs = await api(t.baseUrl, colleague.key).graphql(`{ webhooks { id } }`);
    expect(theirs.data.webhooks).toEqual([]);
  });
});
