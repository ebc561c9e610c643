import { FlowFailureCode, type FlowStepCode } from '../../errors/index.js';
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../core/deps.js';
import type { Em } from '../../db/types.js';
import { newId } from '../../lib/ids.js';
import { withSpan } from '../../lib/tracing.js';
import { publishEvent } from '../webhooks/index.js';
import { Flow, FlowApproval, FlowRun, FlowStep } from './flow.entity.js';
import { isOutbound, isTrigger, type FlowGraph, type FlowNode } from './flows.schemas.js';
import { nextDue, scheduleOf } from './graph.js';
import { appendEvent, finishRun, isFinished, newRun } from './runs.js';
import { executeNode, idempotencyKeyOf, type StepResult } from './steps.js';
import type { TemplateContext } from './templates.js';

/**
 * The flow engine (docs/flows.md, "Execution"): runs are rows claimed with `FOR UPDATE SKIP LOCKED` and a
 * lease, like webhook deliveries and ingestion jobs. One process holds a run at a time and advances it
 * step by step; each step is recorded before it runs (`running`, with its idempotency key for outbound
 * steps) and after (its output or error), each write checking that the lease is still held. A process
 * that dies keeps its lease until it runs out; another process then takes the run over: a step found
 * `running` is done again, except an outbound one, which is never repeated (at most once): it fails
 * with `outbound_outcome_unknown`.
 */

export interface Claim {
  id: string;
  token: string;
}

/** Steps advanced per claim before the run is handed back (others get their turn). */
const STEPS_PER_CLAIM = 50;

const iso = (d: Date) => d.toISOString();
const newToken = () => randomBytes(12).toString('hex');

/** Claims up to `limit` runs due now that nobody holds. */
export async function claimRuns(app: Deps, limit: number): Promise<Claim[]> {
  const now = app.clock.now();
  const token = newToken();
  const rows = await app.orm.em.fork().execute<{ id: string }[]>(
    `update flow_run set lease_until = ?, lease_token = ?
      where id = any(array(
        select id from flow_run
         where status in ('queued', 'running', 'waiting')
           and (due_at is null or due_at <= ?)
           and (lease_until is null or lease_until <= ?)
         order by coalesce(due_at, created_at), id
         limit ?
         for update skip locked))
  returning id`,
    [iso(new Date(now.getTime() + app.config.flows.leaseMs)), token, iso(now), iso(now), limit],
  );
  return rows.map((r) => ({ id: r.id, token }));
}

/** Gives back the runs held under `tokens`: claimable at once by any process. */
export async function releaseClaims(app: Deps, tokens: string[]): Promise<void> {
  if (tokens.length === 0) return;
  await app.orm.em
    .fork()
    .execute(`update flow_run set lease_until = null, lease_token = null where lease_token = any(?::text[])`, [`{${tokens.join(',')}}`]);
}

/**
 * Runs `work` in a transaction holding the run's row, if the claim still holds it and the run is not
 * over; returns false (nothing written) otherwise: the lease ran out and another process took the run
 * over, or the run was cancelled.
 */
async function whileHeld(app: Deps, claim: Claim, work: (tx: Em, run: FlowRun) => Promise<void>): Promise<boolean> {
  let held = false;
  await app.orm.em.fork().transactional(async (tx) => {
    const rows = await tx.execute<{ id: string }[]>(`select id from flow_run where id = ? and lease_token = ? for update`, [claim.id, claim.token]);
    if (rows.length === 0) return;
    const run = await tx.findOneOrFail(FlowRun, { id: claim.id }, { refresh: true });
    if (isFinished(run.status)) return;
    held = true;
    await work(tx, run);
    await tx.flush();
  });
  if (held) app.flows.events.notify();
  return held;
}

type Plan =
  | { kind: 'execute'; node: FlowNode; attempts: number }
  | { kind: 'outbound_unknown'; node: FlowNode }
  | { kind: 'wait_over'; step: FlowStep }
  | { kind: 'sleep'; until: Date }
  | { kind: 'blocked' }
  | { kind: 'finish' };

/** Whether the edge carries the run on, given its source step's output. */
function edgeActive(edge: FlowGraph['edges'][number], source: FlowNode, output: unknown): boolean {
  const out = (output ?? {}) as Record<string, unknown>;
  if (source.type === 'condition') return edge.when === undefined || edge.when === String(out.result);
  if (source.type === 'approval') return edge.when === undefined ? out.decision === 'approved' : edge.when === out.decision;
  return true;
}

/** Node keys in topological order (the graph was validated: no cycle). */
export function topological(graph: FlowGraph): string[] {
  const indegree = new Map(graph.nodes.map((n) => [n.key, 0]));
  for (const e of graph.edges) indegree.set(e.to, (indegree.get(e.to) ?? 0) + 1);
  const order: string[] = [];
  const queue = graph.nodes.filter((n) => indegree.get(n.key) === 0).map((n) => n.key);
  while (queue.length > 0) {
    const k = queue.shift()!;
    order.push(k);
    for (const e of graph.edges.filter((e) => e.from === k)) {
      indegree.set(e.to, indegree.get(e.to)! - 1);
      if (indegree.get(e.to) === 0) queue.push(e.to);
    }
  }
  return order;
}

/** What to do next with a run, from its graph and the steps recorded so far. */
export function planNext(run: FlowRun, steps: FlowStep[], now: Date): Plan {
  const graph = run.graph;
  const nodes = new Map(graph.nodes.map((n) => [n.key, n]));
  const byKey = new Map(steps.map((s) => [s.nodeKey, s]));
  const crashed = steps.find((s) => s.status === 'running');
  if (crashed) {
    const node = nodes.get(crashed.nodeKey)!;
    return isOutbound(node.type) ? { kind: 'outbound_unknown', node } : { kind: 'execute', node, attempts: crashed.attempts + 1 };
  }
  const waiting = steps.find((s) => s.status === 'waiting');
  if (waiting) {
    if (waiting.nodeType !== 'wait') return { kind: 'blocked' };
    return waiting.resumeAt && waiting.resumeAt.getTime() > now.getTime() ? { kind: 'sleep', until: waiting.resumeAt } : { kind: 'wait_over', step: waiting };
  }
  const state = new Map<string, 'done' | 'failed' | 'skipped' | 'ready' | 'blocked'>();
  for (const key of topological(graph)) {
    const node = nodes.get(key)!;
    const step = byKey.get(key);
    if (step) {
      state.set(key, step.status === 'succeeded' ? 'done' : 'failed');
      continue;
    }
    if (isTrigger(node.type)) {
      state.set(key, 'skipped');
      continue;
    }
    const incoming = graph.edges.filter((e) => e.to === key);
    if (incoming.some((e) => ['ready', 'blocked'].includes(state.get(e.from)!))) {
      state.set(key, 'blocked');
      continue;
    }
    const active = incoming.some((e) => state.get(e.from) === 'done' && edgeActive(e, nodes.get(e.from)!, byKey.get(e.from)?.output));
    state.set(key, active ? 'ready' : 'skipped');
  }
  const ready = [...state].find(([, s]) => s === 'ready');
  if (ready) return { kind: 'execute', node: nodes.get(ready[0])!, attempts: (byKey.get(ready[0])?.attempts ?? 0) + 1 };
  return { kind: 'finish' };
}

function templateContext(run: FlowRun, steps: FlowStep[]): TemplateContext {
  const outputs: Record<string, unknown> = {};
  for (const s of steps) if (s.status === 'succeeded') outputs[s.nodeKey] = s.output;
  return { input: run.input, steps: outputs, run: { id: run.id }, flow: { id: run.flowId, name: run.flowName } };
}

/**
 * Advances a claimed run until it pauses (approval, wait), ends, the claim is lost or `signal` aborts.
 * The lease is renewed while a step works.
 */
export async function advanceRun(app: Deps, claim: Claim, signal: AbortSignal): Promise<void> {
  const leaseMs = app.config.flows.leaseMs;
  const renew = setInterval(() => {
    app.orm.em
      .fork()
      .execute(`update flow_run set lease_until = ? where id = ? and lease_token = ?`, [iso(new Date(app.clock.now().getTime() + leaseMs)), claim.id, claim.token])
      .catch((err: unknown) => app.log.warn({ err, runId: claim.id }, 'flow run lease renewal failed'));
  }, Math.max(100, Math.floor(leaseMs / 3)));
  renew.unref();
  let handedBack = false;
  try {
    for (let i = 0; i < STEPS_PER_CLAIM; i++) {
      if (signal.aborted) return;
      const em = app.orm.em.fork();
      const run = await em.findOne(FlowRun, { id: claim.id });
      if (!run || run.leaseToken !== claim.token || isFinished(run.status)) return;
      const steps = await em.find(FlowStep, { runId: run.id });
      const now = app.clock.now();
      const plan = planNext(run, steps, now);
      if (plan.kind === 'finish') {
        await whileHeld(app, claim, (tx, r) => finishRun(app, tx, r, { status: 'succeeded' }));
        handedBack = true;
        return;
      }
      if (plan.kind === 'blocked') return;
      if (plan.kind === 'sleep') {
        handedBack = await whileHeld(app, claim, async (_tx, r) => {
          r.status = 'waiting';
          r.dueAt = plan.until;
          r.leaseUntil = null;
          r.leaseToken = null;
          r.updatedAt = now;
        });
        return;
      }
      if (plan.kind === 'wait_over') {
        const held = await whileHeld(app, claim, async (tx, r) => {
          const step = await tx.findOneOrFail(FlowStep, { id: plan.step.id });
          step.status = 'succeeded';
          step.finishedAt = now;
          r.status = 'running';
          r.dueAt = null;
          r.updatedAt = now;
          await appendEvent(tx, r.id, { type: 'step_finished', data: stepEventData(step) }, now);
        });
        if (!held) return;
        continue;
      }
      if (plan.kind === 'outbound_unknown') {
        await whileHeld(app, claim, async (tx, r) => {
          const step = await tx.findOneOrFail(FlowStep, { runId: r.id, nodeKey: plan.node.key });
          const error = 'The process running this outbound step stopped before its outcome was recorded; it is not sent again (at most once)';
          failStep(step, now, error, FlowFailureCode.outboundOutcomeUnknown);
          await appendEvent(tx, r.id, { type: 'step_failed', data: stepEventData(step) }, now);
          await finishRun(app, tx, r, { status: 'failed', error: `Step ${step.nodeKey}: ${error}`, errorCode: FlowFailureCode.outboundOutcomeUnknown });
        });
        handedBack = true;
        return;
      }
      // A step that reaches outside (a model, the knowledge base, the verifier, HTTP, mail) is recorded as
      // running (an outbound one with its idempotency key) before it does anything; the others only compute
      // and are recorded once, with their outcome.
      const node = plan.node;
      const twoPhase = REACHES_OUT.has(node.type);
      if (twoPhase) {
        const started = await whileHeld(app, claim, async (tx, r) => {
          await startStep(app, tx, r, node, plan.attempts, now);
        });
        if (!started) return;
      }
      const stepAttrs = { 'svc.flow.id': run.flowId, 'svc.flow.run_id': run.id, 'svc.flow.step': node.key, 'svc.flow.step_type': node.type };
      const result = await withSpan('flow.step', stepAttrs, async (span) => {
        const outcome = await executeNode(app, run, node, templateContext(run, steps), signal);
        span.set({ 'svc.flow.step_outcome': outcome.kind });
        return outcome;
      });
      if (signal.aborted) return;
      const pausedOrOver = await recordResult(app, claim, node, result, twoPhase ? undefined : plan.attempts);
      if (pausedOrOver !== 'continue') {
        handedBack = pausedOrOver !== 'lost';
        return;
      }
    }
  } catch (err) {
    if (!signal.aborted) app.log.error({ err, runId: claim.id }, 'flow run could not be advanced; the lease will expire');
    handedBack = true; // leave the lease to expire: another attempt after it
  } finally {
    clearInterval(renew);
    // Handed back for others (fairness, or nothing to do now): claimable at once.
    if (!handedBack && !signal.aborted) await releaseClaims(app, [claim.token]).catch(() => undefined);
  }
}

/** Steps that reach outside the engine: recorded `running` before they work (crash recovery, at most once). */
const REACHES_OUT = new Set(['agent.ask', 'knowledge.query', 'verify.text', 'http.request', 'mail.send']);

/** Writes the step `running` (a new row, or the row of a step done again) and its `step_started` event. */
async function startStep(app: Deps, tx: Em, r: FlowRun, node: FlowNode, attempts: number, now: Date): Promise<FlowStep> {
  let step = await tx.findOne(FlowStep, { runId: r.id, nodeKey: node.key });
  if (!step) {
    step = tx.create(FlowStep, {
      id: newId('stp'),
      workspaceId: r.workspaceId,
      runId: r.id,
      nodeKey: node.key,
      nodeType: node.type,
      status: 'running',
      attempts,
      output: null,
      summary: null,
      error: null,
      errorCode: null,
      idempotencyKey: isOutbound(node.type) ? idempotencyKeyOf(r.id, node.key) : null,
      resumeAt: null,
      workerId: app.flows.workerId,
      startedAt: now,
      finishedAt: null,
    });
  } else {
    Object.assign(step, { status: 'running', attempts, workerId: app.flows.workerId, startedAt: now, finishedAt: null, error: null, errorCode: null });
  }
  r.status = 'running';
  r.dueAt = null;
  r.updatedAt = now;
  await appendEvent(tx, r.id, { type: 'step_started', data: { nodeKey: node.key, type: node.type, attempt: attempts } }, now);
  return step;
}

function failStep(step: FlowStep, now: Date, error: string, code: FlowStepCode): void {
  step.status = 'failed';
  step.error = error;
  step.errorCode = code;
  step.finishedAt = now;
}

const stepEventData = (s: FlowStep) => ({
  nodeKey: s.nodeKey,
  type: s.nodeType,
  status: s.status,
  summary: s.summary,
  error: s.error,
  errorCode: s.errorCode,
  durationMs: s.finishedAt ? s.finishedAt.getTime() - s.startedAt.getTime() : null,
});

/**
 * Writes a step's outcome (with `startAttempt`, a computing step, its start too, in the same
 * transaction); says whether the run goes on, paused or ended (or the claim was lost).
 */
async function recordResult(app: Deps, claim: Claim, node: FlowNode, result: StepResult, startAttempt?: number): Promise<'continue' | 'paused' | 'over' | 'lost'> {
  let next: 'continue' | 'paused' | 'over' = 'continue';
  const held = await whileHeld(app, claim, async (tx, run) => {
    const now = app.clock.now();
    const step = startAttempt !== undefined ? await startStep(app, tx, run, node, startAttempt, now) : await tx.findOneOrFail(FlowStep, { runId: run.id, nodeKey: node.key });
    if (step.status !== 'running') {
      next = 'paused';
      return;
    }
    run.updatedAt = now;
    switch (result.kind) {
      case 'done':
        step.status = 'succeeded';
        step.output = result.output;
        step.summary = result.summary;
        step.finishedAt = now;
        await appendEvent(tx, run.id, { type: 'step_finished', data: stepEventData(step) }, now);
        return;
      case 'failed':
        failStep(step, now, result.error, result.code);
        await appendEvent(tx, run.id, { type: 'step_failed', data: stepEventData(step) }, now);
        await finishRun(app, tx, run, { status: 'failed', error: `Step ${node.key}: ${result.error}`, errorCode: result.code });
        next = 'over';
        return;
      case 'wait':
        step.status = 'waiting';
        step.resumeAt = result.until;
        step.summary = result.summary;
        run.status = 'waiting';
        run.dueAt = result.until;
        run.leaseUntil = null;
        run.leaseToken = null;
        next = 'paused';
        return;
      case 'approval': {
        step.status = 'waiting';
        step.summary = 'waiting for approval';
        const approval = tx.create(FlowApproval, {
          id: newId('apr'),
          workspaceId: run.workspaceId,
          runId: run.id,
          flowId: run.flowId,
          flowName: run.flowName,
          nodeKey: node.key,
          question: result.question,
          data: result.data,
          status: 'open',
          claimedBy: null,
          claimedAt: null,
          decidedBy: null,
          decidedAt: null,
          comment: null,
          expiresAt: result.expiresAt,
          createdAt: now,
        });
        run.status = 'waiting_approval';
        run.dueAt = null;
        run.leaseUntil = null;
        run.leaseToken = null;
        await appendEvent(tx, run.id, { type: 'approval_requested', data: { approvalId: approval.id, nodeKey: node.key, expiresAt: iso(result.expiresAt) } }, now);
        // Identifiers only: never the question (SPEC, Events 4).
        await publishEvent({ em: tx, clock: app.clock, app, requestId: run.requestId ?? null }, {
          name: 'flow.approval.requested',
          workspaceId: run.workspaceId,
          actorUserId: null,
          payload: { runId: run.id, flowId: run.flowId, flowName: run.flowName, nodeKey: node.key, approvalId: approval.id },
        });
        next = 'paused';
        return;
      }
    }
  });
  return held ? next : 'lost';
}

// ------------------------------------------------------------------------------------ approvals, schedules

/**
 * Approvals past their time: each times out, its step fails and the run fails visibly
 * (`approval_timed_out`, `flow.run.finished` with `actionable: true`). Returns how many.
 */
export async function expireApprovals(app: Deps): Promise<number> {
  const now = app.clock.now();
  let n = 0;
  for (;;) {
    let done = false;
    await app.orm.em.fork().transactional(async (tx) => {
      const rows = await tx.execute<{ id: string }[]>(
        `select id from flow_approval where status in ('open', 'claimed') and expires_at <= ? order by expires_at limit 1 for update skip locked`,
        [iso(now)],
      );
      if (rows.length === 0) {
        done = true;
        return;
      }
      const approval = await tx.findOneOrFail(FlowApproval, { id: rows[0]!.id }, { refresh: true });
      approval.status = 'timed_out';
      approval.decidedAt = now;
      const run = await tx.findOne(FlowRun, { id: approval.runId }, { refresh: true });
      if (run && !isFinished(run.status)) {
        const step = await tx.findOne(FlowStep, { runId: run.id, nodeKey: approval.nodeKey });
        if (step) {
          failStep(step, now, 'Nobody decided the approval in time', FlowFailureCode.approvalTimedOut);
          await appendEvent(tx, run.id, { type: 'approval_decided', data: { approvalId: approval.id, nodeKey: approval.nodeKey, decision: 'timed_out' } }, now);
          await appendEvent(tx, run.id, { type: 'step_failed', data: stepEventData(step) }, now);
        }
        await finishRun(app, tx, run, { status: 'failed', error: `Approval ${approval.nodeKey} timed out: nobody decided in time`, errorCode: FlowFailureCode.approvalTimedOut });
      }
      await tx.flush();
      n++;
    });
    if (done) break;
    app.flows.events.notify();
  }
  return n;
}

/**
 * Fires the schedules due now: one run per flow and due time across processes (the flow row is locked
 * `SKIP LOCKED`, and `flow_run_schedule_once` refuses a second run for the same due time). The next due
 * time is computed from now: missed times while nothing ran give one run, not a burst.
 */
export async function fireDueSchedules(app: Deps): Promise<number> {
  const now = app.clock.now();
  let fired = 0;
  await app.orm.em.fork().transactional(async (tx) => {
    const rows = await tx.execute<{ id: string }[]>(
      `select id from flow where enabled and next_due_at is not null and next_due_at <= ? order by next_due_at limit 100 for update skip locked`,
      [iso(now)],
    );
    for (const { id } of rows) {
      const flow = await tx.findOneOrFail(Flow, { id }, { refresh: true });
      const due = flow.nextDueAt!;
      const exists = await tx.count(FlowRun, { flowId: flow.id, scheduledFor: due });
      if (exists === 0) {
        newRun(tx, flow, { trigger: 'schedule', input: { scheduledFor: iso(due) }, now, scheduledFor: due });
        fired++;
      }
      const schedule = scheduleOf(flow.graph);
      flow.nextDueAt = schedule ? nextDue(schedule.cron, schedule.timezone, now) : null;
    }
    await tx.flush();
  });
  if (fired > 0) app.flows.wake.notify();
  return fired;
}

/** The earliest time the engine has something to do later (a schedule, a wait, an approval's expiry). */
export async function nextWakeAt(app: Deps): Promise<Date | null> {
  const rows = await app.orm.em.fork().execute<{ at: string | Date | null }[]>(
    `select least(
       (select min(next_due_at) from flow where enabled),
       (select min(due_at) from flow_run where status = 'waiting'),
       (select min(expires_at) from flow_approval where status in ('open', 'claimed'))) as at`,
  );
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}

/**
 * Everything the engine can do now, in this process, until nothing is left: approvals past their time,
 * schedules due, then every claimable run advanced. For tests and tools (the app runs with
 * SVC_BACKGROUND_JOBS=off in tests); the background worker does the same continuously.
 */
export async function runFlowWork(app: Deps, signal: AbortSignal = app.shutdown.signal): Promise<number> {
  await expireApprovals(app);
  await fireDueSchedules(app);
  let n = 0;
  for (let claims = await claimRuns(app, 16); claims.length > 0; claims = await claimRuns(app, 16)) {
    for (const claim of claims) {
      await advanceRun(app, claim, signal);
      n++;
    }
  }
  return n;
}
