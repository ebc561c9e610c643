import { LockMode } from '@mikro-orm/core';
import type { ServiceContext } from '../../core/context.js';
import type { Em } from '../../db/types.js';
import { errors, FlowFailureCode, GraphProblemCode } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { newSecret } from '../../lib/secrets.js';
import { Agent } from '../agents/index.js';
import { audit } from '../audit/index.js';
import { authorize } from '../../core/access.js';
import { KnowledgeCollection } from '../knowledge/index.js';
import { Flow, FlowApproval, FlowRun, FlowStep, type ApprovalStatus } from './flow.entity.js';
import {
  CreateFlowSchema,
  DecideSchema,
  FLOW_FORMAT,
  FlowDocumentSchema,
  PutGraphSchema,
  StartRunSchema,
  UpdateFlowSchema,
  ValidateFlowSchema,
  type ApprovalDto,
  type FlowDocument,
  type FlowDto,
  type FlowGraph,
  type FlowNode,
  type Problem,
  type RunDetailDto,
  type RunDto,
} from './flows.schemas.js';
import { nextDue, scheduleOf, validateGraph } from './graph.js';
import { appendEvent, finishRun, isFinished, newRun, toApprovalDto, toRunDetailDto, toRunDto } from './runs.js';

/**
 * Flows (issue 15, docs/flows.md): one function per use case, run by the declared operations
 * (operations.ts), which the REST routes, GraphQL and the MCP tools expose; the pipeline has admitted
 * the caller with the operation's needs (scope `engine`) before these run.
 */
/** Allowing unattended outbound stays with signed-in people: a rule of the body, so the service checks it. */
const UNATTENDED = { scope: 'engine', write: true, person: true } as const;

const impossibleId = (id: string): boolean => id.includes('\u0000') || id.length > 64;

export function toFlowDto(f: Flow): FlowDto {
  return {
    id: f.id,
    name: f.name,
    enabled: f.enabled,
    version: f.version,
    graph: f.graph,
    unattendedOutbound: f.unattendedOutbound,
    nextDueAt: f.nextDueAt?.toISOString() ?? null,
    userId: f.userId,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  };
}

async function findFlow(ctx: ServiceContext, id: string, em: Em = ctx.em): Promise<Flow> {
  const flow = impossibleId(id) ? null : await em.findOne(Flow, { id, workspaceId: ctx.caller.workspace.id });
  if (!flow) throw errors.notFound('flow', id);
  return flow;
}

async function findRun(ctx: ServiceContext, id: string, em: Em = ctx.em): Promise<FlowRun> {
  const run = impossibleId(id) ? null : await em.findOne(FlowRun, { id, workspaceId: ctx.caller.workspace.id });
  if (!run) throw errors.notFound('flowRun', id);
  return run;
}

async function findApproval(ctx: ServiceContext, id: string, em: Em = ctx.em): Promise<FlowApproval> {
  const approval = impossibleId(id) ? null : await em.findOne(FlowApproval, { id, workspaceId: ctx.caller.workspace.id });
  if (!approval) throw errors.notFound('approval', id);
  return approval;
}

/** The inbound-webhook secret, sealed under the server key with the flow's id as context. */
const sealSecret = (ctx: ServiceContext, flowId: string, secret: string) => ctx.app.secretBox.seal(secret, `flow:${flowId}`);
export const openFlowSecret = (ctx: Pick<ServiceContext, 'app'>, flow: Flow) => ctx.app.secretBox.open(flow.webhookSecret, `flow:${flow.id}`);

function nextDueOf(flow: Pick<Flow, 'enabled' | 'graph'>, now: Date): Date | null {
  if (!flow.enabled) return null;
  const schedule = scheduleOf(flow.graph);
  return schedule ? nextDue(schedule.cron, schedule.timezone, now) : null;
}

// ------------------------------------------------------------------------------------ connections

/**
 * Workspace objects a graph names: with `portable`, by name (`agent`, `collections`) as in an export
 * document, resolved to ids; otherwise by id (`agentId`, `collectionIds`), checked. Unknown ones are
 * `unknown_connection` problems.
 */
async function resolveConnections(ctx: ServiceContext, graph: FlowGraph, portable: boolean): Promise<{ graph: FlowGraph; problems: Problem[] }> {
  const workspaceId = ctx.caller.workspace.id;
  const [agents, collections] = await Promise.all([
    ctx.em.find(Agent, { workspaceId }, { fields: ['id', 'name'] }),
    ctx.em.find(KnowledgeCollection, { workspaceId }, { fields: ['id', 'name'] }),
  ]);
  const problems: Problem[] = [];
  const agentBy = (v: string) => agents.find((a) => (portable ? a.name === v : a.id === v));
  const collectionBy = (v: string) => collections.find((c) => (portable ? c.name === v : c.id === v));
  const nodes = graph.nodes.map((node): FlowNode => {
    const config = { ...(node.config ?? {}) } as Record<string, unknown>;
    const agentField = portable ? 'agent' : 'agentId';
    const collectionsField = portable ? 'collections' : 'collectionIds';
    if (node.type === 'agent.ask' && typeof config[agentField] === 'string') {
      const agent = agentBy(config[agentField]);
      if (!agent) problems.push({ code: GraphProblemCode.unknownConnection, message: `No agent ${portable ? 'named' : 'with id'} "${config[agentField]}" in this workspace`, nodeKey: node.key });
      else if (portable) {
        delete config.agent;
        config.agentId = agent.id;
      }
    }
    if ((node.type === 'knowledge.query' || node.type === 'verify.text') && Array.isArray(config[collectionsField])) {
      const ids: string[] = [];
      for (const v of config[collectionsField] as unknown[]) {
        const c = typeof v === 'string' ? collectionBy(v) : undefined;
        if (!c) problems.push({ code: GraphProblemCode.unknownConnection, message: `No collection ${portable ? 'named' : 'with id'} "${String(v)}" in this workspace`, nodeKey: node.key });
        else ids.push(c.id);
      }
      if (portable) {
        delete config.collections;
        config.collectionIds = ids;
      }
    }
    return { ...node, ...(node.config !== undefined ? { config } : {}) };
  });
  return { graph: { nodes, edges: graph.edges }, problems };
}

/** A graph with ids, as an export document has it: names in place of ids. */
async function portableGraph(ctx: ServiceContext, graph: FlowGraph): Promise<FlowGraph> {
  const workspaceId = ctx.caller.workspace.id;
  const [agents, collections] = await Promise.all([
    ctx.em.find(Agent, { workspaceId }, { fields: ['id', 'name'] }),
    ctx.em.find(KnowledgeCollection, { workspaceId }, { fields: ['id', 'name'] }),
  ]);
  const nodes = graph.nodes.map((node): FlowNode => {
    if (!node.config) return node;
    const config: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node.config)) {
      if (k === 'agentId' && node.type === 'agent.ask') config.agent = agents.find((a) => a.id === v)?.name ?? v;
      else if (k === 'collectionIds' && Array.isArray(v)) config.collections = v.map((id) => collections.find((c) => c.id === id)?.name ?? id);
      else config[k] = v;
    }
    return { ...node, config };
  });
  return { nodes, edges: graph.edges };
}

/** Structural problems and unknown connections together; an invalid graph is a 400 listing them all. */
async function checkedGraph(ctx: ServiceContext, graph: FlowGraph, opts: { unattendedOutbound: boolean; portable?: boolean }): Promise<FlowGraph> {
  const structural = validateGraph(graph, opts);
  const { graph: resolved, problems } = await resolveConnections(ctx, graph, opts.portable ?? false);
  const all = [...structural, ...problems];
  if (all.length > 0) throw errors.invalidGraph(all);
  return resolved;
}

// ------------------------------------------------------------------------------------------- flows

export async function listFlows(ctx: ServiceContext): Promise<FlowDto[]> {
  const flows = await ctx.em.find(Flow, { workspaceId: ctx.caller.workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return flows.map(toFlowDto);
}

export async function getFlow(ctx: ServiceContext, id: string): Promise<FlowDto> {
  return toFlowDto(await findFlow(ctx, id));
}

async function insertFlow(ctx: ServiceContext, name: string, graph: FlowGraph): Promise<{ flow: FlowDto; webhookSecret: string }> {
  const now = ctx.clock.now();
  const id = newId('flw');
  const webhookSecret = newSecret('fwh_');
  const flow = ctx.em.create(Flow, {
    id,
    workspaceId: ctx.caller.workspace.id,
    userId: ctx.caller.user.id,
    name: name.trim(),
    enabled: false,
    version: 1,
    graph,
    unattendedOutbound: false,
    unattendedBy: null,
    webhookSecret: sealSecret(ctx, id, webhookSecret),
    nextDueAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return { flow: toFlowDto(flow), webhookSecret };
}

/**
 * `POST /engine/flows`: a new flow, disabled until enabled (a manual run does not need it enabled).
 * Its inbound-webhook secret is returned this once.
 */
export async function createFlow(ctx: ServiceContext, input: unknown): Promise<{ flow: FlowDto; webhookSecret: string }> {
  const data = CreateFlowSchema.parse(input ?? {});
  const graph = data.graph ? await checkedGraph(ctx, data.graph, { unattendedOutbound: false }) : { nodes: [], edges: [] };
  return insertFlow(ctx, data.name, graph);
}

/** `PATCH /engine/flows/:id`: name, schedule settings, enabled state; unattended outbound by a signed-in person only. */
export async function updateFlow(ctx: ServiceContext, id: string, input: unknown): Promise<FlowDto> {
  const data = UpdateFlowSchema.parse(input ?? {});
  if (data.unattendedOutbound === true) authorize(ctx, UNATTENDED);
  const flow = await findFlow(ctx, id);
  const now = ctx.clock.now();
  let graph = flow.graph;
  if (data.schedule) {
    const index = graph.nodes.findIndex((n) => n.type === 'trigger.schedule');
    if (index < 0) throw errors.validation('schedule', 'The flow has no schedule trigger: add a trigger.schedule node to its graph');
    const config = { cron: data.schedule.cron, ...(data.schedule.timezone !== undefined ? { timezone: data.schedule.timezone } : {}) };
    graph = { nodes: graph.nodes.map((n, i) => (i === index ? { ...n, config } : n)), edges: graph.edges };
  }
  const unattended = data.unattendedOutbound ?? flow.unattendedOutbound;
  if (data.schedule || unattended !== flow.unattendedOutbound) graph = await checkedGraph(ctx, graph, { unattendedOutbound: unattended });
  if (data.schedule) {
    flow.graph = graph;
    flow.version += 1;
  }
  if (data.name !== undefined) flow.name = data.name.trim();
  if (data.enabled !== undefined) flow.enabled = data.enabled;
  if (data.unattendedOutbound !== undefined && data.unattendedOutbound !== flow.unattendedOutbound) {
    flow.unattendedOutbound = data.unattendedOutbound;
    flow.unattendedBy = data.unattendedOutbound ? ctx.caller.user.id : null;
    // Written by the flush below, with the change.
    audit(ctx, {
      action: data.unattendedOutbound ? 'flow.unattended_outbound_allowed' : 'flow.unattended_outbound_withdrawn',
      target: { type: 'flow', id: flow.id },
      details: { name: flow.name, version: flow.version },
    });
  }
  flow.nextDueAt = nextDueOf(flow, now);
  flow.updatedAt = now;
  await ctx.em.flush();
  return toFlowDto(flow);
}

/** Deletes the flow with its runs, steps and approvals. */
export async function deleteFlow(ctx: ServiceContext, id: string): Promise<void> {
  const flow = await findFlow(ctx, id);
  await ctx.em.nativeDelete(Flow, { id: flow.id, workspaceId: flow.workspaceId });
}

/** `If-Match: "3"` (as in the ETag), `3` or `W/"3"`; anything else is a 400 naming the header. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!m) throw errors.validation('If-Match', 'If-Match must be the flow version, quoted as in the ETag ("3") or bare (3)');
  return Number(m[1]);
}

/** The `ETag` of a flow version. */
export const etagOf = (version: number) => `"${version}"`;

/**
 * `PUT /engine/flows/:id/graph`: replaces the nodes and edges after validation, against the version in
 * `If-Match` or `expectedVersion` when given (409 version_conflict with `currentVersion` when the graph
 * moved). The version check and the write are one statement, so two writers racing on one version
 * cannot both win.
 */
export async function putGraph(ctx: ServiceContext, id: string, input: unknown, ifMatch?: string): Promise<FlowDto> {
  const data = PutGraphSchema.parse(input ?? {});
  const headerVersion = parseIfMatch(ifMatch);
  const flow = await findFlow(ctx, id);
  const expected = [headerVersion, data.expectedVersion].filter((v): v is number => v !== undefined);
  if (expected.some((v) => v !== flow.version)) throw errors.versionConflict(flow.version);
  const graph = await checkedGraph(ctx, { nodes: data.nodes, edges: data.edges }, { unattendedOutbound: flow.unattendedOutbound });
  const now = ctx.clock.now();
  const nextDueAt = nextDueOf({ enabled: flow.enabled, graph }, now);
  const updated = await ctx.em.nativeUpdate(
    Flow,
    { id: flow.id, version: flow.version },
    { graph, version: flow.version + 1, nextDueAt, updatedAt: now },
  );
  if (updated === 0) {
    const current = await ctx.em.fork().findOne(Flow, { id: flow.id });
    if (!current) throw errors.notFound('flow', id);
    throw errors.versionConflict(current.version);
  }
  return toFlowDto(await ctx.em.fork().findOneOrFail(Flow, { id: flow.id }));
}

// ------------------------------------------------------------------------------------ flows as code

/** `GET /engine/flows/:id/export`: no workspace id, no secret, no unattended-outbound flag, connections by name. */
export async function exportFlow(ctx: ServiceContext, id: string): Promise<FlowDocument> {
  const flow = await findFlow(ctx, id);
  return { format: FLOW_FORMAT, name: flow.name, graph: await portableGraph(ctx, flow.graph) };
}

/**
 * `POST /engine/flows/validate`: every problem of an export document, or of `{ graph }` (ids), without
 * writing anything. A document's connections are resolved by name in the caller's workspace.
 */
export async function validateFlow(ctx: ServiceContext, input: unknown): Promise<{ valid: boolean; problems: Problem[] }> {
  const data = ValidateFlowSchema.parse(input ?? {});
  const problems: Problem[] = [];
  const portable = data.format !== undefined;
  if (portable && data.format !== FLOW_FORMAT) problems.push({ code: GraphProblemCode.unknownFormat, message: `format must be "${FLOW_FORMAT}"` });
  if (portable && (data.name === undefined || data.name.trim() === '')) problems.push({ code: GraphProblemCode.invalidDocument, message: 'name is required' });
  problems.push(...validateGraph(data.graph, { portable }));
  problems.push(...(await resolveConnections(ctx, data.graph, portable)).problems);
  return { valid: problems.length === 0, problems };
}

/** `POST /engine/flows/import`: a new, disabled flow from an export document, and its fresh webhook secret (shown once). */
export async function importFlow(ctx: ServiceContext, input: unknown): Promise<{ flow: FlowDto; webhookSecret: string }> {
  const doc = FlowDocumentSchema.parse(input ?? {});
  const graph = await checkedGraph(ctx, doc.graph, { unattendedOutbound: false, portable: true });
  return insertFlow(ctx, doc.name, graph);
}

// -------------------------------------------------------------------------------------------- runs

async function runDetail(em: Em, run: FlowRun): Promise<RunDetailDto> {
  const steps = await em.find(FlowStep, { runId: run.id }, { orderBy: { startedAt: 'asc', id: 'asc' } });
  return toRunDetailDto(run, steps);
}

/** `POST /engine/flows/:id/run`: a manual run (the flow need not be enabled), queued for a worker; the run to follow. */
export async function startManualRun(ctx: ServiceContext, flowId: string, input: unknown = {}): Promise<RunDetailDto> {
  const data = StartRunSchema.parse(input ?? {});
  const flow = await findFlow(ctx, flowId);
  const run = newRun(ctx.em, flow, { trigger: 'manual', input: data.input ?? {}, now: ctx.clock.now(), requestId: ctx.requestId });
  await ctx.em.flush();
  ctx.app.flows.wake.notify();
  return runDetail(ctx.em, run);
}

/** `GET /engine/flows/:id/runs`: the history, most recent first. */
export async function listRuns(ctx: ServiceContext, flowId: string, opts: { limit?: number } = {}): Promise<RunDto[]> {
  const flow = await findFlow(ctx, flowId);
  const runs = await ctx.em.find(FlowRun, { flowId: flow.id }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: opts.limit ?? 50 });
  return runs.map(toRunDto);
}

/** `GET /engine/runs/:runId`: the run with each step's status, timing, output summary and error. */
export async function getRun(ctx: ServiceContext, runId: string): Promise<RunDetailDto> {
  return runDetail(ctx.em, await findRun(ctx, runId));
}

/**
 * `POST /engine/runs/:runId/resume`: a failed run goes on from its failed step (done again), a waiting
 * run from the end of its wait. A run paused on an approval waits for the decision (409).
 */
export async function resumeRun(ctx: ServiceContext, runId: string): Promise<RunDetailDto> {
  await findRun(ctx, runId);
  const now = ctx.clock.now();
  await ctx.em.fork().transactional(async (tx) => {
    const run = await tx.findOneOrFail(FlowRun, { id: runId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (run.status === 'failed') {
      await tx.nativeDelete(FlowStep, { runId: run.id, status: 'failed' });
      Object.assign(run, { status: 'queued', error: null, errorCode: null, finishedAt: null, dueAt: null, leaseUntil: null, leaseToken: null });
    } else if (run.status === 'waiting') {
      await tx.nativeUpdate(FlowStep, { runId: run.id, status: 'waiting', nodeType: 'wait' }, { resumeAt: now });
      run.dueAt = null;
    } else {
      throw errors.runNotResumable(run.status);
    }
    run.updatedAt = now;
    await tx.flush();
  });
  ctx.app.flows.wake.notify();
  return runDetail(ctx.em.fork(), await findRun(ctx, runId, ctx.em.fork()));
}

/** `POST /engine/runs/:runId/cancel`: the run ends `cancelled`; a step in flight is not recorded. */
export async function cancelRun(ctx: ServiceContext, runId: string): Promise<RunDetailDto> {
  await findRun(ctx, runId);
  await ctx.em.fork().transactional(async (tx) => {
    const run = await tx.findOneOrFail(FlowRun, { id: runId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (isFinished(run.status)) throw errors.runFinished(run.status);
    const now = ctx.clock.now();
    await tx.nativeUpdate(
      FlowStep,
      { runId: run.id, status: { $in: ['running', 'waiting'] } },
      { status: 'failed', error: 'The run was cancelled', errorCode: FlowFailureCode.cancelled, finishedAt: now },
    );
    await finishRun(ctx.app, tx, run, { status: 'cancelled', error: 'Cancelled', errorCode: FlowFailureCode.cancelled });
    await tx.flush();
  });
  ctx.app.flows.events.notify();
  return runDetail(ctx.em.fork(), await findRun(ctx, runId, ctx.em.fork()));
}

// --------------------------------------------------------------------------------------- approvals

const OPEN: ApprovalStatus[] = ['open', 'claimed'];

/** `GET /engine/approvals`: the open ones and the recent others, newest first (`status=open` for the open ones only). */
export async function listApprovals(ctx: ServiceContext, opts: { status?: 'open' | 'all'; limit?: number } = {}): Promise<ApprovalDto[]> {
  const approvals = await ctx.em.find(
    FlowApproval,
    { workspaceId: ctx.caller.workspace.id, ...(opts.status === 'open' ? { status: { $in: OPEN } } : {}) },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: opts.limit ?? 100 },
  );
  return approvals.map(toApprovalDto);
}

/** `POST /engine/approvals/:id/claim`: a signed-in person takes the approval (again: no change). */
export async function claimApproval(ctx: ServiceContext, id: string): Promise<ApprovalDto> {
  await findApproval(ctx, id);
  const me = ctx.caller.user.id;
  let result: FlowApproval | undefined;
  await ctx.em.fork().transactional(async (tx) => {
    const a = await tx.findOneOrFail(FlowApproval, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!OPEN.includes(a.status)) throw errors.approvalClosed(a.status);
    if (a.status === 'claimed' && a.claimedBy !== me) throw errors.approvalClaimed();
    if (a.status === 'open') Object.assign(a, { status: 'claimed', claimedBy: me, claimedAt: ctx.clock.now() });
    await tx.flush();
    result = a;
  });
  return toApprovalDto(result!);
}

/**
 * `POST /engine/approvals/:id/decide`: a signed-in person approves or rejects. Approved, the run goes on
 * (edges without `when`, or `when: "approved"`); rejected, it follows `when: "rejected"` edges, or fails
 * (`approval_rejected`) when there are none.
 */
export async function decideApproval(ctx: ServiceContext, id: string, input: unknown): Promise<ApprovalDto> {
  const data = DecideSchema.parse(input ?? {});
  await findApproval(ctx, id);
  const me = ctx.caller.user.id;
  const decision = data.decision === 'approve' ? 'approved' : 'rejected';
  let result: FlowApproval | undefined;
  await ctx.em.fork().transactional(async (tx) => {
    const a = await tx.findOneOrFail(FlowApproval, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!OPEN.includes(a.status)) throw errors.approvalClosed(a.status);
    if (a.status === 'claimed' && a.claimedBy !== me) throw errors.approvalClaimed();
    const now = ctx.clock.now();
    Object.assign(a, { status: decision, decidedBy: me, decidedAt: now, comment: data.comment ?? null });
    const run = await tx.findOneOrFail(FlowRun, { id: a.runId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const step = await tx.findOne(FlowStep, { runId: run.id, nodeKey: a.nodeKey });
    if (step && !isFinished(run.status)) {
      Object.assign(step, {
        status: 'succeeded',
        output: { decision, comment: data.comment ?? null, decidedBy: me },
        summary: `${decision} by ${ctx.caller.user.email ?? me}`,
        finishedAt: now,
      });
      await appendEvent(tx, run.id, { type: 'approval_decided', data: { approvalId: a.id, nodeKey: a.nodeKey, decision, decidedBy: me } }, now);
      await appendEvent(tx, run.id, { type: 'step_finished', data: { nodeKey: step.nodeKey, type: step.nodeType, status: step.status, summary: step.summary, error: null, errorCode: null, durationMs: now.getTime() - step.startedAt.getTime() } }, now);
      const goesOn = decision === 'approved' || run.graph.edges.some((e) => e.from === a.nodeKey && e.when === 'rejected');
      if (goesOn) Object.assign(run, { status: 'queued', dueAt: null, updatedAt: now });
      else await finishRun(ctx.app, tx, run, { status: 'failed', error: `Approval ${a.nodeKey} was rejected`, errorCode: FlowFailureCode.approvalRejected });
    }
    await tx.flush();
    result = a;
  });
  ctx.app.flows.wake.notify();
  ctx.app.flows.events.notify();
  return toApprovalDto(result!);
}
