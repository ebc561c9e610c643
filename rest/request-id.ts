import type { Request, RequestHandler } from 'express';
import type { Deps } from '../src/core/deps.js';
import { lazyChild, type Logger } from '../src/lib/logger.js';
import { metrics } from '../src/lib/metrics.js';
import { ANTHROPIC_REQUEST_ID_HEADER, REQUEST_ID_HEADER, requestIdFrom } from '../src/lib/request-id.js';
import { StageTimes, stageTimingOn } from '../src/lib/stage-timing.js';
import { requestSpan } from '../src/lib/tracing.js';

declare global {
  namespace Express {
    interface Request {
      /** The request's id (`x-request-id`): set by `assignRequestId` before any route runs. */
      requestId: string;
      /** The app's logger with the request's id bound: every log line of the request goes through it. */
      log: Logger;
      /** The request's stages, with `SVC_STAGE_TIMING=on` (src/lib/stage-timing.ts). */
      stages?: StageTimes;
    }
  }
}

/**
 * The route template that answered (`/v1/agents/:id`), never the path itself: a bounded label for logs
 * and metrics. Yoga and the console are mounted as middleware, not routes; anything else no route
 * answered (404s, refusals before routing) is `unmatched`.
 */
export function routeTemplateOf(req: Request): string {
  const path = req.route?.path;
  if (typeof path === 'string') return path;
  const url = req.originalUrl;
  if (url === '/graphql' || url.startsWith('/graphql?')) return '/graphql';
  if (url.startsWith('/graphql/stream')) return '/graphql/stream';
  if (url === '/console' || url.startsWith('/console/') || url.startsWith('/console?')) return '/console';
  return 'unmatched';
}

/**
 * The first middleware of the app: every request gets an id (the inbound `x-request-id` when well-formed,
 * else a new one), returned in the `x-request-id` response header (and in `request-id`, which the
 * Anthropic client reads), bound to the request's logger (a pino child) and handed to the service context (`ctx.requestId`). The inbound header is replaced by the id,
 * so adapters that read headers themselves (yoga builds a Fetch `Request`) see the same one. When the
 * response has ended, one `request finished` line says how it went, and the request is counted in
 * `svc_http_request_duration_seconds` (src/lib/metrics.ts). With stage timing on, the request's stages
 * (timed from here) are in that line and in `svc_request_stage_seconds`. With tracing on, the request's span (made by
 * the http instrumentation) carries the id and is named after the route template before it ends.
 */
export function assignRequestId(app: Pick<Deps, 'log'>): RequestHandler {
  return (req, res, next) => {
    const id = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    const started = performance.now();
    if (stageTimingOn) req.stages = new StageTimes(started);
    req.headers[REQUEST_ID_HEADER] = id;
    req.requestId = id;
    req.log = lazyChild(app.log, { requestId: id });
    res.setHeader(REQUEST_ID_HEADER, id);
    res.setHeader(ANTHROPIC_REQUEST_ID_HEADER, id);
    const span = requestSpan();
    if (span) {
      span.set({ 'svc.request_id': id });
      // Before the instrumentation's own listener, which ends the span.
      res.prependOnceListener('close', () => span.name(req.method, routeTemplateOf(req)));
    }
    res.once('close', () => {
      const route = routeTemplateOf(req);
      const ended = performance.now();
      const seconds = (ended - started) / 1000;
      metrics.httpRequest(req.method, route, res.statusCode, seconds);
      if (req.stages) metrics.requestStages(route, req.stages.seconds());
      if (app.log.isLevelEnabled('info')) req.log.info(
        {
          method: req.method,
          route,
          status: res.statusCode,
          durationMs: Math.round(seconds * 1000),
          ...(res.writableFinished ? {} : { aborted: true }),
          ...(req.stages ? { stages: { totalMs: Math.round((ended - started) * 100) / 100, ...req.stages.summary() } } : {}),
        },
        'request finished',
      );
    });
    next();
  };
}
