import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../src/core/deps.js';
import { checkDatabase } from '../src/db/health.js';
import { errors } from '../src/errors/index.js';
import { nativeBody } from './errors.js';
import { buildOpenApi } from './openapi.js';
import { mountPublic } from './route.js';

/** `checkDatabase`'s report. */
const DatabaseHealth = z.object({ ok: z.boolean(), driver: z.enum(['postgresql', 'pglite']), latencyMs: z.number().int(), error: z.string().optional() });

const shuttingDown = () => ({ status: 'shutting_down', ...nativeBody(errors.serverRestarting()) });

export function healthRouter(app: Deps): Router {
  const r = Router();
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'meta',
    method: 'get',
    path: '/health',
    summary: 'Service and database health',
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
    path: '/openapi.json',
    summary: 'This description',
    responses: { 200: { description: 'OpenAPI 3 document' } },
    handler: async () => ({ status: 200, body: buildOpenApi() }),
  });
  return r;
}
