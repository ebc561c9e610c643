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
  cancelRun,
  claimApproval,
  createFlow,
  decideApproval,
  deleteFlow,
  etagOf,
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
} from '../../src/modules/flows/index.js';
import { FLOW_DOCUMENT_JSON_SCHEMA } from '../../src/modules/flows/index.js';
import { openRunStream } from '../../src/modules/flows/index.js';
import { mount, mountPublic, param } from '../route.js';
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
  const base = { tag: 'flows', scope: 'engine', people: true } as const;

  // ------------------------------------------------------------------------------------------ flows
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/engine/flows',
    summary: 'List the workspace flows, oldest first',
    responses: { 200: { description: 'Flows', schema: z.object({ flows: z.array(FlowDtoSchema) }) } },
    handler: async (ctx) => ({ status: 200, body: { flows: await listFlows(ctx) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/engine/flows',
    summary: 'Create a flow ({ name, graph? }), disabled; outbound nodes need an approval before them on every path',
    body: CreateFlowSchema,
    responses: {
      201: { description: 'Created, with its inbound-webhook secret (shown once)', schema: CreatedFlowReply },
      400: { description: 'Wrongly typed field (never coerced), or invalid_graph with every problem' },
    },
    handler: async (ctx, req) => {
      const created = await createFlow(ctx, req.body);
      return { status: 201, body: created, headers: withEtag(created.flow) };
    },
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
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/engine/flows/validate',
    summary: 'Report every problem of an export document or of { graph } (unknown node kind, dangling edge, cycle, outbound without approval, bad cron...); writes nothing',
    body: ValidateFlowSchema,
    write: false,
    responses: { 200: { description: 'Validation result', schema: ValidationResultSchema }, 400: { description: 'Wrongly typed field' } },
    handler: async (ctx, req) => ({ status: 200, body: await validateFlow(ctx, req.body) }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/engine/flows/import',
    summary: 'Create a disabled flow from an export document (connections by name); a fresh inbound-webhook secret is returned once',
    body: FlowDocumentSchema,
    responses: {
      201: { description: 'Imported', schema: CreatedFlowReply },
      400: { description: 'Wrongly typed field, or invalid_graph with every problem' },
    },
    handler: async (ctx, req) => ({ status: 201, body: await importFlow(ctx, req.body) }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/engine/flows/:id',
    summary: 'Read a flow; its version is also the ETag',
    responses: { 200: { description: 'Flow', schema: FlowReply }, 404: { description: 'Unknown flow' } },
    handler: async (ctx, req) => {
      const flow = await getFlow(ctx, param(req, 'id'));
      return { status: 200, body: { flow }, headers: withEtag(flow) };
    },
  });
  mount(r, app, {
    ...base,
    method: 'patch',
    path: '/engine/flows/:id',
    summary: 'Set the name, the schedule ({ cron, timezone? }), the enabled state; unattendedOutbound true needs a signed-in person (403 person_required for API keys)',
    body: UpdateFlowSchema,
    responses: {
      200: { description: 'Updated', schema: FlowReply },
      400: { description: 'Wrongly typed field, no schedule trigger, or invalid_graph' },
      404: { description: 'Unknown flow' },
    },
    handler: async (ctx, req) => {
      const flow = await updateFlow(ctx, param(req, 'id'), req.body);
      return { status: 200, body: { flow }, headers: withEtag(flow) };
    },
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/engine/flows/:id',
    summary: 'Delete a flow with its runs and approvals',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown flow' } },
    handler: async (ctx, req) => {
      await deleteFlow(ctx, param(req, 'id'));
      return { status: 204 };
    },
  });
  mount(r, app, {
    ...base,
    method: 'put',
    path: '/engine/flows/:id/graph',
    summary: 'Replace nodes and edges after validation; If-Match: <version> ("3" or 3) or expectedVersion; the new version is the ETag',
    body: PutGraphSchema,
    responses: {
      200: { description: 'Saved', schema: FlowReply },
      400: { description: 'Wrongly typed field, bad If-Match, or invalid_graph with every problem' },
      404: { description: 'Unknown flow' },
      409: { description: 'version_conflict: the graph moved; body has currentVersion' },
    },
    handler: async (ctx, req) => {
      const flow = await putGraph(ctx, param(req, 'id'), req.body, req.get('if-match'));
      return { status: 200, body: { flow }, headers: withEtag(flow) };
    },
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/engine/flows/:id/export',
    summary: 'Portable document (format service.flow/v1): no workspace id, no secret, no unattended-outbound flag, connections by name',
    responses: { 200: { description: 'Export document', schema: FlowDocumentDtoSchema }, 404: { description: 'Unknown flow' } },
    handler: async (ctx, req) => ({ status: 200, body: await exportFlow(ctx, param(req, 'id')) }),
  });

  // ------------------------------------------------------------------------------------------- runs
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/engine/flows/:id/run',
    summary: 'Start a manual run ({ input? }); the flow need not be enabled. Returns the run to follow (status queued)',
    body: StartRunSchema,
    responses: { 202: { description: 'Run queued', schema: RunReply }, 404: { description: 'Unknown flow' } },
    handler: async (ctx, req) => ({ status: 202, body: { run: await startManualRun(ctx, param(req, 'id'), req.body) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/engine/flows/:id/runs',
    summary: 'Run history of a flow, most recent first (limit 1 to 100, default 50)',
    query: RunListQuerySchema,
    responses: { 200: { description: 'Runs', schema: z.object({ runs: z.array(RunDtoSchema) }) }, 404: { description: 'Unknown flow' } },
    handler: async (ctx, req) => {
      const { limit } = RunListQuerySchema.parse({ limit: req.query.limit });
      return { status: 200, body: { runs: await listRuns(ctx, param(req, 'id'), { limit }) } };
    },
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/engine/runs/:runId',
    summary: "A run with each step's status, timing, output summary and error",
    responses: { 200: { description: 'Run', schema: RunReply }, 404: { description: 'Unknown run' } },
    handler: async (ctx, req) => ({ status: 200, body: { run: await getRun(ctx, param(req, 'runId')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/engine/runs/:runId/resume',
    summary: 'Resume a failed run (its failed step is done again) or a waiting one (the wait ends now)',
    responses: {
      200: { description: 'Run', schema: RunReply },
      404: { description: 'Unknown run' },
      409: { description: 'run_not_resumable' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { run: await resumeRun(ctx, param(req, 'runId')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/engine/runs/:runId/cancel',
    summary: 'Cancel a run',
    responses: {
      200: { description: 'Run', schema: RunReply },
      404: { description: 'Unknown run' },
      409: { description: 'run_finished' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { run: await cancelRun(ctx, param(req, 'runId')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/engine/runs/:runId/stream',
    summary:
      'The run events as Server-Sent Events, from the start (chat stream conventions: data: {"type","data"}, ": ping"): ' +
      'step_started, step_finished, step_failed, approval_requested, approval_decided, run_finished (the last one)',
    streams: true,
    responses: { 200: { description: 'Event stream' }, 404: { description: 'Unknown run' } },
    handler: async (ctx, _req, res) => {
      const events = await openRunStream(ctx, param(_req, 'runId'));
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
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/engine/approvals',
    summary: 'Open and recent approvals, newest first (status=open: open and claimed ones only)',
    query: ApprovalListQuery,
    responses: { 200: { description: 'Approvals', schema: z.object({ approvals: z.array(ApprovalDtoSchema) }) } },
    handler: async (ctx, req) => {
      const { status } = ApprovalListQuery.parse({ status: req.query.status });
      return { status: 200, body: { approvals: await listApprovals(ctx, { status }) } };
    },
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/engine/approvals/:id/claim',
    summary: 'A signed-in person takes the approval (API keys: 403 person_required)',
    person: true,
    responses: {
      200: { description: 'Claimed', schema: ApprovalReply },
      404: { description: 'Unknown approval' },
      409: { description: 'approval_closed, or approval_claimed by another person' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { approval: await claimApproval(ctx, param(req, 'id')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/engine/approvals/:id/decide',
    summary: 'A signed-in person approves or rejects ({ decision: "approve" | "reject", comment? }); API keys: 403 person_required',
    person: true,
    body: DecideSchema,
    responses: {
      200: { description: 'Decided', schema: ApprovalReply },
      400: { description: 'Wrongly typed field' },
      404: { description: 'Unknown approval' },
      409: { description: 'approval_closed, or approval_claimed by another person' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { approval: await decideApproval(ctx, param(req, 'id'), req.body) } }),
  });
  return r;
}
