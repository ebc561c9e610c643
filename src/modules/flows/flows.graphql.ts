import { requestSignal } from '../../core/context.js';
import { builder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationField } from '../../graphql/root-fields.js';
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
  type FlowDto,
} from './flows.schemas.js';
import {
  cancelRunOp,
  claimApprovalOp,
  createFlowOp,
  decideApprovalOp,
  deleteFlowOp,
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
} from './operations.js';
import type { StreamedRunEvent } from './run-stream.js';

/** GraphQL twins of the `/engine/flows*`, `/engine/runs*` and `/engine/approvals*` routes (docs/flows.md): the same operations. */

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

const CreatedFlowRef = builder.objectRef<{ flow: FlowDto; webhookSecret: string }>('CreatedFlow').implement({
  description: 'A new flow and its inbound-webhook secret, shown this once.',
  fields: (t) => ({
    flow: t.field({ type: FlowRef, resolve: (c) => c.flow }),
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
    extensions: operationField(listFlowsOp),
    resolve: async (_r, _a, ctx) => listFlowsOp.run(await ctx.service(), {}),
  }),
  flow: t.field({
    type: FlowRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getFlowOp),
    resolve: async (_r, args, ctx) => getFlowOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  flowExport: t.field({
    type: 'JSON',
    description: 'The portable document of a flow (format service.flow/v1).',
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(exportFlowOp),
    resolve: async (_r, args, ctx) => exportFlowOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  validateFlow: t.field({
    type: ValidationRef,
    description: 'Every problem of an export document or of { graph }; writes nothing.',
    args: { document: t.arg({ type: 'JSON', required: true }) },
    extensions: operationField(validateFlowOp),
    resolve: async (_r, args, ctx) => validateFlowOp.run(await ctx.service(), { body: args.document }),
  }),
  flowRuns: t.field({
    type: [FlowRunRef],
    description: 'Run history of a flow, most recent first.',
    args: { flowId: t.arg.id({ required: true }), limit: t.arg.int({ required: false }) },
    extensions: operationField(listRunsOp),
    resolve: async (_r, args, ctx) => listRunsOp.run(await ctx.service(), { id: String(args.flowId), limit: Math.min(100, Math.max(1, args.limit ?? 50)) }),
  }),
  flowRun: t.field({
    type: FlowRunDetailRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getRunOp),
    resolve: async (_r, args, ctx) => getRunOp.run(await ctx.service(), { runId: String(args.id) }),
  }),
  flowApprovals: t.field({
    type: [ApprovalRef],
    description: 'Open and recent approvals, newest first (openOnly: open and claimed ones).',
    args: { openOnly: t.arg.boolean({ required: false }) },
    extensions: operationField(listApprovalsOp),
    resolve: async (_r, args, ctx) => listApprovalsOp.run(await ctx.service(), { status: args.openOnly ? 'open' : 'all' }),
  }),
}));

builder.mutationFields((t) => ({
  createFlow: t.field({
    type: CreatedFlowRef,
    args: { input: t.arg({ type: CreateFlowInput, required: true }) },
    extensions: operationField(createFlowOp),
    resolve: async (_r, args, ctx) => createFlowOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  updateFlow: t.field({
    type: FlowRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateFlowInput, required: true }) },
    extensions: operationField(updateFlowOp),
    resolve: async (_r, args, ctx) => updateFlowOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  deleteFlow: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(deleteFlowOp),
    resolve: async (_r, args, ctx) => deleteFlowOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  putFlowGraph: t.field({
    type: FlowRef,
    description: 'Replace nodes and edges; expectedVersion gives version_conflict (with currentVersion) when the graph moved.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: PutFlowGraphInput, required: true }) },
    extensions: operationField(putGraphOp),
    resolve: async (_r, args, ctx) => putGraphOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  importFlow: t.field({
    type: CreatedFlowRef,
    args: { document: t.arg({ type: 'JSON', required: true }) },
    extensions: operationField(importFlowOp),
    resolve: async (_r, args, ctx) => importFlowOp.run(await ctx.service(), { body: args.document }),
  }),
  startFlowRun: t.field({
    type: FlowRunDetailRef,
    args: { flowId: t.arg.id({ required: true }), input: t.arg({ type: 'JSON', required: false }) },
    extensions: operationField(startRunOp),
    resolve: async (_r, args, ctx) =>
      startRunOp.run(await ctx.service(), { id: String(args.flowId), body: args.input === undefined || args.input === null ? {} : { input: args.input } }),
  }),
  resumeFlowRun: t.field({
    type: FlowRunDetailRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(resumeRunOp),
    resolve: async (_r, args, ctx) => resumeRunOp.run(await ctx.service(), { runId: String(args.id) }),
  }),
  cancelFlowRun: t.field({
    type: FlowRunDetailRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(cancelRunOp),
    resolve: async (_r, args, ctx) => cancelRunOp.run(await ctx.service(), { runId: String(args.id) }),
  }),
  claimFlowApproval: t.field({
    type: ApprovalRef,
    description: 'A signed-in person takes the approval (API keys: person_required).',
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(claimApprovalOp),
    resolve: async (_r, args, ctx) => claimApprovalOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  decideFlowApproval: t.field({
    type: ApprovalRef,
    description: 'A signed-in person approves or rejects (API keys: person_required).',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: DecideApprovalInput, required: true }) },
    extensions: operationField(decideApprovalOp),
    resolve: async (_r, args, ctx) => decideApprovalOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
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
    const events = await runEventsOp.run({ ...service, signal: requestSignal(service.app, service.scope, controller.signal) }, { runId });
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
    extensions: operationField(runEventsOp),
    subscribe: (_r, args, ctx) => subscribeRun(ctx, String(args.runId)),
    resolve: (item: StreamItem) => {
      if ('refused' in item) throw item.refused;
      return item;
    },
  }),
}));
