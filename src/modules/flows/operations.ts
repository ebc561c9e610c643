import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import {
  cancelRun,
  claimApproval,
  createFlow,
  decideApproval,
  deleteFlow,
  exportFlow,
  getFlow,
  getRun,
  importFlow,
  listApprovals,
  listFlows,
  listRuns,
  putGraph,
  resumeRun,
  startManualRun,
  updateFlow,
  validateFlow,
} from './flows.service.js';
import { openRunStream } from './run-stream.js';

// The flows family's use cases (issue 29 §1, docs/flows.md): rest/engine/flows.routes.ts, flows.graphql.ts
// and the MCP tools flow_list, flow_run, run_status and approvals_list refer to these; the request
// pipeline admits the caller with their needs (scope engine). Bodies are parsed by the service.
const READ = { scope: 'engine' } as const;
const WRITE = { scope: 'engine', write: true } as const;
/** Claiming and deciding approvals stay with signed-in people. */
const PERSON = { scope: 'engine', write: true, person: true } as const;

const ById = z.object({ id: z.string() });
const Body = z.object({ body: z.unknown() });
const ByIdWithBody = ById.extend({ body: z.unknown() });
const ByRunId = z.object({ runId: z.string() });

// ------------------------------------------------------------------------------------------ flows

export const listFlowsOp = defineOperation({
  name: 'flows.list',
  route: 'GET /engine/flows',
  needs: READ,
  input: z.object({}),
  run: (ctx) => listFlows(ctx),
});

export const getFlowOp = defineOperation({
  name: 'flows.get',
  route: 'GET /engine/flows/:id',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => getFlow(ctx, id),
});

export const createFlowOp = defineOperation({
  name: 'flows.create',
  route: 'POST /engine/flows',
  needs: WRITE,
  input: Body,
  run: (ctx, { body }) => createFlow(ctx, body),
});

/** Reports every problem of an export document or of `{ graph }`; writes nothing. */
export const validateFlowOp = defineOperation({
  name: 'flows.validate',
  route: 'POST /engine/flows/validate',
  needs: READ,
  input: Body,
  run: (ctx, { body }) => validateFlow(ctx, body),
});

export const importFlowOp = defineOperation({
  name: 'flows.import',
  route: 'POST /engine/flows/import',
  needs: WRITE,
  input: Body,
  run: (ctx, { body }) => importFlow(ctx, body),
});

/** Name, schedule, enabled state; `unattendedOutbound: true` is a signed-in person's (the service checks it, as it depends on the body). */
export const updateFlowOp = defineOperation({
  name: 'flows.update',
  route: 'PATCH /engine/flows/:id',
  needs: WRITE,
  input: ByIdWithBody,
  run: (ctx, { id, body }) => updateFlow(ctx, id, body),
});

export const deleteFlowOp = defineOperation({
  name: 'flows.delete',
  route: 'DELETE /engine/flows/:id',
  needs: WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    await deleteFlow(ctx, id);
    return true as const;
  },
});

/** Replaces nodes and edges; the expected version comes from `If-Match` (REST) or the body's `expectedVersion`. */
export const putGraphOp = defineOperation({
  name: 'flows.putGraph',
  route: 'PUT /engine/flows/:id/graph',
  needs: WRITE,
  input: ByIdWithBody.extend({ ifMatch: z.string().optional() }),
  run: (ctx, { id, body, ifMatch }) => putGraph(ctx, id, body, ifMatch),
});

export const exportFlowOp = defineOperation({
  name: 'flows.export',
  route: 'GET /engine/flows/:id/export',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => exportFlow(ctx, id),
});

// ------------------------------------------------------------------------------------------- runs

/** A manual run (`{ input? }`, parsed by the service), queued for a worker. */
export const startRunOp = defineOperation({
  name: 'flows.run',
  route: 'POST /engine/flows/:id/run',
  needs: WRITE,
  input: ByIdWithBody,
  run: (ctx, { id, body }) => startManualRun(ctx, id, body),
});

/** The history of a flow, most recent first; the adapters bound `limit` (1 to 100, default 50). */
export const listRunsOp = defineOperation({
  name: 'flows.runs',
  route: 'GET /engine/flows/:id/runs',
  needs: READ,
  input: ById.extend({ limit: z.number().int().optional() }),
  run: (ctx, { id, limit }) => listRuns(ctx, id, { limit }),
});

export const getRunOp = defineOperation({
  name: 'flows.getRun',
  route: 'GET /engine/runs/:runId',
  needs: READ,
  input: ByRunId,
  run: (ctx, { runId }) => getRun(ctx, runId),
});

export const resumeRunOp = defineOperation({
  name: 'flows.resumeRun',
  route: 'POST /engine/runs/:runId/resume',
  needs: WRITE,
  input: ByRunId,
  run: (ctx, { runId }) => resumeRun(ctx, runId),
});

export const cancelRunOp = defineOperation({
  name: 'flows.cancelRun',
  route: 'POST /engine/runs/:runId/cancel',
  needs: WRITE,
  input: ByRunId,
  run: (ctx, { runId }) => cancelRun(ctx, runId),
});

/** A run's events from its start until `run_finished`: the REST SSE route and the GraphQL subscription. */
export const runEventsOp = defineOperation({
  name: 'flows.runEvents',
  route: 'GET /engine/runs/:runId/stream',
  needs: READ,
  input: ByRunId,
  run: (ctx, { runId }) => openRunStream(ctx, runId),
});

// -------------------------------------------------------------------------------------- approvals

export const listApprovalsOp = defineOperation({
  name: 'flows.approvals',
  route: 'GET /engine/approvals',
  needs: READ,
  input: z.object({ status: z.enum(['open', 'all']).optional() }),
  run: (ctx, { status }) => listApprovals(ctx, { status }),
});

export const claimApprovalOp = defineOperation({
  name: 'flows.claimApproval',
  route: 'POST /engine/approvals/:id/claim',
  needs: PERSON,
  input: ById,
  run: (ctx, { id }) => claimApproval(ctx, id),
});

export const decideApprovalOp = defineOperation({
  name: 'flows.decideApproval',
  route: 'POST /engine/approvals/:id/decide',
  needs: PERSON,
  input: ByIdWithBody,
  run: (ctx, { id, body }) => decideApproval(ctx, id, body),
});
