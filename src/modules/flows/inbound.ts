import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SystemCaller } from '../../core/principal.js';
import type { ServiceContext } from '../../core/context.js';
import type { Deps } from '../../core/deps.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { errors } from '../../errors/index.js';
import { User, Workspace } from '../workspaces/index.js';
import { Flow, FlowHookMessage } from './flow.entity.js';
import { flowCaller } from './flow-caller.js';
import { newRun } from './runs.js';

/**
 * Inbound flow hooks are signed as Standard Webhooks (https://www.standardwebhooks.com): the sender signs
 * `<webhook-id>.<webhook-timestamp>.<raw body>` with HMAC-SHA256, keyed with the bytes of the flow's
 * secret (`fwh_…` as UTF-8: the `standardwebhooks` libraries' `format: "raw"`), and sends
 * `webhook-signature: v1,<base64>` (several space-separated signatures are accepted, as when a secret rotates).
 * The former `X-Svc-Signature` (body only) is no longer accepted: nothing in it could stop a replay.
 */
export const HOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

/** A timestamp further than this from the server's clock, either way, is refused (Standard Webhooks' tolerance). */
export const HOOK_TOLERANCE_S = 5 * 60;

/** An accepted `webhook-id` is kept this long after it was received: past it, its signed timestamp is outside the window. */
export const HOOK_ID_RETENTION_MS = 2 * HOOK_TOLERANCE_S * 1000;

/** What a delivery to `POST /engine/hooks/:flowId` carries. */
export interface HookDelivery {
  flowId: string;
  body: Buffer;
  id?: string;
  timestamp?: string;
  signature?: string;
}

/** A delivery whose signature and timestamp are good: the flow acting as its caller, and the run's input. */
export interface VerifiedHook {
  flow: Flow;
  messageId: string;
  input: Record<string, unknown>;
  /** The flow, as the caller its hook's limits (the flow's rate, its hook ceiling) count against. */
  caller: SystemCaller;
}

/** `v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the flow's secret (what a sender computes). */
export function hookSignature(secret: string, id: string, timestamp: string | number, body: Buffer | string): string {
  return `v1,${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

function signatureMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  let ok = false;
  for (const candidate of given.trim().split(/\s+/)) {
    const b = Buffer.from(candidate);
    if (a.length === b.length && timingSafeEqual(a, b)) ok = true;
  }
  return ok;
}

const bounded = (value: string | undefined, max: number): string | undefined =>
  value !== undefined && value.length > 0 && value.length <= max && !value.includes('\u0000') ? value : undefined;

/**
 * Authenticates a delivery: the signature over id, timestamp and the exact bytes received, in constant
 * time, before anything else is revealed (an unknown flow, missing headers and a bad signature are the
 * same 401 `invalid_signature`); then the timestamp within 5 minutes of the server's clock (401
 * `invalid_signature`, saying so); a disabled flow is 409 `flow_disabled`; the body must be a JSON
 * object (the run's input). Replays are refused when the delivery is accepted (`acceptHook`).
 */
export async function verifyHook(app: Deps, delivery: HookDelivery): Promise<VerifiedHook> {
  const em = app.orm.em.fork();
  const flowId = bounded(delivery.flowId, 64);
  const flow = flowId ? await em.findOne(Flow, { id: flowId }) : null;
  const secret = flow ? app.secretBox.open(flow.webhookSecret, `flow:${flow.id}`) : 'fwh_none';
  const id = bounded(delivery.id, 255);
  const timestamp = bounded(delivery.timestamp, 20);
  const valid = signatureMatches(hookSignature(secret, id ?? '', timestamp ?? '', delivery.body), delivery.signature);
  if (!flow || !id || !timestamp || !valid) throw errors.invalidSignature();
  const seconds = /^\d+$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || Math.abs(app.clock.now().getTime() / 1000 - seconds) > HOOK_TOLERANCE_S) {
    throw errors.invalidSignature('webhook-timestamp is outside the 5-minute window: sign each delivery with the current time');
  }
  if (!flow.enabled) throw errors.flowDisabled();
  if (!flow.graph.nodes.some((n) => n.type === 'trigger.webhook')) throw errors.validation(null, 'This flow has no trigger.webhook node');
  let input: Record<string, unknown> = {};
  if (delivery.body.length > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(delivery.body.toString('utf8'));
    } catch {
      throw errors.invalidBody('The body must be a JSON object');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw errors.invalidBody('The body must be a JSON object');
    input = parsed as Record<string, unknown>;
  }
  const [workspace, user] = await Promise.all([em.findOne(Workspace, { id: flow.workspaceId }), em.findOne(User, { id: flow.userId })]);
  if (!workspace || !user) throw errors.validation(null, "The flow's creator no longer exists");
  return { flow, messageId: id, input, caller: flowCaller(app, workspace, user, { flowId: flow.id, runId: null }) };
}

/**
 * Accepts a verified delivery admitted by the request pipeline: its `webhook-id` is stored with the run it
 * starts, in one transaction, so a second delivery with the same id (a replay, or a retry of a delivery
 * already accepted) is 409 `webhook_replayed` naming that run, and never starts a second one.
 */
export async function acceptHook(ctx: ServiceContext, hook: VerifiedHook): Promise<{ runId: string }> {
  const now = ctx.clock.now();
  try {
    const runId = await ctx.em.transactional(async (tx) => {
      const run = newRun(tx, hook.flow, { trigger: 'webhook', input: hook.input, now, requestId: ctx.requestId });
      tx.create(FlowHookMessage, { flowId: hook.flow.id, messageId: hook.messageId, runId: run.id, receivedAt: now });
      await tx.flush();
      return run.id;
    });
    ctx.app.flows.wake.notify();
    return { runId };
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    const seen = await ctx.app.orm.em.fork().findOne(FlowHookMessage, { flowId: hook.flow.id, messageId: hook.messageId });
    throw errors.webhookReplayed(seen?.runId ?? '');
  }
}

/** Deletes the ids of deliveries that can no longer be replayed (their timestamp is outside the window). */
export async function sweepHookMessages(app: Deps): Promise<number> {
  const before = new Date(app.clock.now().getTime() - HOOK_ID_RETENTION_MS);
  return app.orm.em.fork().nativeDelete(FlowHookMessage, { receivedAt: { $lt: before } });
}
