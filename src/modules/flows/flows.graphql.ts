import { requestSignal } from '../../core/context.js';
import { builder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { EventQueue } from '../../lib/event-queue.js';
import {
  ApprovalDtoSchema,
  CreateFlowSchema,
  DecideSchema,
  FlowDtoSchema,
  PutGraphSchema,
  RunDetailDtoSchema,
  RunDtoSchema,
  UpdateFlowSchema,
  ValidationResultSchema,
} from './flows.schemas.js';
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
import { openRunStream, type StreamedRunEvent } from './run-stream.js';

/** GraphQL twins of the `/engine/flows*`, `/engine/runs*` and `/engine/approvals*` routes (docs/flows.md). */
const engine = (twin: string, extra: { write?: boolean; person?: boolean } = {}) => operationNeeds({ scope: 'engine', twin, ...extra });

const FlowRef = objectFromZod('Flow', FlowDtoSchema, {
  description: 'An automation flow: a graph of nodes and edges, a schedule (in its trigger.schedule node) and an enabled state.',
  types: { graph: 'JSON' },
});
const FlowRunRef = objectFromZod('FlowRun', RunDtoSchema, { names: { trigger: 'FlowRunTrigger', status: 'FlowRunStatus' } });
const FlowRunDetailRef = objectFromZod('FlowRunDetail', RunDetailDtoSchema, {
  description: "A run with each step's status, timing, output summary and error.",
  names: { trigger: 'FlowRunTrigger', status: 'FlowRunStatus', steps: 'FlowRunStep' },
});
const ApprovalRef = objectFromZod('FlowApproval', ApprovalDtoSchema, { names: { status: 'FlowApprovalStatus' } });
const ValidationRef = objectFromZod('FlowValidation', ValidationResultSchema, { names: { problems: 'FlowProblem' } });

const CreatedFlowRef = builder.objectRef<{ flow: ReturnType<typeof Object>; webhookSecret: string }>('CreatedFlow').implement({
  description: 'A new flow and its inbound-webhook secret, shown this once.',
  fields: (t) => ({
    flow: t.field({ type: FlowRef, resolve: (c) => c.flow as never }),
    webhookSecret: t.exposeString('webhookSecret'),
  }),
});

const CreateFlowInput = inputFromZod('CreateFlowInput', CreateFlowSchema, { types: { graph: 'JSON' } });
const UpdateFlowInput = inputFromZod('UpdateFlowInput', UpdateFlowSchema, { names: { schedule: 'FlowSchedule' } });
const PutFlowGraphInput = inputFromZod('PutFlowGraphInput', PutGraphSchema, { types: { nodes: 'JSON', edges: 'JSON' } });
const DecideApprovalInput = inputFromZod('DecideApprovalInput', DecideSchema, { names: { decision: 'ApprovalDecision' } });

builder.queryFields((t) => ({
  flows: t.field({
    type: [FlowRef],
    description: 'Flows of the workspace, oldest first.',
    extensions: engine('GET /engine/flows'),
    resolve: async (_r, _a, ctx) => listFlows(await ctx.service()),
  }),
  flow: t.field({
    type: FlowRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: engine('GET /engine/flows/:id'),
    resolve: async (_r, args, ctx) => getFlow(await ctx.service(), String(args.id)),
  }),
  flowExport: t.field({
    type: 'JSON',
    description: 'The portable document of a flow (format service.flow/v1).',
    args: { id: t.arg.id({ required: true }) },
    extensions: engine('GET /engine/flows/:id/export'),
    resolve: async (_r, args, ctx) => exportFlow(await ctx.service(), String(args.id)),
  }),
  validateFlow: t.field({
    type: ValidationRef,
    description: 'Every problem of an export document or of { graph }; writes nothing.',
    args: { document: t.arg({ type: 'JSON', required: true }) },
    extensions: engine('POST /engine/flows/validate'),
    resolve: async (_r, args, ctx) => validateFlow(await ctx.service(), args.document),
  }),
  flowRuns: t.field({
    type: [FlowRunRef],
    description: 'Run history of a flow, most recent first.',
    args: { flowId: t.arg.id({ required: true }), limit: t.arg.int({ required: false }) },
    extensions: engine('GET /engine/flows/:id/runs'),
    resolve: async (_r, args, ctx) => listRuns(await ctx.service(), String(args.flowId), { limit: Math.min(100, Math.max(1, args.limit ?? 50)) }),
  }),
  flowRun: t.field({
    type: FlowRunDetailRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: engine('GET /engine/runs/:runId'),
    resolve: async (_r, args, ctx) => getRun(await ctx.service(), String(args.id)),
  }),
  flowApprovals: t.field({
    type: [ApprovalRef],
    description: 'Open and recent approvals, newest first (openOnly: open and claimed ones).',
    args: { openOnly: t.arg.boolean({ required: false }) },
    extensions: engine('GET /engine/approvals'),
    resolve: async (_r, args, ctx) => listApprovals(await ctx.service(), { status: args.openOnly ? 'open' : 'all' }),
  }),
}));

builder.mutationFields((t) => ({
  createFlow: t.field({
    type: CreatedFlowRef,
    args: { input: t.arg({ type: CreateFlowInput, required: true }) },
    extensions: engine('POST /engine/flows', { write: true }),
    resolve: async (_r, args, ctx) => createFlow(await ctx.service(), plainInput(args.input)),
  }),
  updateFlow: t.field({
    type: FlowRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateFlowInput, required: true }) },
    extensions: engine('PATCH /engine/flows/:id', { write: true }),
    resolve: async (_r, args, ctx) => updateFlow(await ctx.service(), String(args.id), plainInput(args.input)),
  }),
  deleteFlow: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    extensions: engine('DELETE /engine/flows/:id', { write: true }),
    resolve: async (_r, args, ctx) => {
      await deleteFlow(await ctx.service(), String(args.id));
      return true;
    },
  }),
  putFlowGraph: t.field({
    type: FlowRef,
    description: 'Replace nodes and edges; expectedVersion gives version_conflict (with currentVersion) when the graph moved.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: PutFlowGraphInput, required: true }) },
    extensions: engine('PUT /engine/flows/:id/graph', { write: true }),
    resolve: async (_r, args, ctx) => putGraph(await ctx.service(), String(args.id), plainInput(args.input)),
  }),
  importFlow: t.field({
    type: CreatedFlowRef,
    args: { document: t.arg({ type: 'JSON', required: true }) },
    extensions: engine('POST /engine/flows/import', { write: true }),
    resolve: async (_r, args, ctx) => importFlow(await ctx.service(), args.document),
  }),
  startFlowRun: t.field({
    type: FlowRunDetailRef,
    args: { flowId: t.arg.id({ required: true }), input: t.arg({ type: 'JSON', required: false }) },
    extensions: engine('POST /engine/flows/:id/run', { write: true }),
    resolve: async (_r, args, ctx) => startManualRun(await ctx.service(), String(args.flowId), args.input === undefined || args.input === null ? {} : { input: args.input }),
  }),
  resumeFlowRun: t.field({
    type: FlowRunDetailRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: engine('POST /engine/runs/:runId/resume', { write: true }),
    resolve: async (_r, args, ctx) => resumeRun(await ctx.service(), String(args.id)),
  }),
  cancelFlowRun: t.field({
    type: FlowRunDetailRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: engine('POST /engine/runs/:runId/cancel', { write: true }),
    resolve: async (_r, args, ctx) => cancelRun(await ctx.service(), String(args.id)),
  }),
  claimFlowApproval: t.field({
    type: ApprovalRef,
    description: 'A signed-in person takes the approval (API keys: person_required).',
    args: { id: t.arg.id({ required: true }) },
    extensions: engine('POST /engine/approvals/:id/claim', { write: true, person: true }),
    resolve: async (_r, args, ctx) => claimApproval(await ctx.service(), String(args.id)),
  }),
  decideFlowApproval: t.field({
    type: ApprovalRef,
    description: 'A signed-in person approves or rejects (API keys: person_required).',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: DecideApprovalInput, required: true }) },
    extensions: engine('POST /engine/approvals/:id/decide', { write: true, person: true }),
    resolve: async (_r, args, ctx) => decideApproval(await ctx.service(), String(args.id), plainInput(args.input)),
  }),
}));

const FlowRunEventRef = builder.objectRef<StreamedRunEvent>('FlowRunEvent').implement({
  description: 'An event of a run, as on GET /engine/runs/:runId/stream: step_started, step_finished, step_failed, approval_requested, approval_decided, run_finished.',
  fields: (t) => ({
    seq: t.int({ resolve: (e) => e.seq }),
    type: t.exposeString('type'),
    data: t.field({ type: 'JSON', resolve: (e) => e.data }),
  }),
});

interface Refused {
  refused: unknown;
}
type StreamItem = StreamedRunEvent | Refused;

/** The REST stream's generator behind the subscription; a refusal (unknown run, scope) is its GraphQL error. */
async function subscribeRun(ctx: GraphQLContext, runId: string): Promise<AsyncIterableIterator<StreamItem>> {
  const controller = new AbortController();
  const queue = new EventQueue<StreamItem>(() => controller.abort());
  try {
    const service = await ctx.service();
    const events = await openRunStream({ ...service, signal: requestSignal(service.app, service.scope, controller.signal) }, runId);
    void (async () => {
      try {
        for await (const event of events) queue.push(event);
      } finally {
        queue.end();
      }
    })();
  } catch (refused) {
    queue.push({ refused });
    queue.end();
  }
  return queue;
}

builder.subscriptionFields((t) => ({
  flowRunEvents: t.field({
    type: FlowRunEventRef,
    description: 'The events of a run from its start, until run_finished (the REST run stream).',
    args: { runId: t.arg.id({ required: true }) },
    extensions: engine('GET /engine/runs/:runId/stream'),
    subscribe: (_r, args, ctx) => subscribeRun(ctx, String(args.runId)),
    resolve: (item: StreamItem) => {
      if ('refused' in item) throw item.refused;
      return item;
    },
  }),
}));
