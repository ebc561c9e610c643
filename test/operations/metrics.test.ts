import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackAddress } from '../../rest/metrics.routes.js';
import { api } from '../support/api.js';
import type { TestTenant } from '../support/app.js';
import { openaiClient, startGateway, STANDARD_MODEL, type GatewayHarness } from '../support/gateway.js';
import { upload } from '../support/knowledge.js';
import { labelsOf, parseMetrics, valueOf, type ParsedMetrics } from '../support/prometheus.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createEndpoint, flowFinished, publish } from '../support/webhooks.js';

/**
 * GET /metrics (issue 30, docs/operations.md "Metrics"): the bearer token, the Prometheus text format
 * read by a real parser, every family the issue names, and values that move after real calls.
 */
const TOKEN = 'metrics-token-for-tests-0123456789';
let h: GatewayHarness;
let ws: TestTenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  h = await startGateway({ SVC_METRICS_TOKEN: TOKEN });
  ws = await h.t.tenant();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

async function scrape(): Promise<ParsedMetrics> {
  const res = await fetch(`${h.t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

const FAMILIES: [string, string][] = [
  ['svc_http_request_duration_seconds', 'HISTOGRAM'],
  ['svc_model_calls_total', 'COUNTER'],
  ['svc_model_call_duration_seconds', 'HISTOGRAM'],
  ['svc_model_time_to_first_token_seconds', 'HISTOGRAM'],
  ['svc_model_tokens_total', 'COUNTER'],
  ['svc_questions_consumed_total', 'COUNTER'],
  ['svc_controls_consumed_total', 'COUNTER'],
  ['svc_refusals_total', 'COUNTER'],
  ['svc_webhook_attempts_total', 'COUNTER'],
  ['svc_webhook_deliveries_waiting', 'GAUGE'],
  ['svc_webhook_oldest_waiting_age_seconds', 'GAUGE'],
  ['svc_flow_runs', 'GAUGE'],
  ['svc_flow_runs_finished_total', 'COUNTER'],
  ['svc_flow_approvals_waiting', 'GAUGE'],
  ['svc_ingestion_jobs', 'GAUGE'],
  ['svc_ingestion_oldest_job_age_seconds', 'GAUGE'],
  ['svc_ingestion_job_duration_seconds', 'HISTOGRAM'],
  ['nodejs_eventloop_lag_seconds', 'GAUGE'],
  ['svc_db_pool_in_use', 'GAUGE'],
  ['svc_db_pool_waiting', 'GAUGE'],
];

describe('GET /metrics', () => {
  it('401 without the token or with a wrong one, in the native shape', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }, { authorization: `Bearer ${TOKEN}x` }] as Record<string, string>[]) {
      const res = await fetch(`${h.t.baseUrl}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: expect.stringContaining('SVC_METRICS_TOKEN') });
    }
  });

  it('serves every family in the Prometheus text format', async () => {
    const m = await scrape();
    for (const [name, type] of FAMILIES) expect(m.families.get(name)?.type, name).toBe(type);
  });

  it('docs/grafana-dashboard.json asks only for series the service serves', async () => {
    const m = await scrape();
    const dashboard = JSON.parse(readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8')) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const series = new Set(dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => t.expr.match(/\b(svc|nodejs|process)_[a-z0-9_]+/g) ?? [])));
    expect(series.size).toBeGreaterThan(15);
    // A histogram with no observation yet has no series: its family is enough.
    for (const name of series) expect(m.samples.has(name) || m.families.has(name.replace(/_(bucket|count|sum)$/, '')), name).toBe(true);
  });

  it('moves with the calls: HTTP, model calls, tokens, questions, controls and refusals', async () => {
    const before = await scrape();
    const client = openaiClient(h.t, ws.key);
    await client.chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'Counted' }] });
    const stream = await client.chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'Streamed' }], stream: true });
    for await (const _chunk of stream);
    // A provider failure is counted (the gateway may still answer from another model).
    h.models.enqueue({ status: 500 }, { status: 500 }); // the provider retries once
    const answered = await client.chat.completions.create({ model: STANDARD_MODEL, messages: [{ role: 'user', content: 'Fails' }] }).then(
      () => 1,
      () => 0,
    );
    const c = api(h.t.baseUrl, ws.key);
    expect((await c.get('/v1/proofs/prf_missing')).status).toBe(404);
    expect((await c.post('/v1/verify', { text: 'The fee is 4 500 EUR.', passages: [{ source: 'memo', content: 'The fee is 4 500 EUR.' }] })).status).toBe(201);
    const readonlyKey = await h.t.key(ws, { readonly: true });
    expect((await api(h.t.baseUrl, readonlyKey).post('/v1/agents', { name: 'No' })).status).toBe(403);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    const model = { provider: 'openai', model: STANDARD_MODEL };
    expect(delta('svc_http_request_duration_seconds_count', { method: 'POST', route: '/v1/chat/completions', status: '200' })).toBe(2 + answered);
    expect(delta('svc_http_request_duration_seconds_count', { method: 'GET', route: '/v1/proofs/:id', status: '404' })).toBe(1);
    expect(delta('svc_model_calls_total', { ...model, outcome: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(delta('svc_model_calls_total', { ...model, outcome: 'failed' })).toBe(1);
    expect(delta('svc_model_call_duration_seconds_count', model)).toBe(delta('svc_model_calls_total', model));
    expect(delta('svc_model_time_to_first_token_seconds_count', model)).toBe(1);
    expect(delta('svc_model_tokens_total', { ...model, direction: 'in' })).toBeGreaterThan(0);
    expect(delta('svc_model_tokens_total', { ...model, direction: 'out' })).toBeGreaterThan(0);
    expect(delta('svc_questions_consumed_total', { model_class: 'standard' })).toBeGreaterThanOrEqual(2);
    expect(delta('svc_controls_consumed_total')).toBe(1);
    expect(delta('svc_refusals_total', { status: '403', code: 'read_only_key' })).toBe(1);
    expect(delta('nodejs_eventloop_lag_seconds')).not.toBeNaN();

    // Labels: route templates and catalogue codes, never a path, a key, a workspace or a person.
    const text = await (await fetch(`${h.t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    for (const secret of [ws.key, readonlyKey, ws.workspaceId, ws.userId, 'prf_missing', TOKEN]) expect(text).not.toContain(secret);
    for (const labels of labelsOf(after, 'svc_http_request_duration_seconds_count')) expect(labels.route).not.toMatch(/\/(prf|agt|wsp|usr)_/);
  });

  it('a 402 and a 429 are refusals by code too', async () => {
    const limited = await h.t.key(ws, { ratePerMinute: 1 });
    const c = api(h.t.baseUrl, limited);
    const before = await scrape();
    await c.get('/v1/agents');
    expect((await c.get('/v1/agents')).status).toBe(429);
    const after = await scrape();
    expect(valueOf(after, 'svc_refusals_total', { status: '429', code: 'rate_limited' }) - valueOf(before, 'svc_refusals_total', { status: '429', code: 'rate_limited' })).toBe(1);

    const budget = await h.t.key(ws, { monthlyQuestionLimit: 1 });
    const client = openaiClient(h.t, budget);
    await client.chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'One' }] });
    await expect(client.chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'Two' }] })).rejects.toThrow();
    const last = await scrape();
    expect(valueOf(last, 'svc_refusals_total', { status: '402' }) - valueOf(after, 'svc_refusals_total', { status: '402' })).toBe(1);
  });

  it('webhook attempts by outcome, deliveries waiting and the age of the oldest', async () => {
    const ok = await createEndpoint(h.t, ws, receiver, ['flow.run.finished']);
    receiver.behave(ok.path, { kind: 'status', status: 500 });
    const before = await scrape();
    expect((await api(h.t.baseUrl, ws.key).post(`/v1/webhooks/${ok.id}/test`)).status).toBe(200);
    // Background jobs are off: a published event waits for its first attempt.
    await publish(h.t, flowFinished(ws.workspaceId));
    h.t.clock.advance(90_000);
    const after = await scrape();
    expect(valueOf(after, 'svc_webhook_attempts_total', { outcome: 'rejected', kind: 'single' }) - valueOf(before, 'svc_webhook_attempts_total', { outcome: 'rejected', kind: 'single' })).toBe(1);
    expect(valueOf(after, 'svc_webhook_deliveries_waiting')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'svc_webhook_oldest_waiting_age_seconds')).toBeGreaterThanOrEqual(90);
  });

  it('flow runs by state, ingestion jobs waiting', async () => {
    const c = api(h.t.baseUrl, ws.key);
    const before = await scrape();
    const flow = await c.post('/engine/flows', {
      name: 'Metrics',
      graph: { nodes: [{ key: 'start', type: 'trigger.manual' }, { key: 'say', type: 'transform', config: { template: 'hi' } }], edges: [{ from: 'start', to: 'say' }] },
    });
    expect((await c.post(`/engine/flows/${flow.body.flow.id}/run`, { input: {} })).status).toBe(202);
    expect((await upload(h.t, ws.key, { bytes: Buffer.from('The fee is 4 500 EUR.'), filename: 'memo.txt', type: 'text/plain' })).status).toBe(202);
    const after = await scrape();
    expect(valueOf(after, 'svc_flow_runs', { state: 'queued' }) - valueOf(before, 'svc_flow_runs', { state: 'queued' })).toBe(1);
    expect(valueOf(after, 'svc_ingestion_jobs', { state: 'queued' }) - valueOf(before, 'svc_ingestion_jobs', { state: 'queued' })).toBe(1);
    expect(after.families.get('svc_flow_approvals_waiting')?.metrics[0]?.value).toBe('0');
  });
});

describe('without SVC_METRICS_TOKEN', () => {
  it('only loopback peers may scrape', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.20', '::ffff:10.0.0.1', 'fe80::1', '8.8.8.8', '', undefined, 'localhost']) expect(isLoopbackAddress(a), String(a)).toBe(false);
  });
});
