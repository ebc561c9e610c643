import type { ServiceContext } from '../../core/context.js';
import type { Em } from '../../db/types.js';
import { authorize } from '../../core/access.js';
import type { Workspace } from '../workspaces/index.js';
import { readBalance } from './metering.service.js';
import { allowanceWindow, allowanceWindowOfMonth, calendarMonth, monthOf } from './periods.js';
import { planTerms, subscriptionState } from './plans.js';
import { countControls, questionsByKeyIds, lastUseByKeyIds, usageByDay, usageByKey, windowTotals, type DayUsageRow, type KeyUsageRow } from './usage.repository.js';
import { KeyNotification, QuestionPack } from './usage.entity.js';
import { UsageQuerySchema } from './usage.schemas.js';

/**
 * The key fields' loaders (below an API key, not root fields): no capability scope opens them (restricted
 * keys get scope_denied). The root fields' reads are operations (operations.ts).
 */
const CONSOLE_READ = { scope: null } as const;

export interface UsageReport {
  workspaceId: string;
  plan: string;
  seats: number;
  subscriptionActive: boolean;
  subscriptionStartedAt: string;
  trialEndsAt: string | null;
  /** `YYYY-MM` in which the allowance window starts. */
  month: string;
  periodStart: string;
  periodEnd: string;
  /** Questions of the window's allowance (plan × seats; 30 for the trial). */
  allowance: number;
  /** Questions consumed in the window (allowance and packs). */
  used: number;
  usedFromAllowance: number;
  usedFromPacks: number;
  /** Allowance left in the window plus packs left now. */
  left: number;
  allowanceLeft: number;
  packs: { bought: number; used: number; left: number; items: { id: string; questions: number; createdAt: string }[] };
  answers: number;
  controls: number;
  byKey: KeyUsageRow[];
  byDay: DayUsageRow[];
}

/**
 * Usage of a workspace for the allowance window starting in `month` (default: the window holding
 * now; for a trial, the trial period). `left` counts packs as they stand now.
 */
export async function buildUsageReport(em: Em, ws: Workspace, now: Date, month?: string | null): Promise<UsageReport> {
  const window = month ? allowanceWindowOfMonth(ws, month) : allowanceWindow(ws, now);
  const allowance = planTerms(ws).questions;
  const [totals, balance, byKey, byDay, packs] = await Promise.all([
    windowTotals(em, ws.id, window),
    readBalance(em, ws, now),
    usageByKey(em, ws.id, window),
    usageByDay(em, ws.id, window),
    em.find(QuestionPack, { workspaceId: ws.id }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
  ]);
  const allowanceLeft = Math.max(0, allowance - totals.fromAllowance);
  const state = subscriptionState(ws, now);
  return {
    workspaceId: ws.id,
    plan: ws.plan,
    seats: ws.seats,
    subscriptionActive: state.active,
    subscriptionStartedAt: ws.subscriptionStartedAt.toISOString(),
    trialEndsAt: state.trialEndsAt?.toISOString() ?? null,
    month: monthOf(window.start),
    periodStart: window.start.toISOString(),
    periodEnd: window.end.toISOString(),
    allowance,
    used: totals.questions,
    usedFromAllowance: totals.fromAllowance,
    usedFromPacks: totals.fromPacks,
    left: allowanceLeft + balance.packsLeft,
    allowanceLeft,
    packs: {
      bought: balance.packsBought,
      used: balance.packsUsed,
      left: balance.packsLeft,
      items: packs.map((p) => ({ id: p.id, questions: p.questions, createdAt: p.createdAt.toISOString() })),
    },
    answers: totals.answers,
    controls: totals.controls,
    byKey,
    byDay,
  };
}

export async function getUsageReport(ctx: ServiceContext, input: unknown = {}): Promise<UsageReport> {
  const { month } = UsageQuerySchema.parse(input ?? {});
  return buildUsageReport(ctx.em, ctx.caller.workspace, ctx.clock.now(), month);
}

/** `GET /v1/verify/usage`: controls of the workspace in the current calendar month (UTC). */
export async function getVerifyUsage(ctx: ServiceContext): Promise<{ month: string; controls: number }> {
  const now = ctx.clock.now();
  return { month: monthOf(now), controls: await countControls(ctx.em, ctx.caller.workspace.id, calendarMonth(now)) };
}

export interface KeyNotificationDto {
  id: string;
  keyId: string;
  month: string;
  kind: string;
  used: number;
  limit: number;
  message: string;
  createdAt: string;
}

export const toNotificationDto = (n: KeyNotification): KeyNotificationDto => ({
  id: n.id,
  keyId: n.keyId,
  month: n.month,
  kind: n.kind,
  used: n.used,
  limit: n.ceiling,
  message: n.message,
  createdAt: n.createdAt.toISOString(),
});

/** Key notifications of a workspace, newest first, optionally for one month. */
export async function findKeyNotifications(em: Em, workspaceId: string, month?: string | null): Promise<KeyNotification[]> {
  return em.find(KeyNotification, { workspaceId, ...(month ? { month } : {}) }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

/** Questions consumed through each of these keys of the workspace in the current calendar month (UTC), in one query. */
export async function questionsThisMonthByKey(ctx: ServiceContext, keyIds: readonly string[]): Promise<Map<string, number>> {
  authorize(ctx, CONSOLE_READ);
  return questionsByKeyIds(ctx.em, ctx.caller.workspace.id, [...keyIds], calendarMonth(ctx.clock.now()));
}

/** When each of these keys of the workspace was last used for a metered call (absent: never). */
export async function lastUsedByKey(ctx: ServiceContext, keyIds: readonly string[]): Promise<Map<string, Date>> {
  authorize(ctx, CONSOLE_READ);
  return lastUseByKeyIds(ctx.em, ctx.caller.workspace.id, [...keyIds]);
}

/** Budget notifications of these keys of the workspace, newest first, in one query. */
export async function keyNotificationsOf(ctx: ServiceContext, keyIds: readonly string[]): Promise<KeyNotification[]> {
  authorize(ctx, CONSOLE_READ);
  return ctx.em.find(
    KeyNotification,
    { workspaceId: ctx.caller.workspace.id, keyId: { $in: [...keyIds] } },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
}

export async function listKeyNotifications(ctx: ServiceContext, input: unknown = {}): Promise<KeyNotification[]> {
  const { month } = UsageQuerySchema.parse(input ?? {});
  return findKeyNotifications(ctx.em, ctx.caller.workspace.id, month);
}
