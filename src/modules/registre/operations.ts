import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { openRegisterExport } from './registre.archive.js';
import { getRegisterEntry, listRegister, registerSummary } from './registre.service.js';

// The register of proofs' use cases (issue 29 §1): rest/v1/registre.routes.ts and registre.graphql.ts
// refer to these; the request pipeline admits the caller with their needs (scope proof). The plan
// feature (proofJournal) is the service's own check: it depends on the workspace, not on the caller.
const READ = { scope: 'proof' } as const;

export const listRegisterOp = defineOperation({
  name: 'registre.list',
  route: 'GET /v1/registre',
  needs: READ,
  /** The query as received: the service parses it with RegisterQuerySchema (each bad parameter named). */
  input: z.object({ query: z.unknown() }),
  run: (ctx, { query }) => listRegister(ctx, query),
});

/** One certificate with its kind (the console's deep link; REST reads a certificate with GET /v1/proofs/:id). */
export const getRegisterEntryOp = defineOperation({
  name: 'registre.certificate',
  needs: READ,
  input: z.object({ id: z.string() }),
  run: (ctx, { id }) => getRegisterEntry(ctx, id),
});

export const registerSummaryOp = defineOperation({
  name: 'registre.summary',
  route: 'GET /v1/registre/summary',
  needs: READ,
  input: z.object({}),
  run: (ctx) => registerSummary(ctx),
});

/** The signed archive, opened (plan checked, chain bounded); the route streams it. */
export const exportRegisterOp = defineOperation({
  name: 'registre.export',
  route: 'GET /v1/registre/export',
  needs: READ,
  input: z.object({}),
  run: (ctx) => openRegisterExport(ctx),
});
