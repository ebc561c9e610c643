import { timingSafeEqual } from 'node:crypto';
import { Router, type Request } from 'express';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import type { Deps } from '../src/core/deps.js';
import { errors } from '../src/errors/index.js';
import { mountPublic } from './route.js';

/** Whether a socket's peer address is a loopback one (127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'loopback';
}

function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length).trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Who may read the metrics: with `SVC_METRICS_TOKEN`, whoever presents it as a bearer token; without it,
 * the machine itself only — the socket's peer, never `X-Forwarded-For`, which any client can write.
 */
function assertMayScrape(app: Deps, req: Request): void {
  const token = app.config.metricsToken;
  if (token) {
    if (!bearerMatches(req.headers.authorization, token)) throw errors.unauthorized('GET /metrics needs Authorization: Bearer <SVC_METRICS_TOKEN>');
    return;
  }
  if (!isLoopbackAddress(req.socket.remoteAddress)) {
    throw errors.unauthorized('GET /metrics is served to loopback addresses only; set SVC_METRICS_TOKEN to scrape from elsewhere');
  }
}

/** `GET /metrics`: Prometheus text format (docs/operations.md, "Metrics"). */
export function metricsRouter(app: Deps): Router {
  const r = Router();
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'meta',
    method: 'get',
    path: '/metrics',
    summary:
      'Prometheus metrics (text format 0.0.4): HTTP requests, model calls, consumption and refusals, webhooks, flows, ingestion, the event loop and the database pool (docs/operations.md, "Metrics"). With SVC_METRICS_TOKEN set, needs Authorization: Bearer <token>; without it, served to loopback addresses only. With SVC_WORKERS > 1 the answer aggregates every server process',
    produces: 'text/plain; version=0.0.4',
    responses: {
      200: { description: 'The metrics in the Prometheus text exposition format', schema: z.string() },
      401: { description: 'No or wrong bearer token, or (without SVC_METRICS_TOKEN) a caller that is not on a loopback address' },
    },
    handler: async (_ctx, req, res) => {
      assertMayScrape(app, req);
      const text = await app.metrics.scrape();
      res.status(200).setHeader('Content-Type', app.metrics.contentType).setHeader('Cache-Control', 'no-store').end(text);
    },
  });
  return r;
}
