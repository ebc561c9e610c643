import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runDueDeliveries, runRetrySweep } from '../../src/modules/webhooks/dispatcher.js';
import { WEBHOOK_EVENTS } from '../../src/modules/webhooks/events.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { closedPort, createEndpoint, deliveries, flowFinished, publish, storedDeliveries } from '../support/webhooks.js';

let t: TestApp;
let receiver: WebhookReceiver;
let a: TestTenant;
let a2: TestTenant;
let b: TestTenant;

const SPEC_EVENTS = [
  'source.ingested',
  'source.failed',
  'knowledge.contradiction_detected',
  'knowledge.stale',
  'debate.synthesized',
  'flow.run.finished',
  'flow.approval.requested',
  'webhook.test',
  'simulation.tick.completed',
  'simulation.report.ready',
];

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startWebhookReceiver();
  a = await t.tenant();
  a2 = await t.user(a.workspaceId);
  b = await t.tenant();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

describe('POST /v1/webhooks', () => {
  it('201 { webhook } with the whsec_ secret shown once', async () => {
    const res = await api(t.baseUrl, a.key).post('/v1/webhooks', {
      url: receiver.url('/created'),
      events: ['source.ingested', 'flow.run.finished'],
      description: 'CRM sync',
    });
    expect(res.status).toBe(201);
    const w = res.body.webhook;
    expect(w).toMatchObject({
      url: receiver.url('/created'),
      events: ['source.ingested', 'flow.run.finished'],
      description: 'CRM sync',
      isActive: true,
    });
    expect(w.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(w.secret.slice('whsec_'.length), 'base64').length).toBe(32);
    expect(w.secretPreview).toMatch(/^whsec_/);
    expect(w.secretPreview).not.toContain(w.secret.slice(6, 20));
    expect(new Date(w.createdAt).toISOString()).toBe(w.createdAt);
    expect(w.updatedAt).toBe(w.createdAt);

    // Never readable again: not in the list, not in a read, not in an update.
    const list = await api(t.baseUrl, a.key).get('/v1/webhooks');
    const listed = list.body.webhooks.find((x: { id: string }) => x.id === w.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('secret');
    expect(listed.secretPreview).toBe(w.secretPreview);
    const one = await api(t.baseUrl, a.key).get(`/v1/webhooks/${w.id}`);
    expect(one.status).toBe(200);
    expect(one.body.webhook).not.toHaveProperty('secret');
    expect(Object.keys(one.body.webhook).sort()).toEqual(
      ['createdAt', 'description', 'events', 'id', 'isActive', 'secretPreview', 'updatedAt', 'url'].sort(),
    );
    const put = await api(t.baseUrl, a.key).put(`/v1/webhooks/${w.id}`, { description: 'renamed' });
    expect(put.body.webhook).not.toHaveProperty('secret');
    expect(JSON.stringify([list.body, one.body, put.body])).not.toContain(w.secret);
  });

  it('description is optional (empty string) and duplicate events are stored once', async () => {
    const res = await api(t.baseUrl, a.key).post('/v1/webhooks', {
      url: receiver.url('/dup'),
      events: ['flow.run.finished', 'flow.run.finished'],
    });
    expect(res.status).toBe(201);
    expect(res.body.webhook.description).toBe('');
    expect(res.body.webhook.events).toEqual(['flow.run.finished']);
  });

  it('accepts every SPEC event name', async () => {
    expect([...WEBHOOK_EVENTS]).toEqual(SPEC_EVENTS);
    const res = await api(t.baseUrl, a.key).post('/v1/webhooks', { url: receiver.url('/all'), events: SPEC_EVENTS });
    expect(res.status).toBe(201);
    expect(res.body.webhook.events).toEqual(SPEC_EVENTS);
  });

  it('400 naming the field for missing or empty url or events, wrong types', async () => {
    const c = api(t.baseUrl, a.key);
    const cases: [unknown, string][] = [
      [{ events: ['flow.run.finished'] }, 'url'],
      [{ url: '', events: ['flow.run.finished'] }, 'url'],
      [{ url: '   ', events: ['flow.run.finished'] }, 'url'],
      [{ url: 42, events: ['flow.run.finished'] }, 'url'],
      [{ url: receiver.url() }, 'events'],
      [{ url: receiver.url(), events: [] }, 'events'],
      [{ url: receiver.url(), events: 'flow.run.finished' }, 'events'],
      [{ url: receiver.url(), events: [1] }, 'events'],
      [{ url: receiver.url(), events: ['flow.run.finished'], description: 5 }, 'description'],
      [{ url: receiver.url('/a\u0000b'), events: ['flow.run.finished'] }, 'url'],
      [{ url: receiver.url(), events: ['flow.run.finished'], description: 'a\u0000b' }, 'description'],
      [{}, 'url'],
    ];
    for (const [body, field] of cases) {
      const res = await c.post('/v1/webhooks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(field);
    }
    const malformed = await c.post('/v1/webhooks', '{"url": ');
    expect(malformed.status).toBe(400);
  });

  it('400 with validEvents for an unknown event name', async () => {
    const res = await api(t.baseUrl, a.key).post('/v1/webhooks', {
      url: receiver.url(),
      events: ['flow.run.finished', 'source.exploded'],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('source.exploded');
    expect(res.body.validEvents).toEqual(SPEC_EVENTS);
  });

  it('400 with the reason for an invalid or refused URL', async () => {
    const c = api(t.baseUrl, a.key);
    const cases: [string, RegExp][] = [
      ['not a url', /not valid/],
      ['ftp://127.0.0.1/x', /http or https/],
      ['http://user:pass@127.0.0.1/x', /credentials/],
      ['http://169.254.169.254/latest/meta-data', /link-local/],
    ];
    for (const [url, reason] of cases) {
      const res = await c.post('/v1/webhooks', { url, events: ['flow.run.finished'] });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatch(/url/i);
      expect(res.body.error).toMatch(reason);
    }
  });
});

describe('authentication and scopes', () => {
  it('401 without a key, 403 scope_denied for a key without the webhooks scope', async () => {
    expect((await api(t.baseUrl).get('/v1/webhooks')).status).toBe(401);
    const agentsOnly = await t.key(a, { scopes: ['agents'] });
    const denied = await api(t.baseUrl, agentsOnly).get('/v1/webhooks');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('scope_denied');
    const scoped = await t.key(a, { scopes: ['webhooks'] });
    expect((await api(t.baseUrl, scoped).get('/v1/webhooks')).status).toBe(200);
  });

  it('a read-only key lists and reads but never creates, changes, deletes, tests or replays', async () => {
    const ep = await createEndpoint(t, a, receiver);
    await publish(t, flowFinished(a.workspaceId));
    await runDueDeliveries(t.app.services, t.clock.now());
    const [delivery] = await deliveries(t, a, ep.id);
    const ro = api(t.baseUrl, await t.key(a, { readonly: true, scopes: ['webhooks'] }));
    expect((await ro.get('/v1/webhooks')).status).toBe(200);
    expect((await ro.get(`/v1/webhooks/${ep.id}`)).status).toBe(200);
    expect((await ro.get(`/v1/webhooks/${ep.id}/deliveries`)).status).toBe(200);
    const before = receiver.requests.length;
    const writes = [
      ro.post('/v1/webhooks', { url: receiver.url(), events: ['flow.run.finished'] }),
      ro.put(`/v1/webhooks/${ep.id}`, { isActive: false }),
      ro.delete(`/v1/webhooks/${ep.id}`),
      ro.post(`/v1/webhooks/${ep.id}/test`),
      ro.post(`/v1/webhooks/${ep.id}/deliveries/${delivery!.id}/replay`),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('read_only_key');
    }
    expect(receiver.requests.length).toBe(before);
    expect((await api(t.baseUrl, a.key).get(`/v1/webhooks/${ep.id}`)).body.webhook.isActive).toBe(true);
  });
});

describe('privacy', () => {
  it('another user of the workspace, or another workspace, gets 404 Webhook not found on every route', async () => {
    const ep = await createEndpoint(t, a, receiver);
    await publish(t, flowFinished(a.workspaceId));
    await runDueDeliveries(t.app.services, t.clock.now());
    const [delivery] = await deliveries(t, a, ep.id);
    for (const other of [a2, b]) {
      const c = api(t.baseUrl, other.key);
      const list = await c.get('/v1/webhooks');
      expect(list.body.webhooks.map((w: { id: string }) => w.id)).not.toContain(ep.id);
      const calls = [
        c.get(`/v1/webhooks/${ep.id}`),
        c.put(`/v1/webhooks/${ep.id}`, { isActive: false }),
        c.delete(`/v1/webhooks/${ep.id}`),
        c.post(`/v1/webhooks/${ep.id}/test`),
        c.get(`/v1/webhooks/${ep.id}/deliveries`),
        c.post(`/v1/webhooks/${ep.id}/deliveries/${delivery!.id}/replay`),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Webhook not found' });
      }
    }
    expect((await api(t.baseUrl, a.key).get(`/v1/webhooks/${ep.id}`)).body.webhook.isActive).toBe(true);
  });

  it('unknown ids: Webhook not found, then Delivery not found', async () => {
    const c = api(t.baseUrl, a.key);
    expect((await c.get('/v1/webhooks/whk_nope')).body).toEqual({ error: 'Webhook not found' });
    expect((await c.get('/v1/webhooks/whk_nope/deliveries')).status).toBe(404);
    const ep = await createEndpoint(t, a, receiver);
    const other = await createEndpoint(t, a, receiver);
    await publish(t, flowFinished(a.workspaceId));
    await runDueDeliveries(t.app.services, t.clock.now());
    const [ofOther] = await deliveries(t, a, other.id);
    const missing = await c.post(`/v1/webhooks/${ep.id}/deliveries/whd_nope/replay`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Delivery not found' });
    // A delivery of another endpoint is not found under this one.
    const crossed = await c.post(`/v1/webhooks/${ep.id}/deliveries/${ofOther!.id}/replay`);
    expect(crossed.status).toBe(404);
    expect(crossed.body).toEqual({ error: 'Delivery not found' });
    const noHook = await c.post(`/v1/webhooks/whk_nope/deliveries/${ofOther!.id}/replay`);
    expect(noHook.body).toEqual({ error: 'Webhook not found' });

    // Ids no row can have (a NUL character) are missing too, never a 500 from the database.
    for (const res of [
      await c.get('/v1/webhooks/whk%00x'),
      await c.put('/v1/webhooks/whk%00x', { isActive: false }),
      await c.delete('/v1/webhooks/whk%00x'),
      await c.post('/v1/webhooks/whk%00x/test'),
      await c.get('/v1/webhooks/whk%00x/deliveries'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Webhook not found' });
    }
    expect((await c.post(`/v1/webhooks/${ep.id}/deliveries/whd%00x/replay`)).body).toEqual({ error: 'Delivery not found' });
  });
});

describe('GET /v1/webhooks', () => {
  it('newest first, only the caller’s own endpoints', async () => {
    const fresh = await t.user(a.workspaceId);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      ids.push((await createEndpoint(t, fresh, receiver)).id);
    }
    const res = await api(t.baseUrl, fresh.key).get('/v1/webhooks');
    expect(res.status).toBe(200);
    expect(res.body.webhooks.map((w: { id: string }) => w.id)).toEqual(ids.reverse());
  });
});

describe('PUT /v1/webhooks/:id', () => {
  it('partial update: events replace the list, null and omitted keep, updatedAt moves', async () => {
    const ep = await createEndpoint(t, a, receiver, ['flow.run.finished', 'source.failed']);
    t.clock.advance(60_000);
    const c = api(t.baseUrl, a.key);
    const res = await c.put(`/v1/webhooks/${ep.id}`, { events: ['knowledge.stale'], description: null });
    expect(res.status).toBe(200);
    expect(res.body.webhook.events).toEqual(['knowledge.stale']);
    expect(res.body.webhook.url).toBe(receiver.url(ep.path));
    expect(res.body.webhook.updatedAt).toBe(t.clock.now().toISOString());
    expect(res.body.webhook.updatedAt).not.toBe(res.body.webhook.createdAt);
    const moved = await c.put(`/v1/webhooks/${ep.id}`, { url: receiver.url('/moved'), description: 'moved', isActive: false });
    expect(moved.body.webhook).toMatchObject({ url: receiver.url('/moved'), description: 'moved', isActive: false, events: ['knowledge.stale'] });
    expect((await c.get(`/v1/webhooks/${ep.id}`)).body.webhook).toMatchObject({ url: receiver.url('/moved'), isActive: false });
  });

  it('400 for a refused URL, an unknown event (with validEvents), an empty list or wrong types; nothing changed', async () => {
    const ep = await createEndpoint(t, a, receiver);
    const c = api(t.baseUrl, a.key);
    const refused = await c.put(`/v1/webhooks/${ep.id}`, { url: 'http://[fe80::1]/x' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/link-local/);
    const unknown = await c.put(`/v1/webhooks/${ep.id}`, { events: ['nope'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.validEvents).toEqual(SPEC_EVENTS);
    expect((await c.put(`/v1/webhooks/${ep.id}`, { events: [] })).status).toBe(400);
    const wrong = await c.put(`/v1/webhooks/${ep.id}`, { isActive: 'no' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toContain('isActive');
    expect((await c.get(`/v1/webhooks/${ep.id}`)).body.webhook).toMatchObject({ url: receiver.url(ep.path), isActive: true });
  });

  it('404 for an unknown id', async () => {
    const res = await api(t.baseUrl, a.key).put('/v1/webhooks/whk_nope', { isActive: false });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Webhook not found' });
  });
});

describe('DELETE /v1/webhooks/:id', () => {
  it('204 with no body, removes the endpoint and its delivery log; 404 afterwards', async () => {
    const ep = await createEndpoint(t, a, receiver);
    await publish(t, flowFinished(a.workspaceId));
    await runDueDeliveries(t.app.services, t.clock.now());
    expect((await storedDeliveries(t, ep.id)).length).toBe(1);
    const c = api(t.baseUrl, a.key);
    const res = await c.delete(`/v1/webhooks/${ep.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await storedDeliveries(t, ep.id)).length).toBe(0);
    expect((await c.get(`/v1/webhooks/${ep.id}`)).status).toBe(404);
    expect((await c.delete(`/v1/webhooks/${ep.id}`)).status).toBe(404);
  });
});

describe('POST /v1/webhooks/:id/test', () => {
  it('sends one signed webhook.test to this endpoint only, whatever its subscriptions; logged; never retried', async () => {
    const ep = await createEndpoint(t, a, receiver, ['source.failed']);
    const bystander = await createEndpoint(t, a, receiver, ['webhook.test']);
    const res = await api(t.baseUrl, a.key).post(`/v1/webhooks/${ep.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, statusCode: 200 });
    const [req] = receiver.requestsTo(ep.path);
    expect(req?.signatureValid).toBe(true);
    expect(req?.headers['x-svc-event']).toBe('webhook.test');
    const payload = JSON.parse(req!.body);
    expect(Object.keys(payload).sort()).toEqual(['event', 'message', 'timestamp', 'webhookId']);
    expect(payload).toMatchObject({ event: 'webhook.test', webhookId: ep.id, timestamp: t.clock.now().toISOString() });
    expect(receiver.requestsTo(bystander.path)).toHaveLength(0);

    const [logged] = await deliveries(t, a, ep.id);
    expect(logged).toMatchObject({ event: 'webhook.test', statusCode: 200, success: true, retryCount: 0, nextRetryAt: null });
    expect(req?.headers['x-svc-delivery']).toBe(logged!.id);
  });

  it('a failing test is logged and never retried', async () => {
    const ep = await createEndpoint(t, a, receiver);
    receiver.behave(ep.path, { kind: 'status', status: 503, body: 'down' });
    const res = await api(t.baseUrl, a.key).post(`/v1/webhooks/${ep.id}/test`);
    expect(res.body).toEqual({ success: false, statusCode: 503 });
    const [logged] = await deliveries(t, a, ep.id);
    expect(logged).toMatchObject({ statusCode: 503, responseBody: 'down', success: false, retryCount: 0, nextRetryAt: null });
    t.clock.advance(24 * 3600_000);
    await runDueDeliveries(t.app.services, t.clock.now());
    await runRetrySweep(t.app.services, t.clock.now());
    expect(receiver.requestsTo(ep.path)).toHaveLength(1);
  });

  it('statusCode null when the receiver is unreachable', async () => {
    const port = await closedPort();
    const created = await api(t.baseUrl, a.key).post('/v1/webhooks', {
      url: `http://127.0.0.1:${port}/gone`,
      events: ['flow.run.finished'],
    });
    const res = await api(t.baseUrl, a.key).post(`/v1/webhooks/${created.body.webhook.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: false, statusCode: null });
    const [logged] = await deliveries(t, a, created.body.webhook.id);
    expect(logged).toMatchObject({ statusCode: null, success: false, nextRetryAt: null });
    expect(logged!.failureReason).toMatch(/connection/);
  });

  it('404 for an unknown endpoint', async () => {
    const res = await api(t.baseUrl, a.key).post('/v1/webhooks/whk_nope/test');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Webhook not found' });
  });
});

describe('GET /v1/webhooks/:id/deliveries', () => {
  it('200 { deliveries } newest first with every SPEC field', async () => {
    const ep = await createEndpoint(t, a, receiver);
    await publish(t, flowFinished(a.workspaceId, 'run_first'));
    t.clock.advance(1000);
    await publish(t, flowFinished(a.workspaceId, 'run_second'));
    await runDueDeliveries(t.app.services, t.clock.now());
    const list = await deliveries(t, a, ep.id);
    expect(list).toHaveLength(2);
    const bodies = receiver.requestsTo(ep.path).map((r) => JSON.parse(r.body).runId);
    expect(bodies.sort()).toEqual(['run_first', 'run_second']);
    expect(new Date(list[0]!.createdAt).getTime()).toBeGreaterThan(new Date(list[1]!.createdAt).getTime());
    for (const d of list) {
      expect(Object.keys(d).sort()).toEqual(
        ['createdAt', 'deliveredAt', 'event', 'failureReason', 'id', 'requestId', 'nextRetryAt', 'responseBody', 'retryCount', 'statusCode', 'success'].sort(),
      );
      expect(d).toMatchObject({ event: 'flow.run.finished', statusCode: 200, responseBody: 'ok', success: true, retryCount: 0, nextRetryAt: null });
      expect(d.deliveredAt).toBe(t.clock.now().toISOString());
    }
  });
});

describe('GET /openapi.json', () => {
  it('describes the eight webhook routes under the webhooks scope', async () => {
    const res = await api(t.baseUrl).get('/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths;
    expect(Object.keys(paths['/v1/webhooks']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/v1/webhooks/{id}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(paths['/v1/webhooks/{id}/test'].post['x-scope']).toBe('webhooks');
    expect(paths['/v1/webhooks/{id}/deliveries'].get).toBeDefined();
    expect(paths['/v1/webhooks/{id}/deliveries/{deliveryId}/replay'].post.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'deliveryId']);
    const create = paths['/v1/webhooks'].post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(expect.arrayContaining(['url', 'events']));
  });
});

describe('configuration', () => {
  it('the acknowledgement timeout is 10 s unless a test lowers it', () => {
    expect(loadConfig({}).webhookTimeoutMs).toBe(10_000);
    expect(t.app.services.config.webhookTimeoutMs).toBe(10_000);
  });
});
