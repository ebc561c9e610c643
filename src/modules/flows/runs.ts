import type { FlowStepCode } from '../../errors/index.js';
import type { Deps } from '../../core/deps.js';
import type { Em } from '../../db/types.js';
import { newId } from '../../lib/ids.js';
import { metrics } from '../../lib/metrics.js';
import { publishEvent } from '../webhooks/index.js';
import { FINISHED, Flow, FlowApproval, FlowRun, FlowStep, type RunStatus, type TriggerKind } from './flow.entity.js';
import { isTrigger, type ApprovalDto, type FlowGraph, type RunDetailDto, type RunDto, type StepDto } from './flows.schemas.js';

/** The kinds of run stream events (docs/flows.md, "Run stream"). */
export type RunEventType = 'step_started' | 'step_finished' | 'step_failed' | 'approval_requested' | 'approval_decided' | 'run_finished';

export interface RunEvent {
  type: RunEventType;
  data: Record<string, unknown>;
}

const TRIGGER_NODE: Record<TriggerKind, string> = {
  manual: 'trigger.manual',
  schedule: 'trigger.schedule',
  webhook: 'trigger.webhook',
  event: 'trigger.event',
};

/**
 * The trigger nodes a run of this kind starts from. A manual run starts at the manual triggers, or,
 * when the flow has none, at every trigger (a manual run never needs the flow enabled).
 */
export function startNodes(graph: FlowGraph, trigger: TriggerKind): string[] {
  const own = graph.nodes.filter((n) => n.type === TRIGGER_NODE[trigger]).map((n) => n.key);
  if (own.length > 0 || trigger !== 'manual') return own;
  return graph.nodes.filter((n) => isTrigger(n.type)).map((n) => n.key);
}

/** Appends an event to the run's log (what the run stream replays and follows), through `em`. */
export async function appendEvent(em: Em, runId: string, event: RunEvent, at: Date): Promise<void> {
  await em.execute(`insert into flow_run_event (run_id, type, data, created_at) values (?, ?, ?, ?)`, [
    runId,
    event.type,
    JSON.stringify(event.data),
    at,
  ]);
}

/**
 * Writes a new run (queued, claimable at once) with its trigger steps done (`startAt`, or the flow's
 * trigger nodes of that kind), through `em` (the caller flushes or commits). Returns the run; the worker picks it up once committed (`app.flows.wake`).
 */
export function newRun(
  em: Em,
  flow: Flow,
  opts: {
    trigger: TriggerKind;
    input: Record<string, unknown>;
    now: Date;
    scheduledFor?: Date | null;
    startAt?: string[];
    /** The request that caused the run (`ctx.requestId`, an event's); its deliveries and steps carry it. */
    requestId?: string | null;
  },
): FlowRun {
  const run = em.create(FlowRun, {
    id: newId('run'),
    workspaceId: flow.workspaceId,
    flowId: flow.id,
    flowName: flow.name,
    flowVersion: flow.version,
    graph: flow.graph,
    userId: flow.userId,
    trigger: opts.trigger,
    input: opts.input,
    status: 'queued',
    error: null,
    errorCode: null,
    dueAt: null,
    leaseUntil: null,
    leaseToken: null,
    scheduledFor: opts.scheduledFor ?? null,
    requestId: opts.requestId ?? null,
    createdAt: opts.now,
    finishedAt: null,
    updatedAt: opts.now,
  });
  for (const key of opts.startAt ?? startNodes(flow.graph, opts.trigger)) {
    const node = flow.graph.nodes.find((n) => n.key === key)!;
    em.create(FlowStep, {
      id: newId('stp'),
      workspaceId: flow.workspaceId,
      runId: run.id,
      nodeKey: key,
      nodeType: node.type,
      status: 'succeeded',
      attempts: 1,
      output: opts.input,
      summary: `${opts.trigger} trigger`,
      error: null,
      errorCode: null,
      idempotencyKey: null,
      resumeAt: null,
      workerId: null,
      startedAt: opts.now,
      finishedAt: opts.now,
    });
  }
  return run;
}

/**
 * Ends a run (succeeded, failed or cancelled) through `tx`: its status, the stream's `run_finished`
 * and the `flow.run.finished` webhook event to every subscribed active endpoint of the workspace. Open
 * approvals of the run are cancelled.
 */
export async function finishRun(
  app: Deps,
  tx: Em,
  run: FlowRun,
  outcome: { status: Extract<RunStatus, 'succeeded' | 'failed' | 'cancelled'>; error?: string | null; errorCode?: FlowStepCode | null },
): Promise<void> {
  const now = app.clock.now();
  run.status = outcome.status;
  run.error = outcome.error ?? null;
  run.errorCode = outcome.errorCode ?? null;
  run.finishedAt = now;
  run.updatedAt = now;
  run.leaseUntil = null;
  run.leaseToken = null;
  run.dueAt = null;
  await tx.nativeUpdate(FlowApproval, { runId: run.id, status: { $in: ['open', 'claimed'] } }, { status: 'cancelled', decidedAt: now });
  const actionable = outcome.status === 'failed';
  await appendEvent(tx, run.id, { type: 'run_finished', data: { runId: run.id, status: run.status, error: run.error, errorCode: run.errorCode } }, now);
  metrics.flowRunFinished(run.status);
  await publishEvent({ em: tx, clock: app.clock, app, requestId: run.requestId ?? null }, {
    name: 'flow.run.finished',
    workspaceId: run.workspaceId,
    actorUserId: null,
    payload: { runId: run.id, flowId: run.flowId, flowName: run.flowName, status: run.status, actionable },
  });
}

export const isFinished = (status: RunStatus): boolean => FINISHED.includes(status);

// ------------------------------------------------------------------------------------------------ DTOs

export function toRunDto(r: FlowRun): RunDto {
  return {
    id: r.id,
    flowId: r.flowId,
    flowName: r.flowName,
    flowVersion: r.flowVersion,
    trigger: r.trigger,
    status: r.status,
    error: r.error ?? null,
    errorCode: r.errorCode ?? null,
    scheduledFor: r.scheduledFor?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    updatedAt: r.updatedAt.toISOString(),
    requestId: r.requestId ?? null,
  };
}

/**
 * Every node of the run's graph as a step: the stored ones with their status, timing, output summary
 * and error; the others `pending` while the run goes on, `skipped` once it is over (never reached).
 */
export function toRunDetailDto(r: FlowRun, steps: FlowStep[]): RunDetailDto {
  const byKey = new Map(steps.map((s) => [s.nodeKey, s]));
  const over = isFinished(r.status);
  return {
    ...toRunDto(r),
    steps: r.graph.nodes.map((node): StepDto => {
      const s = byKey.get(node.key);
      if (!s) {
        const untouched = over || isTrigger(node.type);
        return {
          nodeKey: node.key,
          type: node.type,
          status: untouched ? 'skipped' : 'pending',
          attempts: 0,
          startedAt: null,
          finishedAt: null,
          durationMs: null,
          summary: null,
          error: null,
          errorCode: null,
        };
      }
      return {
        nodeKey: s.nodeKey,
        type: s.nodeType,
        status: s.status,
        attempts: s.attempts,
        startedAt: s.startedAt.toISOString(),
        finishedAt: s.finishedAt?.toISOString() ?? null,
        durationMs: s.finishedAt ? s.finishedAt.getTime() - s.startedAt.getTime() : null,
        summary: s.summary ?? null,
        ...(s.output !== null && s.output !== undefined ? { output: s.output } : {}),
        error: s.error ?? null,
        errorCode: s.errorCode ?? null,
      };
    }),
  };
}

export function toApprovalDto(a: FlowApproval): ApprovalDto {
  return {
    id: a.id,
    runId: a.runId,
    flowId: a.flowId,
    flowName: a.flowName,
    nodeKey: a.nodeKey,
    question: a.question,
    ...(a.data !== null && a.data !== undefined ? { data: a.data } : {}),
    status: a.status,
    claimedBy: a.claimedBy ?? null,
    decidedBy: a.decidedBy ?? null,
    comment: a.comment ?? null,
    expiresAt: a.expiresAt.toISOString(),
    decidedAt: a.decidedAt?.toISOString() ?? null,
    createdAt: a.createdAt.toISOString(),
  };
}
