import { trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { startTracing, statementShape } from '../../src/lib/tracing-start.js';
import { tracesEndpointOf } from '../../src/lib/tracing.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startOtlpCollector, type CollectedSpan, type OtlpCollector } from '../support/otlp-collector.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Traces (issue 30, docs/operations.md "Traces"): the real server process with OpenTelemetry's SDK on,
 * exporting to a loopback OTLP collector. The batch processor's delay is set past the test
 * (OTEL_BSP_SCHEDULE_DELAY), so every span the collector holds was flushed by the graceful shutdown.
 * PostgreSQL only (the database statements are pg's spans).
 */
const available = await postgresAvailable();
const opened: { close(): Promise<void> }[] = [];
const procs: ServerProcess[] = [];
const dbs: TestDatabase[] = [];

afterAll(async () => {
  for (const p of procs) await p.kill();
  for (const o of opened) await o.close();
  for (const d of dbs) await d.drop();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const HOOK_TRACE_ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

async function serve(env: Record<string, string>): Promise<{ proc: ServerProcess; key: string; model: ScriptedModelServer }> {
  const db = await createTestDatabase();
  dbs.push(db);
  const model = await startScriptedModelServer();
  opened.push(model);
  const proc = await startServerProcess({
    DATABASE_URL: db.url!,
    SVC_MODEL_BASE_URL: model.baseUrl,
    SVC_MODEL_API_KEY: 'scripted',
    SVC_MODEL: 'scripted-model',
    SVC_MODEL_CLASS: 'standard',
    SVC_SHUTDOWN_GRACE_MS: '10000',
    ...env,
  }, { startTimeoutMs: 120_000 });
  procs.push(proc);
  await expect.poll(() => proc.firstKey, { timeout: 20_000 }).not.toBe('');
  return { proc, key: proc.firstKey, model };
}

async function gatewayCall(base: string, key: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Hello?' }] }),
  });
}

async function stop(proc: ServerProcess): Promise<void> {
  proc.signal('SIGTERM');
  const { code } = await proc.exited;
  expect(code, proc.output().slice(-3000)).toBe(0);
}

describe.runIf(available)('traces, OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let collector: OtlpCollector;
  let receiver: WebhookReceiver;

  it('exports one trace per call, continues a traceparent and sends one with a webhook delivery', async () => {
    collector = await startOtlpCollector();
    opened.push(collector);
    receiver = await startWebhookReceiver();
    opened.push(receiver);
    const { proc, key } = await serve({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    });
    expect((await proc.waitForLog('svc listening')).tracing).toBe(true);

    // 1. A gateway call.
    const call = await gatewayCall(proc.baseUrl, key, { 'x-request-id': 'traced-call-1' });
    expect(call.status, await call.clone().text()).toBe(200);

    // 2. A call that continues the caller's trace.
    const continued = await fetch(`${proc.baseUrl}/v1/agents`, {
      headers: { authorization: `Bearer ${key}`, traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, 'x-request-id': 'traced-call-2' },
    });
    expect(continued.status).toBe(200);

    // 3. A webhook test delivery, within a request that carries a traceparent.
    const created = await fetch(`${proc.baseUrl}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url('/traced'), events: ['flow.run.finished'] }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const hook = ((await created.json()) as { webhook: { id: string; secret: string } }).webhook;
    receiver.secret('/traced', hook.secret);
    const tested = await fetch(`${proc.baseUrl}/v1/webhooks/${hook.id}/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', traceparent: `00-${HOOK_TRACE_ID}-${PARENT_ID}-01` },
      body: '{}',
    });
    expect(tested.status, await tested.clone().text()).toBe(200);
    const [delivered] = await receiver.waitFor(1, { path: '/traced' });

    // Nothing exported yet (the batch delay is ten minutes): the graceful shutdown flushes it all.
    expect(collector.spans).toEqual([]);
    await stop(proc);
    expect(collector.refused).toEqual([]);
    const spans = collector.spans;
    expect(spans.length).toBeGreaterThan(0);
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['svc']));

    // 1. The gateway call: request span, pipeline steps, a DB statement and the model call, in one trace.
    const request = spans.find((s) => s.kind === 2 && s.attributes['svc.request_id'] === 'traced-call-1');
    expect(request, names(spans)).toBeDefined();
    expect(request!.name).toBe('POST /v1/chat/completions');
    expect(request!.attributes['http.route']).toBe('/v1/chat/completions');
    expect(request!.parentSpanId).toBe('');
    const inTrace = spans.filter((s) => s.traceId === request!.traceId);
    for (const name of ['pipeline.authenticate', 'pipeline.rate_limits', 'pipeline.admission', 'model.call']) {
      expect(inTrace.map((s) => s.name), name).toContain(name);
    }
    const modelCall = inTrace.find((s) => s.name === 'model.call')!;
    expect(modelCall.attributes).toMatchObject({ 'gen_ai.provider.name': expect.any(String), 'gen_ai.request.model': 'scripted-model' });
    expect(modelCall.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(modelCall.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    // The model server was called through undici: a client span under the model call.
    expect(inTrace.some((s) => s.kind === 3 && s.parentSpanId === modelCall.spanId)).toBe(true);
    const statements = inTrace.filter((s) => s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql');
    expect(statements.length, names(inTrace)).toBeGreaterThan(0);
    // Statements keep their shape, never a value: no literal, and the key appears in no span at all.
    for (const s of statements) expect(String(s.attributes['db.query.text'])).not.toMatch(/'/);
    expect(JSON.stringify(spans)).not.toContain(key);
    // One tree: every span but the request's has its parent in the trace.
    const ids = new Set(inTrace.map((s) => s.spanId));
    for (const s of inTrace) if (s !== request) expect(ids.has(s.parentSpanId), `${s.name} has its parent in the trace`).toBe(true);

    // 2. The inbound traceparent is continued: same trace id, the caller's span as parent.
    const second = spans.find((s) => s.kind === 2 && s.attributes['svc.request_id'] === 'traced-call-2');
    expect(second).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, name: 'GET /v1/agents' });

    // 3. The delivery carried a traceparent of the request's trace, whose span is the outbound request's.
    const sent = TRACEPARENT.exec(String(delivered!.headers.traceparent ?? ''));
    expect(sent, JSON.stringify(delivered!.headers)).not.toBeNull();
    expect(sent![1]).toBe(HOOK_TRACE_ID);
    const outbound = spans.find((s) => s.spanId === sent![2]);
    expect(outbound).toMatchObject({ traceId: HOOK_TRACE_ID, kind: 3 });
    const attempt = spans.find((s) => s.spanId === outbound!.parentSpanId);
    expect(attempt).toMatchObject({ name: 'webhook.attempt', traceId: HOOK_TRACE_ID });
    expect(attempt!.attributes).toMatchObject({ 'svc.webhook.event': 'webhook.test', 'svc.webhook.success': true, 'http.response.status_code': 200 });
    // The delivery's signature still holds (the header is not part of what is signed).
    expect(delivered!.signatureValid).toBe(true);
  }, 240_000);
});

describe.runIf(available)('traces, no endpoint set', () => {
  it('starts no SDK and exports nothing', async () => {
    const collector = await startOtlpCollector();
    opened.push(collector);
    // Other OTEL_* variables alone do not turn tracing on.
    const { proc, key } = await serve({ OTEL_SERVICE_NAME: 'svc-test', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect((await proc.waitForLog('svc listening')).tracing).toBe(false);
    const call = await gatewayCall(proc.baseUrl, key, { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` });
    expect(call.status).toBe(200);
    await stop(proc);
    expect(collector.exports).toBe(0);
  }, 240_000);
});

describe('startTracing', () => {
  it('is off without an OTLP endpoint, or when disabled', async () => {
    expect(tracesEndpointOf({})).toBeUndefined();
    expect(tracesEndpointOf({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeUndefined();
    expect(tracesEndpointOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracesEndpointOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(tracesEndpointOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe('http://127.0.0.1:4318/v1/traces');
    expect(await startTracing({})).toBeUndefined();
    // No tracer provider was registered: spans are the API's no-op ones.
    const span = trace.getTracer('test').startSpan('nothing');
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
    span.end();
  });
});

describe('statementShape', () => {
  it('replaces every literal by ?, keeps identifiers and placeholders', () => {
    expect(statementShape(`insert into t (a, b) values ( E'it''s a \\\\secret', -3.5e3) returning d2.x, $1`)).toBe('insert into t (a, b) values ( ?, ?) returning d2.x, $1');
    expect(statementShape(`select 1 from w d2 where d2.a < 3 and x = $b$ s'ecret $b$ and y = 'o''k' and z = $$v$$`)).toBe(
      'select ? from w d2 where d2.a < ? and x = ? and y = ? and z = ?',
    );
    expect(statementShape(`select '${'x'.repeat(5000)}', ${'a, '.repeat(1500)}b`).length).toBeLessThanOrEqual(2001);
  });
});

function names(spans: CollectedSpan[]): string {
  return spans.map((s) => `${s.traceId.slice(0, 6)} ${s.name}`).join('\n');
}
