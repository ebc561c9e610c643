import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowWork } from '../../src/modules/flows/engine.js';
import { runDueDeliveries } from '../../src/modules/webhooks/dispatcher.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { certificateHolds } from '../verify/offline.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createEndpoint } from '../support/webhooks.js';

/**
 * Request ids (issue 30, docs/operations.md "Request ids"): every answer carries `x-request-id` (a
 * well-formed inbound one kept), every log line of the request carries it, and so do the webhook
 * deliveries and flow runs the request causes and the proof certificate of the call (unsigned).
 */
let t: TestApp;
let ws: TestTenant;
let receiver: WebhookReceiver;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  t = await startTestApp({ env: { LOG_LEVEL: 'debug' }, log: pino({ level: 'debug' }, sink) });
  receiver = await startWebhookReceiver();
  ws = await t.tenant();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const linesOf = (id: string) => lines.filter((l) => l.requestId === id);

describe('x-request-id', () => {
  it('is generated when absent, kept when well-formed, replaced when not', async () => {
    const c = api(t.baseUrl, ws.key);
    const generated = await c.get('/v1/agents');
    expect(generated.status).toBe(200);
    expect(generated.headers.get('x-request-id')).toMatch(UUID);
    expect((await c.get('/v1/agents')).headers.get('x-request-id')).not.toBe(generated.headers.get('x-request-id'));

    for (const kept of ['req-abc_123', '0f5b3c1e-8a4d-4a7e-9f00-1d2c3b4a5e6f', 'Root=1-67891233-abcdef012345678912345678', 'a'.repeat(128)]) {
      expect((await c.get('/v1/agents', { 'x-request-id': kept })).headers.get('x-request-id')).toBe(kept);
    }
    for (const bad of ['has space', 'a'.repeat(129), 'quote"d', '<script>', 'semi;colon']) {
      const res = await c.get('/v1/agents', { 'x-request-id': bad });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  it('is on refusals, 404s, public routes and GraphQL too', async () => {
    const unauthenticated = await fetch(`${t.baseUrl}/v1/agents`, { headers: { 'x-request-id': 'refused-1' } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('x-request-id')).toBe('refused-1');
    const missing = await fetch(`${t.baseUrl}/nowhere`, { headers: { 'x-request-id': 'missing-1' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toBe('missing-1');
    const malformed = await fetch(`${t.baseUrl}/v1/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json', 'x-request-id': 'malformed-1' },
      body: '{',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('x-request-id')).toBe('malformed-1');
    expect((await fetch(`${t.baseUrl}/health`)).headers.get('x-request-id')).toMatch(UUID);
    const gql = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json', 'x-request-id': 'graphql-1' },
      body: JSON.stringify({ query: '{ agents { id } }' }),
    });
    expect(gql.status).toBe(200);
    expect(gql.headers.get('x-request-id')).toBe('graphql-1');
  });

  it('is carried by the log lines of its request', async () => {
    await api(t.baseUrl, ws.key).get('/v1/agents', { 'x-request-id': 'logged-1' });
    await fetch(`${t.baseUrl}/v1/agents`, { headers: { 'x-request-id': 'logged-2' } });
    const finished = linesOf('logged-1').find((l) => l.msg === 'request finished');
    expect(finished).toMatchObject({ method: 'GET', route: '/v1/agents', status: 200 });
    expect(typeof finished?.durationMs).toBe('number');
    expect(linesOf('logged-2').find((l) => l.msg === 'request finished')).toMatchObject({ route: '/v1/agents', status: 401 });
    // A route that is not a template of ours is not a label either.
    await fetch(`${t.baseUrl}/nowhere/123`, { headers: { 'x-request-id': 'logged-3' } });
    expect(linesOf('logged-3').find((l) => l.msg === 'request finished')).toMatchObject({ route: 'unmatched', status: 404 });
  });
});

describe('what a request causes', () => {
  it('a webhook delivery: stored, listed, sent as X-Request-Id and in its attempt log line', async () => {
    const endpoint = await createEndpoint(t, ws, receiver, ['flow.run.finished']);
    const c = api(t.baseUrl, ws.key);
    const tested = await c.post(`/v1/webhooks/${endpoint.id}/test`, {}, { 'x-request-id': 'hook-test-1' });
    expect(tested.status).toBe(200);
    const [received] = await receiver.waitFor(1, { path: endpoint.path });
    expect(received.headers['x-request-id']).toBe('hook-test-1');
    expect(received.signatureValid).toBe(true);
    const listed = await c.get(`/v1/webhooks/${endpoint.id}/deliveries`);
    expect(listed.body.deliveries[0]).toMatchObject({ event: 'webhook.test', requestId: 'hook-test-1' });
    expect(linesOf('hook-test-1').some((l) => l.msg === 'webhook attempt')).toBe(true);
  });

  it('a flow run, its steps and the delivery of its end', async () => {
    const endpoint = await createEndpoint(t, ws, receiver, ['flow.run.finished']);
    const c = api(t.baseUrl, ws.key);
    const flow = await c.post('/engine/flows', {
      name: 'Request ids',
      graph: { nodes: [{ key: 'start', type: 'trigger.manual' }, { key: 'say', type: 'transform', config: { template: 'hi' } }], edges: [{ from: 'start', to: 'say' }] },
    });
    expect(flow.status, JSON.stringify(flow.body)).toBe(201);
    const started = await c.post(`/engine/flows/${flow.body.flow.id}/run`, { input: {} }, { 'x-request-id': 'flow-run-1' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.run.requestId).toBe('flow-run-1');
    await runFlowWork(t.app.services);
    await runDueDeliveries(t.app.services, t.clock.now());
    const run = await c.get(`/engine/runs/${started.body.run.id}`);
    expect(run.body.run).toMatchObject({ status: 'succeeded', requestId: 'flow-run-1' });
    const [finished] = await receiver.waitFor(1, { path: endpoint.path });
    expect(JSON.parse(finished.body)).toMatchObject({ runId: started.body.run.id });
    expect(finished.headers['x-request-id']).toBe('flow-run-1');
    // A run started by no request (nor its delivery) carries none.
    const stored = await t.app.services.orm.em.fork().execute<{ request_id: string | null }[]>(
      'select request_id from webhook_delivery where endpoint_id = ?',
      [endpoint.id],
    );
    expect(stored.map((r) => r.request_id)).toEqual(['flow-run-1']);
  });

  it('the proof certificate of the call, beside the signed certificate', async () => {
    const c = api(t.baseUrl, ws.key);
    const report = await c.post(
      '/v1/verify',
      { text: 'The fee is 4 500 EUR.', passages: [{ source: 'memo', content: 'The fee is 4 500 EUR.' }] },
      { 'x-request-id': 'proof-1' },
    );
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    const certificateId = report.body.report.certificateId as string;
    const cert = await c.get(`/v1/proofs/${certificateId}`);
    expect(cert.status).toBe(200);
    expect(cert.headers.get('x-svc-proof-request-id')).toBe('proof-1');
    expect((await c.get(`/v1/proofs/${certificateId}/verify`)).body.valid).toBe(true);
    // The certificate itself is unchanged: its hash and signature hold over every field but themselves.
    expect(cert.body).not.toHaveProperty('requestId');
    const keyPem = (await c.get('/v1/gateway/public-key')).body.pem as string;
    expect(certificateHolds(cert.body as Record<string, unknown>, keyPem)).toEqual({ hash: true, signature: true });
    // The register lists it beside the other unsigned fields.
    const listed = await c.get('/v1/registre');
    expect(listed.body.certificates.find((e: { id: string }) => e.id === certificateId)).toMatchObject({ requestId: 'proof-1' });
  });
});
