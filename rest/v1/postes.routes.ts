import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { chatStreamError, toDomainError } from '../../src/errors/index.js';
import { ListPosteRunsQuerySchema, PosteDtoSchema, PosteRunDtoSchema, RunPosteBodySchema } from '../../src/modules/postes/index.js';
import { getPosteRunOp, listPosteRunsOp, listPostesOp, runPosteOp } from '../../src/modules/postes/index.js';
import { mountOperation, param } from '../route.js';
import { openSse, type SseStream } from '../sse.js';

const wantsStream = (req: Request): boolean =>
  (req.body as { stream?: unknown } | undefined)?.stream === true || /text\/event-stream/i.test(req.headers.accept ?? '');

/** Postes (docs/postes.md): SPEC Authentication 9, scope `agents`. Installing is the console's (GraphQL). */
export function postesRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'postes' } as const;
  mountOperation(r, app, listPostesOp, {
    ...base,
    summary: 'The installed postes with their key, agent, name and checklist',
    responses: { 200: { description: 'Postes, oldest first', schema: z.object({ postes: z.array(PosteDtoSchema) }) } },
    input: () => ({}),
    reply: (postes) => ({ status: 200, body: { postes } }),
  });
  mountOperation(r, app, listPosteRunsOp, {
    ...base,
    summary: 'The run history: runs with their reports, newest first; optionally of one poste (posteKey) or dossier (dossierId)',
    query: ListPosteRunsQuerySchema,
    responses: {
      200: { description: 'Runs, newest first', schema: z.object({ runs: z.array(PosteRunDtoSchema) }) },
      400: { description: 'limit outside 1 to 100, or posteKey/dossierId too long' },
    },
    input: (req) => ({ query: req.query }),
    reply: (runs) => ({ status: 200, body: { runs } }),
  });
  mountOperation(r, app, getPosteRunOp, {
    ...base,
    summary: 'A poste run and its report',
    responses: { 200: { description: 'The run', schema: z.object({ run: PosteRunDtoSchema }) }, 404: { description: 'Unknown run' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (run) => ({ status: 200, body: { run } }),
  });
  mountOperation(r, app, runPosteOp, {
    ...base,
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
    handler: async (ctx, req, res, run) => {
      const input = { key: param(req, 'key'), body: req.body ?? {} };
      if (!(RunPosteBodySchema.safeParse(input.body).success && wantsStream(req))) return { status: 201, body: { run: await run(input) } };
      // Everything that can refuse the run does before its first event (an ordinary JSON error): the
      // stream opens with that event.
      let sse: SseStream | undefined;
      try {
        const done = await run({ ...input, onProgress: (event) => (sse ??= openSse(res, { pingMs: app.config.streamPingMs })).send(event) });
        sse?.send({ type: 'done', data: { run: done } });
      } catch (err) {
        if (!sse) throw err;
        const { error } = toDomainError(err);
        if (error.status >= 500) ctx.log.error({ err }, 'poste run failed');
        sse.send(chatStreamError(error));
      } finally {
        sse?.end();
      }
    },
  });
  return r;
}
