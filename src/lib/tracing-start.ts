import { register } from 'node:module';
import { tracesEndpointOf } from './tracing.js';

/** What the entry point keeps of a started SDK: the flush at the end of a graceful shutdown. */
export interface TracingHandle {
  /** Exports the spans still buffered, then stops the SDK. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry's Node SDK (docs/operations.md, "Traces") when an OTLP endpoint is configured
 * (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`); otherwise does nothing and
 * loads none of it. Must run before the app's modules are imported (src/main.ts imports the app after
 * it), so that the instrumentations patch them as they load:
 *
 * - http: the server span of each request, continuing an inbound `traceparent` (W3C);
 * - undici: every outbound request made with undici (`safeFetch`: webhooks, tools, flow HTTP steps;
 *   the model providers' pools; `fetch`) gets a client span and carries a `traceparent`;
 * - pg: the database statements (PostgreSQL; the embedded database is not a network client).
 *
 * The app is ESM and imports `pg` from ESM (MikroORM's driver), so the import-in-the-middle loader hook is
 * registered for the modules the instrumentations name, and only those. Every other setting comes from
 * the standard `OTEL_*` variables through the SDK (service name, resource attributes, sampler, protocol,
 * headers, batch sizes); the service name defaults to `svc`. Only traces: metrics stay Prometheus'
 * (`/metrics`), and no log exporter is started.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<TracingHandle | undefined> {
  if (tracesEndpointOf(env) === undefined) return undefined;
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [{ NodeSDK }, { HttpInstrumentation }, { UndiciInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const named = Boolean(env.OTEL_SERVICE_NAME?.trim()) || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: 'svc' }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({ redactedQueryParamsServer: REDACTED_QUERY_PARAMS, redactedQueryParams: REDACTED_QUERY_PARAMS }),
      new UndiciInstrumentation(),
      new PgInstrumentation({
        // A statement's span only when it belongs to a trace (a request, a worker's attempt or step):
        // the pollers' idle claims would otherwise each be a trace of their own.
        requireParentSpan: true,
        // MikroORM sends its statements with the values written in: the span keeps their shape only.
        requestHook: (span, { query }) => void span.setAttribute('db.query.text', statementShape(query.text)),
      }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return { shutdown: () => sdk.shutdown() };
}

/** Query parameters whose values never reach a span (the http instrumentation writes `REDACTED`). */
const REDACTED_QUERY_PARAMS = ['token', 'key', 'api_key', 'secret', 'password', 'code', 'sig', 'signature', 'X-Amz-Signature'];

/** The longest statement text a span keeps (a batch insert can be long). */
const STATEMENT_MAX = 2_000;

/**
 * A statement with its literals replaced by `?`: quoted strings (standard, `E'…'` escapes, dollar-quoted)
 * and numbers, so a span never carries a value (a secret, a hash, a person's text) but still shows which
 * statement ran. Identifiers, keywords and `$n` placeholders are kept.
 */
export function statementShape(text: string): string {
  const shaped = text
    .replace(/\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$/g, '?')
    .replace(/\b[eE]'(?:[^'\\]|''|\\[\s\S])*'/g, '?')
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/(?<![\w$.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b/g, '?');
  return shaped.length > STATEMENT_MAX ? `${shaped.slice(0, STATEMENT_MAX)}…` : shaped;
}
