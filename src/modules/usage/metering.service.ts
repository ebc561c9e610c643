import type { ServiceContext } from '../../core/context.js';
import { metrics } from '../../lib/metrics.js';
import { withSpan } from '../../lib/tracing.js';
import type { Kernel } from '../../core/deps.js';
import type { Outcome } from '../../lib/group-commit.js';
import type { Em } from '../../db/types.js';
import { pgArrayLiteral, preparedSql, sql } from '../../db/sql.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import type { UsageMeter } from '../models/index.js';
import type { ModelClass, TokenUsage } from '../models/index.js';
import { CLASS_MULTIPLIER } from '../models/index.js';
import type { Workspace } from '../workspaces/index.js';
import { allowanceWindow, calendarMonth, monthOf, type Period } from './periods.js';
import { documentLimitFor, planTerms, requiredPlanFor, subscriptionState, type PlanFeature } from './plans.js';
import { keyQuestions, questionsByKeyIds, readLedgerBalance } from './usage.repository.js';
import { pendingRequestRates, type KeyCheck, type PendingRates, type RequestRate, type RouteRateName } from './rate-limit.service.js';
import type { Principal } from '../../core/principal.js';
import { StaleCaller } from '../../core/stale-caller.js';
import { unnamed } from '../../lib/unnamed.js';

/** One question is up to 8 000 weighted tokens (SPEC Limits > Questions). */
export const TOKENS_PER_QUESTION = 8000;

/**
 * An admitted answer holds its questions until it is recorded (or the hold expires, for an answer that
 * failed without being recorded), so answers admitted together cannot spend more than the allowance.
 */
export const HOLD_TTL_MS = 5 * 60_000;

/** Name of the admission in the request scope: one per request (or GraphQL root field). */
const ADMISSION = 'admission';

/** Name of the request's rates in its scope when they are counted with the admission (`deferRequestRates`). */
const RATES = 'rates';

/**
 * The pipeline's step 2 for an operation that counts its rates in its admission's statement
 * (`Needs.ratesWithAdmission`, the gateway's answers): the rates are decided now and owned by the request
 * scope; `assertCanConsume` counts them with the admission (`svc_rate_admit`), and any refusal before it
 * counts them first (`settleRequestRates`), so the order of refusals is the pipeline's. A request that ends
 * without either is counted when its scope is disposed of. A caller made from memory (`keyCheck`) is confirmed
 * by the same statement, or by a lookup before a refusal that comes first.
 */
export function deferRequestRates(ctx: ServiceContext<Principal>, opts: { route: string; rateLimit?: RouteRateName; keyCheck?: KeyCheck }): void {
  ctx.scope.own(RATES, pendingRequestRates(ctx.app, ctx.caller, opts), (pending) =>
    pending.settle().catch((err: unknown) => {
      if (err instanceof Error && !('status' in err)) ctx.log.warn({ err }, 'could not count a request\'s rates');
    }),
  );
}

/**
 * Counts the request's deferred rates now, alone (429 when one refuses): called before a refusal that
 * comes after the rates in the pipeline's order (403 scope, 400 body, 404 address, 402). Nothing when the
 * request has no deferred rates or they are already counted.
 */
export async function settleRequestRates(ctx: ServiceContext<Principal>): Promise<void> {
  await ctx.scope.get<PendingRates>(RATES)?.settle();
}

/** Runs `fn`; when it refuses the request, the deferred rates are counted first, so a 429 comes before its refusal. */
export async function afterRequestRates<T>(ctx: ServiceContext<Principal>, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    await settleRequestRates(ctx);
    throw err;
  }
}

/** One answer's consumption, as the ledger records it. */
export interface ConsumptionEntry {
  /** e.g. `POST /v1/chat/completions`. */
  route: string;
  modelClass: ModelClass;
  usage: TokenUsage;
  model?: string;
}

/**
 * The metering of one admitted request, from the check to the ledger (check → record → release).
 * `assertCanConsume` returns it once the plan, the key budget and the allowance admit the answer and
 * its questions are held; `record` writes the answer to the ledger once (a second call returns the
 * first one's result); the request scope owns it, and when the request ends without a recorded answer
 * (refused, failed, the client left) its hold is given back.
 */
export class Admission implements UsageMeter {
  private recording?: Promise<{ questions: number }>;
  private readonly holdIds: string[];

  constructor(
    private readonly ctx: ServiceContext,
    holdId: string,
    /** Questions held for this answer so far. */
    private held: number,
  ) {
    this.holdIds = [holdId];
  }

  /**
   * A long answer that runs in steps (a debate's turns) asks, before the next step, for its hold to cover
   * `required` questions in all: the missing ones are admitted like any admission (`svc_admit`, an extra
   * hold given back with the others), or it is the same 402 QUESTION_LIMIT.
   */
  async extend(required: number): Promise<void> {
    if (required <= this.held || this.recording) return;
    const ws = this.ctx.caller.workspace;
    this.holdIds.push(await this.ctx.app.usage.admissions.submit(ws.id, { workspace: ws, required: required - this.held }));
    this.held = required;
  }

  /**
   * `via`, when given, writes the ledger entry instead of the workspace's ledger group commit (the gateway
   * writes it with the answer's certificate); it is not called when the answer was already recorded.
   */
  record(entry: ConsumptionEntry, via?: ConsumptionWriter): Promise<{ questions: number }> {
    this.recording ??= writeConsumption(this.ctx, entry, this.holdIds, via).catch((err: unknown) => {
      this.recording = undefined;
      throw err;
    });
    return this.recording;
  }

  /** Called by the request scope when the request ends. */
  async release(): Promise<void> {
    if (this.recording) return;
    const { app } = this.ctx;
    try {
      const em = app.orm.em.fork();
      if (this.holdIds.length === 1) await em.execute('delete from question_hold where id = ?', [this.holdIds[0]]);
      else await sql(em, 'delete from question_hold where id = any($1::text[])', [pgArrayLiteral(this.holdIds)]);
    } catch (err) {
      app.log.warn({ err, holdIds: this.holdIds }, 'could not release a question hold; it expires by itself');
    }
  }
}

/** Share of a key's monthly ceiling past which a notification is recorded (once per key and month). */
export const KEY_NOTICE_RATIO = 0.8;

/**
 * Questions of one answer: the whole turn's total tokens times the answering model's class
 * multiplier, one question per 8 000 weighted tokens rounded up, at least one. See docs/questions.md.
 */
export function questionsFor(usage: { promptTokens: number; completionTokens: number; totalTokens: number }, modelClass: ModelClass): number {
  const tokens = Math.max(0, Math.ceil(usage.totalTokens || 0));
  const weighted = tokens * CLASS_MULTIPLIER[modelClass];
  return Math.max(1, Math.ceil(weighted / TOKENS_PER_QUESTION));
}

export interface Balance {
  window: Period;
  allowance: number;
  allowanceUsed: number;
  allowanceLeft: number;
  packsBought: number;
  packsUsed: number;
  packsLeft: number;
  /** Questions that can still be consumed now: allowance left plus packs left. */
  available: number;
}

/** The workspace's allowance at an instant, read by `svc_balance` as admission reads it (the ledger's running totals, kept in its transactions: never stale). */
export async function readBalance(em: Em, ws: Workspace, at: Date): Promise<Balance> {
  const window = allowanceWindow(ws, at);
  const allowance = planTerms(ws).questions;
  const { allowanceUsed, allowanceLeft, packsBought, packsUsed, packsLeft } = await readLedgerBalance(em, ws.id, window, allowance);
  return { window, allowance, allowanceUsed, allowanceLeft, packsBought, packsUsed, packsLeft, available: allowanceLeft + packsLeft };
}

/** Refuses with 402 SUBSCRIPTION_INACTIVE, then 402 PLAN_UPGRADE_REQUIRED when the plan lacks the feature. */
export function assertPlanFeature(ctx: ServiceContext, feature: PlanFeature): void {
  const ws = ctx.caller.workspace;
  if (!subscriptionState(ws, ctx.clock.now()).active) throw errors.subscriptionInactive();
  if (!planTerms(ws).features.includes(feature)) throw errors.planUpgradeRequired(feature, requiredPlanFor(feature));
}

/**
 * For uploads: 402 SUBSCRIPTION_INACTIVE, or 402 DOCUMENT_LIMIT `{ limit, used }` when `adding` more
 * documents would pass the plan's volume (per seat; 50 for the trial). `used` is counted by the caller.
 */
export function assertDocumentRoom(ctx: ServiceContext, opts: { used: number; adding?: number }): void {
  const ws = ctx.caller.workspace;
  if (!subscriptionState(ws, ctx.clock.now()).active) throw errors.subscriptionInactive();
  const limit = documentLimitFor(ws);
  if (opts.used + (opts.adding ?? 1) > limit) throw errors.documentLimit(limit, opts.used);
}

/** Questions consumed by a key this calendar month (UTC), from the ~15 s cache when fresh. */
async function keyMonthTotal(ctx: ServiceContext, keyId: string, now: Date): Promise<number> {
  const cache = ctx.app.usage.keyBudgets;
  const month = monthOf(now);
  const cached = cache.get(keyId, month, now.getTime());
  if (cached !== undefined) return cached;
  const total = await keyQuestions(ctx.em, keyId, calendarMonth(now));
  cache.set(keyId, month, total, now.getTime());
  return total;
}

/**
 * 402 API_KEY_BUDGET_EXCEEDED when the key's `monthlyQuestionLimit` (calendar month, UTC) is spent. A key
 * check (SPEC Authentication 6): callers that open a stream run it before the stream opens. Reads the
 * key's month total from the ~15 s cache.
 */
export async function assertKeyBudget(ctx: ServiceContext, required = 1): Promise<void> {
  const { monthlyQuestions: limit, meter } = ctx.caller.limits;
  if (limit === null) return;
  const used = await keyMonthTotal(ctx, meter, ctx.clock.now());
  if (used + required > limit) throw errors.apiKeyBudgetExceeded();
}

/**
 * Runs before any model: refuses (consuming nothing) when the subscription is inactive, the plan lacks
 * the feature (`chat` needs Pro or Cabinet, the trial has Pro's features; `gateway` is open to every
 * active plan), the key's `monthlyQuestionLimit` is spent, or the workspace has fewer questions left
 * than `required`. The allowance refusal is one catalogue error, QUESTION_LIMIT; the renderers word it
 * per wire (native 402 QUESTION_LIMIT, OpenAI 402 insufficient_quota, Anthropic 429 rate_limit_error).
 *
 * Admitted, the questions are held and the request's Admission is returned (the one it already has
 * when it was admitted before: the gateway's agent models enter the chat pipeline).
 */
export function assertCanConsume(ctx: ServiceContext, opts: AdmissionOptions): Promise<Admission> {
  return withSpan('pipeline.admission', { 'svc.feature': opts.feature }, () => admitAnswer(ctx, opts));
}

export interface AdmissionOptions {
  feature: 'chat' | 'gateway';
  required?: number;
  /**
   * A statement of the caller's that may carry the admission's (the chat turn's read): one round trip for
   * both. Told once, before the admission waits on anything of its own: `carry` when its statement rides in
   * the caller's, `none` otherwise.
   */
  carrier?: AdmissionCarrier;
}

/**
 * The caller's side of a carried admission. `carry` receives the admission's statement (a `select …` with its
 * own parameters `$1…`, as `recordStatement`'s) and settles with the value of its one column once the
 * caller's statement has answered (or its failure); `none` says the caller's statement goes without it.
 * Whichever is called first counts; the other is then ignored.
 */
export interface AdmissionCarrier {
  carry(statement: { select: string; params: readonly unknown[] }): Promise<unknown>;
  none(): void;
}

async function admitAnswer(ctx: ServiceContext, opts: AdmissionOptions): Promise<Admission> {
  const { carrier } = opts;
  try {
    return await admitWith(ctx, opts, carrier);
  } finally {
    carrier?.none();
  }
}

async function admitWith(ctx: ServiceContext, opts: AdmissionOptions, carrier: AdmissionCarrier | undefined): Promise<Admission> {
  const required = Math.max(1, Math.ceil(opts.required ?? 1));
  const ws = ctx.caller.workspace;
  const now = ctx.clock.now();
  await afterRequestRates(ctx, async () => {
    if (opts.feature === 'chat') assertPlanFeature(ctx, 'chat');
    else if (!subscriptionState(ws, now).active) throw errors.subscriptionInactive();
    await assertKeyBudget(ctx, required);
  });
  // A request admitted once holds once; asked again for more (a debate before its next turn), its hold grows.
  const admitted = ctx.scope.get<Admission>(ADMISSION);
  if (admitted) {
    carrier?.none();
    await admitted.extend(required);
    return admitted;
  }
  // Admissions to one workspace that arrive together are decided in one transaction (group commit); with
  // the request's deferred rates, counted in the same statement (`svc_rate_admit`), which the caller's own
  // statement carries when it offers to and no admission of the same group is being written.
  const pending = ctx.scope.get<PendingRates>(RATES);
  const rates = pending?.claim();
  let holding: Promise<string>;
  let told = false;
  if (rates) {
    const kernel = ctx.app;
    const carried =
      carrier &&
      (async (items: PendingRateAdmission[]) => {
        // Written later than the offer (never on today's paths): the caller's statement has gone, this one goes alone.
        if (told) return rateAdmitBatch(kernel, '', items);
        told = true;
        const statement = rateAdmitStatement(kernel, items);
        return statement.outcomes(await carrier.carry(statement));
      });
    holding = withSpan('pipeline.rate_limits', { 'svc.operation': pending?.route, 'svc.with_admission': true }, () =>
      ctx.app.usage.rateAdmissions.submitVia(
        rateAdmissionKey(ws, rates.minute, rates.rates),
        {
          workspace: ws,
          required,
          minute: rates.minute,
          rates: rates.rates,
          key: rates.keyCheck && { hash: rates.keyCheck.hash, fingerprint: rates.keyCheck.fingerprint },
        },
        carried,
      ),
    );
  } else {
    holding = ctx.app.usage.admissions.submit(ws.id, { workspace: ws, required });
  }
  // Not carried (the group's write was in flight, or no rates to count with it): the caller's statement goes alone.
  told = true;
  carrier?.none();
  const holdId = await holding;
  const admission = new Admission(ctx, holdId, required);
  ctx.scope.own(ADMISSION, admission, (a) => a.release());
  return admission;
}

/** Records a consumption through the request's admission, or without a hold when it has none. */
export async function recordConsumption(ctx: ServiceContext, entry: ConsumptionEntry): Promise<{ questions: number }> {
  const admission = ctx.scope.get<Admission>(ADMISSION);
  return admission ? admission.record(entry) : writeConsumption(ctx, entry, []);
}

/** Writes one pending consumption to the ledger, settling once committed. */
export type ConsumptionWriter = (pending: PendingConsumption) => Promise<RecordedConsumption>;

/**
 * Appends one consumption to the ledger with the admission's hold given back in the same transaction
 * (`recordBatch`, shared with the workspace's other answers recorded at that moment). When the key passes
 * 80% of its monthly ceiling, a notification is stored once per key and month, logged, and mailed to the key's owner.
 */
async function writeConsumption(ctx: ServiceContext, opts: ConsumptionEntry, holdIds: string[], via?: ConsumptionWriter): Promise<{ questions: number }> {
  const questions = questionsFor(opts.usage, opts.modelClass);
  const { workspace: ws, user, limits } = ctx.caller;
  const limit = limits.monthlyQuestions;
  const limited = limit !== null;
  // Answers of one workspace recorded together share one transaction (group commit).
  const pending: PendingConsumption = {
    workspace: ws,
    // The ledger's key column names who is metered: the key, or `person:`, `widget:`, `flow:` (src/core/principal.ts).
    keyId: limits.meter,
    userId: user.id,
    limited,
    holdIds,
    entry: opts,
    questions,
  };
  const { keyTotal, at } = await (via ? via(pending) : ctx.app.usage.ledger.submit(ws.id, pending));
  metrics.questionsConsumed(opts.modelClass, questions);
  if (keyTotal === undefined || !limited) return { questions };
  ctx.app.usage.keyBudgets.set(limits.meter, monthOf(at), keyTotal, at.getTime());
  if (keyTotal >= limit * KEY_NOTICE_RATIO) {
    await notifyKeyBudget(ctx, { keyId: limits.meter, used: keyTotal, limit, now: at });
  }
  return { questions };
}

/** One admission waiting for its workspace's next admission transaction. */
export interface PendingAdmission {
  workspace: Workspace;
  required: number;
}

/**
 * Decides the admissions of one workspace that arrived together, in arrival order, in one statement
 * (`svc_admit`, Migration20261123120100; a named prepared statement, as `svc_rate_admit` below: parsed once per
 * pooled connection and sent on the pool directly, not through the ORM's query layer) serialised per workspace by the workspace row lock, so across
 * processes too: expired holds are dropped, the balance and the live holds read once, and each admission
 * takes its questions while enough are left (a hold each), or gets its own 402 QUESTION_LIMIT.
 */
export async function admitBatch(kernel: Kernel, workspaceId: string, items: PendingAdmission[]): Promise<Outcome<string>[]> {
  const now = kernel.clock.now();
  const ws = items[0].workspace;
  const window = allowanceWindow(ws, now);
  const ids = items.map(() => newId('hold'));
  const [row] = await preparedSql<{ available: unknown }>(
    kernel.orm.em,
    'select svc_admit($1, $2, $3, $4, $5, $6::int[], $7::text[], $8) as available',
    [workspaceId, now, window.start, window.end, planTerms(ws).questions, pgArrayLiteral(items.map((i) => i.required)), pgArrayLiteral(ids), new Date(now.getTime() + HOLD_TTL_MS)],
  );
  const available = pgArray(row?.available).map(Number);
  return items.map((item, i) => (available[i] >= item.required ? ids[i] : errors.questionLimit(item.required, available[i])));
}

/** One admission whose request's rates are counted in the same statement (`svc_rate_admit`). */
export interface PendingRateAdmission extends PendingAdmission {
  minute: number;
  rates: RequestRate[];
  /** The key of a caller made from memory, confirmed by the statement before anything is counted (`KeyCheck`). */
  key?: { hash: string; fingerprint: string };
}

/**
 * Admissions share a statement when they share a workspace and what its allowance is computed from (a caller
 * made from memory may carry an older plan: it is not admitted under another's terms, nor another under its),
 * a minute, and their rate buckets and limits.
 */
const rateAdmissionKey = (ws: Workspace, minute: number, rates: RequestRate[]): string =>
  [ws.id, ws.plan, ws.seats, ws.subscriptionStartedAt.getTime(), minute, ...rates.flatMap((r) => [r.bucket, r.limit])].join('\u0000');

/**
 * `admitBatch` with the requests' rates counted first in the same statement (`svc_rate_admit`,
 * Migration20261127053000 and Migration20261127080000): the keys of callers made from memory are confirmed
 * first, and a request whose key changed counts nothing and gets `StaleCaller` (the adapter starts it again
 * with a lookup); then each bucket in order lets through as many of the others as fit (the first ones, in
 * arrival order), a request refused by a bucket gets that bucket's 429 and gives back what the buckets
 * before it counted; the rest are admitted as by `svc_admit`. The items share their buckets and limits and
 * their workspace's terms (the group commit's key).
 */
export async function rateAdmitBatch(kernel: Kernel, _key: string, items: PendingRateAdmission[]): Promise<Outcome<string>[]> {
  const statement = rateAdmitStatement(kernel, items);
  const [row] = await preparedSql<{ outcome: unknown }>(kernel.orm.em, `${statement.select} as outcome`, statement.params);
  return statement.outcomes(row?.outcome);
}

/**
 * `rateAdmitBatch`'s statement (`select svc_rate_admit(…)`, its own parameters `$1…`), for a caller that sends it
 * inside a statement of its own (`AdmissionCarrier`); `outcomes` reads the value it returned.
 */
export function rateAdmitStatement(
  kernel: Kernel,
  items: PendingRateAdmission[],
): { select: string; params: unknown[]; outcomes: (value: unknown) => Outcome<string>[] } {
  const now = kernel.clock.now();
  const { workspace: ws, minute, rates } = items[0];
  const window = allowanceWindow(ws, now);
  const ids = items.map(() => newId('hold'));
  return {
    select: 'select svc_rate_admit($1::text[], $2, $3::int[], $4, $5, $6, $7, $8, $9::int[], $10::text[], $11, $12::text[], $13::text[])',
    params: [
      pgArrayLiteral(rates.map((r) => r.bucket)),
      minute,
      pgArrayLiteral(rates.map((r) => r.limit)),
      ws.id,
      now,
      window.start,
      window.end,
      planTerms(ws).questions,
      pgArrayLiteral(items.map((i) => i.required)),
      pgArrayLiteral(ids),
      new Date(now.getTime() + HOLD_TTL_MS),
      pgArrayLiteral(items.map((i) => i.key?.hash ?? null)),
      pgArrayLiteral(items.map((i) => i.key?.fingerprint ?? null)),
    ],
    outcomes: unnamed((value: unknown) => {
      const outcome = pgArray(value);
      return items.map((item, i) => {
        if (outcome[i] === null || outcome[i] === 'NULL') return new StaleCaller();
        const available = Number(outcome[i] ?? 0);
        if (available < 0) return rates[-available - 1].refusal();
        return available >= item.required ? ids[i] : errors.questionLimit(item.required, available);
      });
    }),
  };
}

/** A PostgreSQL array as the driver returns it: an array (pg), or its text form `{1,2}` (some drivers). */
function pgArray(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.replace(/^\{|\}$/g, '').split(',').filter((x) => x !== '');
  return [];
}

/** One answer waiting for its workspace's next ledger transaction. */
export interface PendingConsumption {
  workspace: Workspace;
  keyId: string;
  userId: string;
  /** The key has a monthly ceiling: its month total is read back. */
  limited: boolean;
  /** The admission's holds, given back in the same statement. */
  holdIds: string[];
  entry: ConsumptionEntry;
  questions: number;
}

/**
 * Appends the answers of one workspace that arrived together to the ledger in one statement
 * (`svc_record`, Migration20261123120100), giving back their holds in it: the monthly allowance is used
 * before packs, answer after answer in arrival order. Serialised per workspace (row lock) so the split is
 * exact across processes. Questions already answered are always recorded, even past the allowance when an
 * answer cost more than its hold. Returns, for answers through a key with a ceiling, the key's month total
 * after the batch.
 */
export async function recordBatch(
  kernel: Kernel,
  workspaceId: string,
  items: PendingConsumption[],
): Promise<Outcome<{ keyTotal?: number; at: Date }>[]> {
  const record = recordStatement(kernel, workspaceId, items);
  const em = kernel.orm.em.fork();
  await sql(em, record.select, record.params);
  return record.outcomes(em);
}

/** The consumptions already recorded: the ledger's time and, for a key with a ceiling, its month total. */
export type RecordedConsumption = { keyTotal?: number; at: Date };

/**
 * `recordBatch`'s statement (`select svc_record(…)`, its own parameters `$1…`), for a writer that sends it
 * with another write in one statement (the gateway's answer and its certificate); the same statement may be
 * sent again after a rollback (its ids are unused then). `outcomes` runs once it has committed.
 */
export function recordStatement(
  kernel: Kernel,
  workspaceId: string,
  items: PendingConsumption[],
): { select: string; params: unknown[]; outcomes: (em: Em) => Promise<RecordedConsumption[]> } {
  const now = kernel.clock.now();
  const ws = items[0].workspace;
  const window = allowanceWindow(ws, now);
  const tokens = unnamed((n: number) => Math.max(0, Math.round(n || 0)));
  return {
    select: `select svc_record($1, $2, $3, $4, $5, $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
                       $13::int[], $14::int[], $15::int[], $16::int[])`,
    params: [
      workspaceId,
      now,
      window.start,
      window.end,
      planTerms(ws).questions,
      pgArrayLiteral(items.flatMap((i) => i.holdIds)),
      pgArrayLiteral(items.map(() => newId('use'))),
      pgArrayLiteral(items.map((i) => i.keyId)),
      pgArrayLiteral(items.map((i) => i.userId)),
      pgArrayLiteral(items.map((i) => i.entry.route)),
      pgArrayLiteral(items.map((i) => i.entry.modelClass)),
      pgArrayLiteral(items.map((i) => i.entry.model ?? null)),
      pgArrayLiteral(items.map((i) => tokens(i.entry.usage.promptTokens))),
      pgArrayLiteral(items.map((i) => tokens(i.entry.usage.completionTokens))),
      pgArrayLiteral(items.map((i) => tokens(i.entry.usage.totalTokens))),
      pgArrayLiteral(items.map((i) => i.questions)),
    ],
    outcomes: unnamed(async (em: Em) => {
      // The key's month total only serves its ceiling: keys without one skip the sum.
      const limitedKeys = [...new Set(items.filter((i) => i.limited).map((i) => i.keyId))];
      const totals = limitedKeys.length > 0 ? await questionsByKeyIds(em, workspaceId, limitedKeys, calendarMonth(now)) : new Map<string, number>();
      return items.map((item) => ({ keyTotal: item.limited ? (totals.get(item.keyId) ?? 0) : undefined, at: now }));
    }),
  };
}

/** Stores the 80% notification unless this key already has one this month; logs it when new. */
async function notifyKeyBudget(ctx: ServiceContext, n: { keyId: string; used: number; limit: number; now: Date }): Promise<void> {
  const month = monthOf(n.now);
  const message = `API key ${n.keyId} used ${n.used} of its ${n.limit} monthly questions (${month})`;
  const inserted = await ctx.em.execute<{ id: string }[]>(
    `insert into key_notification (id, workspace_id, key_id, month, kind, used, ceiling, message, created_at)
     values (?, ?, ?, ?, 'budget_80', ?, ?, ?, ?)
     on conflict (key_id, month, kind) do nothing returning id`,
    [newId('ntf'), ctx.caller.workspace.id, n.keyId, month, n.used, n.limit, message, n.now],
  );
  if (inserted.length > 0) {
    ctx.log.warn({ workspaceId: ctx.caller.workspace.id, keyId: n.keyId, month, used: n.used, limit: n.limit }, message);
    mailKeyBudget(ctx, { ...n, month, message });
  }
}

/**
 * The 80% notification by mail as well, to the key's owner when that user has an e-mail (a person, or a
 * client's invited manager: docs/partner.md). Sent after the answer is recorded, never awaited by it; a
 * failure is logged (the stored notification stays readable).
 */
function mailKeyBudget(ctx: ServiceContext, n: { keyId: string; used: number; limit: number; month: string; message: string }): void {
  const { caller } = ctx;
  const to = caller.user.email;
  if (!to || caller.kind !== 'key') return;
  const name = caller.key.name ? `"${caller.key.name}" (${n.keyId})` : n.keyId;
  ctx.app.mailer
    .send({
      to,
      subject: `API key ${caller.key.preview} has used ${Math.floor((n.used * 100) / n.limit)}% of its monthly questions`,
      text: [
        `The API key ${name} of the workspace "${ctx.caller.workspace.name}" has used ${n.used} of its ${n.limit} questions for ${n.month} (UTC).`,
        'Past its limit, calls that consume questions are refused (402 API_KEY_BUDGET_EXCEEDED) until next month or until the limit is raised',
        '(PATCH /developer/api-keys/:id with a higher monthlyQuestionLimit).',
        '',
      ].join('\n'),
    })
    .catch((err: unknown) => ctx.log.error({ err: err instanceof Error ? err.message : String(err), keyId: n.keyId }, 'key budget mail could not be sent'));
}
