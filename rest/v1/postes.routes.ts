import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { chatStreamError, toDomainError } from '../../src/errors/index.js';
import { ListPosteRunsQuerySchema, PosteDtoSchema, PosteRunDtoSchema, RunPosteBodySchema } from '../../src/modules/postes/index.js';
import { executeRun, getPosteRun, listPosteRuns, listPostes, prepareRun } from '../../src/modules/postes/index.js';
import { mount, param } from '../route.js';
import { openSse } from '../sse.js';

const wantsStream = (req: Request): boolean =>
  (req.body as { stream?: unknown } | undefined)?.stream === true || /text\/event-stream/i.test(req.headers.accept ?? '');

/** Postes (docs/postes.md): SPEC Authentication 9, scope `agents`. Installing is the console's (GraphQL). */
export function postesRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'postes', scope: 'agents' } as const;
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/postes',
    summary: 'The installed postes with their key, agent, name and checklist',
    responses: { 200: { description: 'Postes, oldest first', schema: z.object({ postes: z.array(PosteDtoSchema) }) } },
    handler: async (ctx) => ({ status: 200, body: { postes: await listPostes(ctx) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/postes/runs',
    summary: 'The run history: runs with their reports, newest first; optionally of one poste (posteKey) or dossier (dossierId)',
    query: ListPosteRunsQuerySchema,
    responses: {
      200: { description: 'Runs, newest first', schema: z.object({ runs: z.array(PosteRunDtoSchema) }) },
      400: { description: 'limit outside 1 to 100, or posteKey/dossierId too long' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { runs: await listPosteRuns(ctx, req.query) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/postes/runs/:id',
    summary: 'A poste run and its report',
    responses: { 200: { description: 'The run', schema: z.object({ run: PosteRunDtoSchema }) }, 404: { description: 'Unknown run' } },
    handler: async (ctx, req) => ({ status: 200, body: { run: await getPosteRun(ctx, param(req, 'id')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/postes/:key/run',
    summary:
      'Run a poste on a dossier: each checklist item answered from the dossier with [n] citations and checked by the verifier; SSE progress with stream: true or Accept: text/event-stream',
    meters: true,
    streams: true,
    body: RunPosteBodySchema,
    responses: {
      200: { description: 'With stream: true or Accept: text/event-stream: events start, item (one per control point), then done with the run, or error' },
      201: { description: 'The run report', schema: z.object({ run: PosteRunDtoSchema }) },
      400: { description: 'Missing dossierId, Dossier not found, dossier_empty, bad instructions' },
      404: { description: 'No poste installed under this key' },
    },
    handler: async (ctx, req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const parsed = RunPosteBodySchema.safeParse(body);
      // Everything that can refuse the run does before a stream opens (an ordinary JSON error).
      const prepared = await prepareRun(ctx, { ...body, stream: undefined, key: param(req, 'key') });
      if (!(parsed.success && wantsStream(req))) return { status: 201, body: { run: await executeRun(prepared) } };
      const sse = openSse(res, { pingMs: app.config.streamPingMs });
      try {
        const run = await executeRun(prepared, (event) => sse.send(event));
        sse.send({ type: 'done', data: { run } });
      } catch (err) {
        const { error } = toDomainError(err);
        if (error.status >= 500) ctx.log.error({ err }, 'poste run failed');
        sse.send(chatStreamError(error));
      } finally {
        sse.end();
      }
    },
  });
  return r;
}
