import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../src/core/deps.js';
import { checkDatabase, checkMigrations } from '../src/db/health.js';
import { errors } from '../src/errors/index.js';
import { nativeBody } from './errors.js';
import { buildOpenApi } from './openapi.js';
import { mountPublic } from './route.js';

/** `checkDatabase`'s report. */
const DatabaseHealth = z.object({ ok: z.boolean(), driver: z.enum(['postgresql', 'pglite']), latencyMs: z.number().int(), error: z.string().optional() });

/** `GET /ready`'s report (the `status` is `ready` or `not_ready`). */
const Readiness = z.object({
  draining: z.boolean().describe('The process is shutting down: it finishes what it has and takes nothing new'),
  database: DatabaseHealth,
  migrations: z.object({
    applied: z.boolean().describe('Every migration of this build is applied (false as well when the database cannot be read)'),
    pending: z.array(z.string()).describe('Names of the migrations of this build not applied yet'),
  }),
});

const shuttingDown = () => ({ status: 'shutting_down', ...nativeBody(errors.serverRestarting()) });

export function healthRouter(app: Deps): Router {
  const r = Router();
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'meta',
    method: 'get',
    path: '/health',
    summary: 'Liveness: the service answers, and whether its database does (readiness is GET /ready)',
    responses: {
      200: { description: 'Healthy', schema: z.object({ status: z.literal('ok'), database: DatabaseHealth }) },
      503: {
        description: 'Database unreachable (`status: "degraded"`), or the server is shutting down (`status: "shutting_down"`, code `server_restarting`)',
        schema: z.union([
          z.object({ status: z.literal('degraded'), database: DatabaseHealth }),
          z.object({ status: z.literal('shutting_down'), error: z.string(), code: z.string() }),
        ]),
      },
    },
    handler: async () => {
      // From the moment a shutdown starts, so that load balancers stop routing here.
      if (app.shutdown.draining) return { status: 503, body: shuttingDown() };
      const database = await checkDatabase(app);
      return { status: database.ok ? 200 : 503, body: { status: database.ok ? 'ok' : 'degraded', database } };
    },
  });
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'meta',
    method: 'get',
    path: '/ready',
    summary:
      'Readiness (for load balancers and orchestrators): whether this process should receive traffic — the database reachable, every migration of this build applied, and the process not draining. /health stays liveness',
    responses: {
      200: { description: 'Ready', schema: Readiness.extend({ status: z.literal('ready') }) },
      503: { description: 'Not ready: the database unreachable, migrations pending, or the process draining (shutting down)', schema: Readiness.extend({ status: z.literal('not_ready') }) },
    },
    handler: async () => {
      const draining = app.shutdown.draining;
      const database = await checkDatabase(app);
      const migrations = database.ok ? await checkMigrations(app) : null;
      const ready = !draining && database.ok && migrations?.applied === true;
      return {
        status: ready ? 200 : 503,
        body: { status: ready ? 'ready' : 'not_ready', draining, database, migrations: migrations ?? { applied: false, pending: [] } },
      };
    },
  });
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'meta',
    method: 'get',
    path: '/openapi.json',
    summary: 'This description',
    responses: { 200: { description: 'OpenAPI 3 document' } },
    handler: async () => ({ status: 200, body: buildOpenApi() }),
  });
  return r;
}
