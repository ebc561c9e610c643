import { defineEntity, p } from '@mikro-orm/core';
import type { FlowGraph } from './flows.schemas.js';

/** Run statuses (docs/flows.md, "Runs"). */
export const RUN_STATUSES = ['queued', 'running', 'waiting', 'waiting_approval', 'succeeded', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** A run in one of these is over: nothing more happens to it unless it is resumed (failed only). */
export const FINISHED: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

export const STEP_STATUSES = ['running', 'waiting', 'succeeded', 'failed'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export const APPROVAL_STATUSES = ['open', 'claimed', 'approved', 'rejected', 'timed_out', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const TRIGGER_KINDS = ['manual', 'schedule', 'webhook', 'event'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

const FlowSchema = defineEntity({
  name: 'Flow',
  tableName: 'flow',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    /** The creator: agent and verify steps are metered under this user. */
    userId: p.string(),
    name: p.string(),
    enabled: p.boolean(),
    version: p.integer(),
    graph: p.json<FlowGraph>(),
    /** Outbound nodes may run without an approval before them; set only by a signed-in person. */
    unattendedOutbound: p.boolean(),
    unattendedBy: p.string().nullable(),
    /** The inbound-webhook secret, sealed with the server key. */
    webhookSecret: p.text(),
    /** The next due time of the schedule trigger (null: no schedule, or disabled). */
    nextDueAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Flow extends FlowSchema.class {}
FlowSchema.setClass(Flow);

const FlowRunSchema = defineEntity({
  name: 'FlowRun',
  tableName: 'flow_run',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    flowId: p.string(),
    flowName: p.string(),
    flowVersion: p.integer(),
    /** The graph as it was when the run started: later edits never change a run. */
    graph: p.json<FlowGraph>(),
    /** The flow's creator, whose allowance agent and verify steps use. */
    userId: p.string(),
    trigger: p.string().$type<TriggerKind>(),
    input: p.json<Record<string, unknown>>(),
    status: p.string().$type<RunStatus>(),
    error: p.text().nullable(),
    errorCode: p.string().nullable(),
    /** When the run is next claimable (null: now); a waiting run sleeps until then. */
    dueAt: p.datetime().nullable(),
    leaseUntil: p.datetime().nullable(),
    leaseToken: p.string().nullable(),
    /** For schedule runs: the due time that started it (one run per flow and due time). */
    scheduledFor: p.datetime().nullable(),
    /** The request that started the run (`x-request-id`), directly or through an event; null for schedules. */
    requestId: p.string().nullable(),
    createdAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});
export class FlowRun extends FlowRunSchema.class {}
FlowRunSchema.setClass(FlowRun);

const FlowStepSchema = defineEntity({
  name: 'FlowStep',
  tableName: 'flow_step',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    runId: p.string(),
    nodeKey: p.string(),
    nodeType: p.string(),
    status: p.string().$type<StepStatus>(),
    attempts: p.integer(),
    output: p.json<unknown>().nullable(),
    summary: p.text().nullable(),
    error: p.text().nullable(),
    errorCode: p.string().nullable(),
    /** Outbound steps: the key sent with the request and recorded before it leaves (at most once). */
    idempotencyKey: p.string().nullable(),
    /** A wait step: when it is over. */
    resumeAt: p.datetime().nullable(),
    /** The process that last ran the step (`<host>:<pid>:<random>`). */
    workerId: p.string().nullable(),
    startedAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
  },
});
export class FlowStep extends FlowStepSchema.class {}
FlowStepSchema.setClass(FlowStep);

const FlowApprovalSchema = defineEntity({
  name: 'FlowApproval',
  tableName: 'flow_approval',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    runId: p.string(),
    flowId: p.string(),
    flowName: p.string(),
    nodeKey: p.string(),
    question: p.text(),
    data: p.json<unknown>().nullable(),
    status: p.string().$type<ApprovalStatus>(),
    claimedBy: p.string().nullable(),
    claimedAt: p.datetime().nullable(),
    decidedBy: p.string().nullable(),
    decidedAt: p.datetime().nullable(),
    comment: p.text().nullable(),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
  },
});
export class FlowApproval extends FlowApprovalSchema.class {}
FlowApprovalSchema.setClass(FlowApproval);

/** One line of a run's live log (run-stream.ts), in `seq` order; written with SQL beside the step it reports. */
const FlowRunEventSchema = defineEntity({
  name: 'FlowRunEvent',
  tableName: 'flow_run_event',
  properties: {
    seq: p.bigint('number').primary().autoincrement(),
    runId: p.string(),
    type: p.string(),
    data: p.json<unknown>(),
    createdAt: p.datetime(),
  },
});
export class FlowRunEvent extends FlowRunEventSchema.class {}
FlowRunEventSchema.setClass(FlowRunEvent);

/** The `webhook-id` of an accepted inbound hook delivery, kept while a replay could still be inside the window. */
const FlowHookMessageSchema = defineEntity({
  name: 'FlowHookMessage',
  tableName: 'flow_hook_message',
  properties: {
    flowId: p.string().primary(),
    messageId: p.string().primary(),
    /** The run the delivery started: a replay is told which. */
    runId: p.string(),
    receivedAt: p.datetime(),
  },
});
export class FlowHookMessage extends FlowHookMessageSchema.class {}
FlowHookMessageSchema.setClass(FlowHookMessage);

export const flowEntities = [Flow, FlowRun, FlowStep, FlowApproval, FlowRunEvent, FlowHookMessage];
