import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { chatStreamError, toDomainError } from '../../src/errors/index.js';
import {
  ApprovalDtoSchema,
  CreateFlowSchema,
  DecideSchema,
  FlowDocumentDtoSchema,
  FlowDocumentSchema,
  FlowDtoSchema,
  PutGraphSchema,
  RunDetailDtoSchema,
  RunDtoSchema,
  RunListQuerySchema,
  StartRunSchema,
  UpdateFlowSchema,
  ValidateFlowSchema,
  ValidationResultSchema,
} from '../../src/modules/flows/index.js';
import {
  cancelRunOp,
  claimApprovalOp,
  createFlowOp,
  decideApprovalOp,
  deleteFlowOp,
  etagOf,
  exportFlowOp,
  getFlowOp,
  getRunOp,
  importFlowOp,
  listApprovalsOp,
  listFlowsOp,
  listRunsOp,
  putGraphOp,
  resumeRunOp,
  runEventsOp,
  startRunOp,
  updateFlowOp,
  validateFlowOp,
} from '../../src/modules/flows/index.js';
import { FLOW_DOCUMENT_JSON_SCHEMA } from '../../src/modules/flows/index.js';
import { mountOperation, mountPublic, param } from '../route.js';
import { openSse } from '../sse.js';

const FlowReply = z.object({ flow: FlowDtoSchema });
const CreatedFlowReply = z.object({ flow: FlowDtoSchema, webhookSecret: z.string().describe('Inbound-webhook signing secret, shown this once') });
const RunReply = z.object({ run: RunDetailDtoSchema });
const ApprovalReply = z.object({ approval: ApprovalDtoSchema });
const ApprovalListQuery = z.object({
  status: z.enum(['open', 'all'], { error: 'status must be "open" or "all"' }).optional(),
});

const withEtag = (flow: { version: number }) => ({ ETag: etagOf(flow.version) });

/** Flows, runs and approvals (issue 15, docs/flows.md). Scope `engine`; signed-in people may use their session. */
export function flowsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'flows', people: true } as const;

  // ------------------------------------------------------------------------------------------ flows
  mountOperation(r, app, listFlowsOp, {
    ...base,
    summary: 'List the workspace flows, oldest first',
    responses: { 200: { description: 'Flows', schema: z.object({ flows: z.array(FlowDtoSchema) }) } },
    input: () => ({}),
    reply: (flows) => ({ status: 200, body: { flows } }),
  });
  mountOperation(r, app, createFlowOp, {
    ...base,
    summary: 'Create a flow ({ name, graph? }), disabled; outbound nodes need an approval before them on every path',
    body: CreateFlowSchema,
    responses: {
      201: { description: 'Created, with its inbound-webhook secret (shown once)', schema: CreatedFlowReply },
      400: { description: 'Wrongly typed field (never coerced), or invalid_graph with every problem' },
    },
    input: (req) => ({ body: req.body }),
    reply: (created) => ({ status: 201, body: created, headers: withEtag(created.flow) }),
  });
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'flows',
    method: 'get',
    path: '/engine/flows/schema.json',
    summary: `JSON Schema of the flow export document (format service.flow/v1); also docs/flow.schema.json`,
    responses: { 200: { description: 'JSON Schema (draft 2020-12)', schema: z.record(z.string(), z.unknown()) } },
    handler: async () => ({ status: 200, body: FLOW_DOCUMENT_JSON_SCHEMA }),
  });
  mountOperation(r, app, validateFlowOp, {
    ...base,
    summary: 'Report every problem of an export document or of { graph } (unknown node kind, dangling edge, cycle, outbound without approval, bad cron...); writes nothing',
    body: ValidateFlowSchema,
    responses: { 200: { description: 'Validation result', schema: ValidationResultSchema }, 400: { description: 'Wrongly typed field' } },
    input: (req) => ({ body: req.body }),
    reply: (result) => ({ status: 200, body: result }),
  });
  mountOperation(r, app, importFlowOp, {
    ...base,
    summary: 'Create a disabled flow from an export document (connections by name); a fresh inbound-webhook secret is returned once',
    body: FlowDocumentSchema,
    responses: {
      201: { description: 'Imported', schema: CreatedFlowReply },
      400: { description: 'Wrongly typed field, or invalid_graph with every problem' },
    },
    input: (req) => ({ body: req.body }),
    reply: (created) => ({ status: 201, body: created }),
  });
  mountOperation(r, app, getFlowOp, {
    ...base,
    summary: 'Read a flow; its version is also the ETag',
    responses: { 200: { description: 'Flow', schema: FlowReply }, 404: { description: 'Unknown flow' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (flow) => ({ status: 200, body: { flow }, headers: withEtag(flow) }),
  });
  mountOperation(r, app, updateFlowOp, {
    ...base,
    summary: 'Set the name, the schedule ({ cron, timezone? }), the enabled state; unattendedOutbound true needs a signed-in person (403 person_required for API keys)',
    body: UpdateFlowSchema,
    responses: {
      200: { description: 'Updated', schema: FlowReply },
      400: { description: 'Wrongly typed field, no schedule trigger, or invalid_graph' },
      404: { description: 'Unknown flow' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (flow) => ({ status: 200, body: { flow }, headers: withEtag(flow) }),
  });
  mountOperation(r, app, deleteFlowOp, {
    ...base,
    summary: 'Delete a flow with its runs and approvals',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown flow' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });
  mountOperation(r, app, putGraphOp, {
    ...base,
    summary: 'Replace nodes and edges after validation; If-Match: <version> ("3" or 3) or expectedVersion; the new version is the ETag',
    body: PutGraphSchema,
    responses: {
      200: { description: 'Saved', schema: FlowReply },
      400: { description: 'Wrongly typed field, bad If-Match, or invalid_graph with every problem' },
      404: { description: 'Unknown flow' },
      409: { description: 'version_conflict: the graph moved; body has currentVersion' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body, ifMatch: req.get('if-match') }),
    reply: (flow) => ({ status: 200, body: { flow }, headers: withEtag(flow) }),
  });
  mountOperation(r, app, exportFlowOp, {
    ...base,
    summary: 'Portable document (format service.flow/v1): no workspace id, no secret, no unattended-outbound flag, connections by name',
    responses: { 200: { description: 'Export document', schema: FlowDocumentDtoSchema }, 404: { description: 'Unknown flow' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (document) => ({ status: 200, body: document }),
  });

  // ------------------------------------------------------------------------------------------- runs
  mountOperation(r, app, startRunOp, {
    ...base,
    summary: 'Start a manual run ({ input? }); the flow need not be enabled. Returns the run to follow (status queued)',
    body: StartRunSchema,
    responses: { 202: { description: 'Run queued', schema: RunReply }, 404: { description: 'Unknown flow' } },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (run) => ({ status: 202, body: { run } }),
  });
  mountOperation(r, app, listRunsOp, {
    ...base,
    summary: 'Run history of a flow, most recent first (limit 1 to 100, default 50)',
    query: RunListQuerySchema,
    responses: { 200: { description: 'Runs', schema: z.object({ runs: z.array(RunDtoSchema) }) }, 404: { description: 'Unknown flow' } },
    input: (req) => ({ id: param(req, 'id'), limit: RunListQuerySchema.parse({ limit: req.query.limit }).limit }),
    reply: (runs) => ({ status: 200, body: { runs } }),
  });
  mountOperation(r, app, getRunOp, {
    ...base,
    summary: "A run with each step's status, timing, output summary and error",
    responses: { 200: { description: 'Run', schema: RunReply }, 404: { description: 'Unknown run' } },
    input: (req) => ({ runId: param(req, 'runId') }),
    reply: (run) => ({ status: 200, body: { run } }),
  });
  mountOperation(r, app, resumeRunOp, {
    ...base,
    summary: 'Resume a failed run (its failed step is done again) or a waiting one (the wait ends now)',
    responses: {
      200: { description: 'Run', schema: RunReply },
      404: { description: 'Unknown run' },
      409: { description: 'run_not_resumable' },
    },
    input: (req) => ({ runId: param(req, 'runId') }),
    reply: (run) => ({ status: 200, body: { run } }),
  });
  mountOperation(r, app, cancelRunOp, {
    ...base,
    summary: 'Cancel a run',
    responses: {
      200: { description: 'Run', schema: RunReply },
      404: { description: 'Unknown run' },
      409: { description: 'run_finished' },
    },
    input: (req) => ({ runId: param(req, 'runId') }),
    reply: (run) => ({ status: 200, body: { run } }),
  });
  mountOperation(r, app, runEventsOp, {
    ...base,
    summary:
      'The run events as Server-Sent Events, from the start (chat stream conventions: data: {"type","data"}, ": ping"): ' +
      'step_started, step_finished, step_failed, approval_requested, approval_decided, run_finished (the last one)',
    streams: true,
    responses: { 200: { description: 'Event stream' }, 404: { description: 'Unknown run' } },
    handler: async (_ctx, req, res, run) => {
      const events = await run({ runId: param(req, 'runId') });
      const sse = openSse(res, { pingMs: app.config.streamPingMs });
      try {
        for await (const event of events) {
          if (sse.closed) break;
          sse.send({ type: event.type, data: event.data });
        }
      } catch (err) {
        sse.send(chatStreamError(toDomainError(err).error));
      } finally {
        sse.end();
      }
    },
  });

  // -------------------------------------------------------------------------------------- approvals
  mountOperation(r, app, listApprovalsOp, {
    ...base,
    summary: 'Open and recent approvals, newest first (status=open: open and claimed ones only)',
    query: ApprovalListQuery,
    responses: { 200: { description: 'Approvals', schema: z.object({ approvals: z.array(ApprovalDtoSchema) }) } },
    input: (req) => ({ status: ApprovalListQuery.parse({ status: req.query.status }).status }),
    reply: (approvals) => ({ status: 200, body: { approvals } }),
  });
  mountOperation(r, app, claimApprovalOp, {
    ...base,
    summary: 'A signed-in person takes the approval (API keys: 403 person_required)',
    responses: {
      200: { description: 'Claimed', schema: ApprovalReply },
      404: { description: 'Unknown approval' },
      409: { description: 'approval_closed, or approval_claimed by another person' },
    },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (approval) => ({ status: 200, body: { approval } }),
  });
  mountOperation(r, app, decideApprovalOp, {
    ...base,
    summary: 'A signed-in person approves or rejects ({ decision: "approve" | "reject", comment? }); API keys: 403 person_required',
    body: DecideSchema,
    responses: {
      200: { description: 'Decided', schema: ApprovalReply },
      400: { description: 'Wrongly typed field' },
      404: { description: 'Unknown approval' },
      409: { description: 'approval_closed, or approval_claimed by another person' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (approval) => ({ status: 200, body: { approval } }),
  });
  return r;
}
