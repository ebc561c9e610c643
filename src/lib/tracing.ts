import { SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { stageTimingOn, timeStage } from './stage-timing.js';

/**
 * Manual spans where auto-instrumentation does not reach (docs/operations.md, "Traces"): the pipeline's
 * steps, the model call, tool calls, webhook attempts, flow steps. Written against the OpenTelemetry API
 * only: the SDK is started, before the app loads, by `src/lib/tracing-start.ts` when an OTLP endpoint is
 * configured. When it is not, `withSpan` costs one boolean check and calls `fn` with a no-op span.
 */

/** The OTLP endpoint traces go to, from the standard variables; undefined when tracing is off. */
export function tracesEndpointOf(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
}

/** Read once: the SDK starts (or not) from the same variables, before any of the app's modules load. */
export const tracingOn = tracesEndpointOf(process.env) !== undefined;

const tracer = trace.getTracer('svc');

/** What `fn` may do with its span without knowing whether tracing is on. */
export interface SpanHandle {
  /** Adds attributes (undefined values are left out). */
  set(attrs: SpanAttributes): void;
}

export type SpanAttributes = Record<string, string | number | boolean | undefined | null>;

const NO_SPAN: SpanHandle = { set: () => {} };

function clean(attrs: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

function handleOf(span: Span): SpanHandle {
  return { set: (attrs) => void span.setAttributes(clean(attrs)) };
}

/**
 * Runs `fn` inside a span named `name` (a child of the active span, so of the request or the worker's
 * own span), ended when `fn` settles; a throw is recorded on the span (status error) and rethrown.
 * Tracing off, it is `fn(noop)`: no span, no context switch, no extra promise. With stage timing on
 * (src/lib/stage-timing.ts), the span's time is also the request's stage `name`.
 */
export function withSpan<T>(name: string, attrs: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
  return stageTimingOn ? timeStage(name, () => span(name, attrs, fn)) : span(name, attrs, fn);
}

function span<T>(name: string, attrs: SpanAttributes, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
  if (!tracingOn) return fn(NO_SPAN);
  return tracer.startActiveSpan(name, { attributes: clean(attrs) }, async (span) => {
    try {
      return await fn(handleOf(span));
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : undefined });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * The span of the HTTP request being served (made by the http instrumentation, which continued the
 * inbound `traceparent`), renamed to the route template that answered once it is known.
 */
export function requestSpan(): { name(method: string, route: string): void; set(attrs: SpanAttributes): void } | undefined {
  if (!tracingOn) return undefined;
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  return {
    name: (method, route) => {
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
    },
    set: (attrs) => void span.setAttributes(clean(attrs)),
  };
}
