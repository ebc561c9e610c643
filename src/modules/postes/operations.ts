import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { getPosteRun, installPoste, listCatalogue, listPosteRuns, listPostes, runPoste, type RunProgress } from './postes.service.js';

// The postes family's use cases (issue 29 §1): rest/v1/postes.routes.ts, postes.graphql.ts and the MCP
// tool poste_run refer to these; the request pipeline admits the caller with their needs (SPEC
// Authentication 9: scope agents). Bodies and queries are parsed by the service with its schemas.
const READ = { scope: 'agents' } as const;

export const listPostesOp = defineOperation({
  name: 'postes.list',
  route: 'GET /v1/postes',
  needs: READ,
  input: z.object({}),
  run: (ctx) => listPostes(ctx),
});

/** The catalogue, with whether each template is installed (the console's). */
export const listCatalogueOp = defineOperation({
  name: 'postes.catalogue',
  needs: READ,
  input: z.object({}),
  run: (ctx) => listCatalogue(ctx),
});

/** Installing is the console's: a signed-in person (SPEC: a poste is never created through the API). */
export const installPosteOp = defineOperation({
  name: 'postes.install',
  needs: { scope: 'agents', write: true, person: true },
  input: z.object({ key: z.unknown() }),
  run: (ctx, { key }) => installPoste(ctx, { key }),
});

export const listPosteRunsOp = defineOperation({
  name: 'postes.runs',
  route: 'GET /v1/postes/runs',
  needs: READ,
  input: z.object({ query: z.unknown() }),
  run: (ctx, { query }) => listPosteRuns(ctx, query),
});

export const getPosteRunOp = defineOperation({
  name: 'postes.getRun',
  route: 'GET /v1/postes/runs/:id',
  needs: READ,
  input: z.object({ id: z.string() }),
  run: (ctx, { id }) => getPosteRun(ctx, id),
});

/**
 * Runs a poste on a dossier: everything that can refuse the run does before the first progress event
 * (`start`), so a streaming adapter opens its stream on that event and answers a refusal as a plain error.
 */
export const runPosteOp = defineOperation({
  name: 'postes.run',
  route: 'POST /v1/postes/:key/run',
  needs: { scope: 'agents', write: true },
  input: z.object({
    key: z.unknown(),
    /** dossierId and instructions; `stream` is the REST route's own and is not passed on. */
    body: z.unknown(),
    onProgress: z.custom<(event: RunProgress) => void>((v) => typeof v === 'function').optional(),
  }),
  run: (ctx, { key, body, onProgress }) => runPoste(ctx, { ...(body as Record<string, unknown> | undefined), stream: undefined, key }, onProgress),
});
