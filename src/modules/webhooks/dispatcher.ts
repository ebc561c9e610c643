import { randomBytes } from 'node:crypto';
import type { Deps } from '../../core/deps.js';
import { metrics } from '../../lib/metrics.js';
import { withSpan } from '../../lib/tracing.js';
import { OutboundRequestError, safeFetch } from '../../net/index.js';
import {
  DELIVERY_LOG_LENGTH,
  IMMEDIATE_ATTEMPTS,
  LEASE_MS,
  LEASE_RENEW_MS,
  RESPONSE_BODY_MAX_BYTES,
  nextAttemptAfterFailure,
} from './schedule.js';
import { deliveryHeaders } from './signing.js';

/** A delivery reserved by this process for one attempt, with what is needed to send it. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  event: string;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  url: string;
  secret: string;
  leaseToken: string;
  /** The request that caused the delivery, sent as `X-Request-Id`; null when none did. */
  requestId: string | null;
}

export interface AttemptResult {
  success: boolean;
  /** Null when no response came (refused address, timeout, connection error). */
  statusCode: number | null;
  nextAttemptAt: Date | null;
}

/** Automatic attempts follow the schedule; test and replay attempts never schedule another. */
export type AttemptKind = 'automatic' | 'single';

/** Attempts 1 to 3 belong to the worker, attempts 4 to 7 to the minute sweep. */
export type Stage = 'immediate' | 'sweep';

type Row = Record<string, unknown>;

const newLeaseToken = () => randomBytes(12).toString('hex');
const iso = (d: Date) => d.toISOString();

const toClaimed = (row: Row, leaseToken: string): ClaimedDelivery => ({
  id: String(row.id),
  endpointId: String(row.endpoint_id),
  event: String(row.event),
  body: String(row.body),
  attempts: Number(row.attempts),
  url: String(row.url),
  secret: String(row.secret),
  leaseToken,
  requestId: row.request_id == null ? null : String(row.request_id),
});

const execute = (app: Deps, sql: string, params: unknown[]) => app.orm.em.fork().execute<Row[]>(sql, params);

/**
 * Reserves up to `limit` attempts of active endpoints due at `now` in one statement. `FOR UPDATE SKIP
 * LOCKED` keeps two processes from picking the same row, and the lease keeps it reserved after the
 * statement: another process only takes it over once the lease has run out (the claimer died mid-attempt).
 * The lease runs from the moment of the claim, not from `now`: a sweep working through a long backlog keeps
 * the `now` it started with, and a lease counted from it could already have run out.
 * The due rows are read in the index's order (webhook_delivery_due_order_idx), and the claimed ones updated
 * through their primary key (`= any(array(...))`), so a claim costs the rows it takes, not the backlog.
 */
export async function claimDue(app: Deps, now: Date, stage: Stage, limit: number): Promise<ClaimedDelivery[]> {
  const leaseToken = newLeaseToken();
  const leaseUntil = new Date(Math.max(now.getTime(), app.clock.now().getTime()) + LEASE_MS);
  const stageCondition = stage === 'immediate' ? 'd2.attempts < ?' : 'd2.attempts >= ?';
  const rows = await execute(
    app,
    `update webhook_delivery d
        set lease_until = ?, lease_token = ?
       from webhook_endpoint e
      where e.id = d.endpoint_id
        and d.id = any(array(
          select d2.id
            from webhook_delivery d2
            join webhook_endpoint e2 on e2.id = d2.endpoint_id
           where d2.next_attempt_at <= ?
             and (d2.lease_until is null or d2.lease_until <= ?)
             and e2.is_active
             and ${stageCondition}
           order by d2.next_attempt_at, d2.id
           limit ?
             for update of d2 skip locked))
  returning d.id, d.endpoint_id, d.event, d.body, d.attempts, d.request_id, e.url, e.secret, d.next_attempt_at`,
    [iso(leaseUntil), leaseToken, iso(now), iso(now), IMMEDIATE_ATTEMPTS, limit],
  );
  // RETURNING follows the update's plan, not the claim's order: the attempts start oldest due first.
  const dueAt = (row: Row) => new Date(row.next_attempt_at as string | Date).getTime();
  rows.sort((a, b) => dueAt(a) - dueAt(b) || (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0));
  return rows.map((row) => toClaimed(row, leaseToken));
}

/**
 * Reserves one delivery for a replay, whatever its state, and cancels its pending automatic retry.
 * An automatic attempt already in flight loses its lease, so its outcome is not recorded over the replay's.
 */
export async function claimForReplay(app: Deps, endpointId: string, deliveryId: string, now: Date): Promise<ClaimedDelivery | null> {
  const leaseToken = newLeaseToken();
  const rows = await execute(
    app,
    `update webhook_delivery d
        set lease_until = ?, lease_token = ?, next_attempt_at = null
       from webhook_endpoint e
      where e.id = d.endpoint_id and d.id = ? and d.endpoint_id = ?
  returning d.id, d.endpoint_id, d.event, d.body, d.attempts, d.request_id, e.url, e.secret`,
    [iso(new Date(now.getTime() + LEASE_MS)), leaseToken, deliveryId, endpointId],
  );
  return rows[0] ? toClaimed(rows[0], leaseToken) : null;
}

/** PostgreSQL text cannot hold NUL; the rest of a (possibly binary) answer is kept as decoded. */
const storable = (text: string) => text.replaceAll('\u0000', '');

/**
 * Sends one attempt through the SSRF-safe client (the URL is checked again against the addresses its
 * name resolves to now, and the connection goes to the checked address), then records the outcome.
 * The caller trims the endpoint's log afterwards (`trimSoon`).
 * `signal` is the process shutting down: the attempt is then released, not counted, and another process
 * (or the next start) makes it. With tracing on, the attempt is a `webhook.attempt` span (a trace of its
 * own from the worker, the request's child for a test or replay) and the delivery carries its `traceparent`.
 */
export function attemptDelivery(app: Deps, d: ClaimedDelivery, kind: AttemptKind, signal?: AbortSignal): Promise<AttemptResult> {
  const attrs = {
    'svc.webhook.delivery_id': d.id,
    'svc.webhook.endpoint_id': d.endpointId,
    'svc.webhook.event': d.event,
    'svc.webhook.attempt': d.attempts + 1,
    'svc.webhook.kind': kind,
    'svc.request_id': d.requestId,
  };
  return withSpan('webhook.attempt', attrs, async (span) => {
    const result = await sendAttempt(app, d, kind, signal);
    span.set({ 'http.response.status_code': result.statusCode, 'svc.webhook.success': result.success });
    return result;
  });
}

async function sendAttempt(app: Deps, d: ClaimedDelivery, kind: AttemptKind, signal?: AbortSignal): Promise<AttemptResult> {
  const sentAt = app.clock.now();
  let statusCode: number | null = null;
  let responseBody = '';
  let failureReason: string | null = null;
  try {
    const res = await safeFetch(d.url, {
      method: 'POST',
      headers: deliveryHeaders({ deliveryId: d.id, event: d.event, body: d.body, secret: d.secret, at: sentAt, requestId: d.requestId }),
      body: d.body,
      timeoutMs: app.config.webhookTimeoutMs,
      maxResponseBytes: RESPONSE_BODY_MAX_BYTES,
      deployment: app.config.deployment,
      resolve: app.resolve,
      signal,
      pools: app.webhooks.pools,
    });
    statusCode = res.status;
    responseBody = storable(res.body);
  } catch (err) {
    if (signal?.aborted) {
      await release(app, d);
      return { success: false, statusCode: null, nextAttemptAt: null };
    }
    if (err instanceof OutboundRequestError) {
      failureReason = err.kind === 'refused' ? `refused: ${err.message}` : err.message;
    } else {
      app.log.error({ err, deliveryId: d.id, requestId: d.requestId }, 'webhook attempt failed unexpectedly');
      failureReason = 'internal error while sending';
    }
  }
  const success = statusCode !== null && statusCode >= 200 && statusCode < 300;
  metrics.webhookAttempt(success ? 'delivered' : statusCode !== null ? 'rejected' : 'unreachable', kind);
  if (!success && statusCode !== null) failureReason = `receiver answered ${statusCode}`;
  const finishedAt = app.clock.now();
  const attempts = d.attempts + 1;
  const nextAttemptAt = success || kind === 'single' ? null : nextAttemptAfterFailure(attempts, finishedAt);
  await app.webhooks.outcomes.record(app, {
    id: d.id,
    token: d.leaseToken,
    status_code: statusCode,
    response_body: responseBody,
    failure_reason: failureReason,
    success,
    delivered_at: iso(finishedAt),
    next_attempt_at: nextAttemptAt ? iso(nextAttemptAt) : null,
  });
  app.log.debug(
    { deliveryId: d.id, event: d.event, attempt: attempts, statusCode, success, failureReason, ...(d.requestId ? { requestId: d.requestId } : {}) },
    'webhook attempt',
  );
  return { success, statusCode, nextAttemptAt };
}

/** The outcome of one attempt, as written to its row (only while the row still carries the claimer's token). */
export interface Outcome {
  id: string;
  token: string;
  status_code: number | null;
  response_body: string;
  failure_reason: string | null;
  success: boolean;
  /** ISO timestamps. */
  delivered_at: string;
  next_attempt_at: string | null;
}

/** Outcomes written by one statement at most (a statement's text holds them as one JSON literal). */
export const OUTCOME_BATCH_MAX = 500;

/**
 * Writes the outcomes of many attempts with one statement (one commit). Rows are locked in id order first,
 * like the lease renewal, so that concurrent multi-row statements cannot deadlock; an outcome whose row
 * no longer carries its token (lease taken over, replay) is not written.
 */
export async function writeOutcomes(app: Deps, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await execute(
    app,
    `update webhook_delivery d
        set attempts = d.attempts + 1, status_code = v.status_code, response_body = v.response_body,
            failure_reason = v.failure_reason, success = v.success, delivered_at = v.delivered_at,
            next_attempt_at = v.next_attempt_at, lease_until = null, lease_token = null
       from json_to_recordset(?::json) as v(id text, token text, status_code integer, response_body text,
              failure_reason text, success boolean, delivered_at timestamptz, next_attempt_at timestamptz)
      where d.id = any(array(
              select l.id from webhook_delivery l
               where l.id = any(array(select json_array_elements_text(?::json)))
               order by l.id for update))
        and d.id = v.id and d.lease_token = v.token`,
    [JSON.stringify(outcomes), JSON.stringify(outcomes.map((o) => o.id))],
  );
}

/**
 * Group commit of attempt outcomes, one per process: the first outcome is written at once; those that
 * finish while a write is running wait for it and go together in the next statement (at most
 * `OUTCOME_BATCH_MAX` each). `record` resolves once the outcome is committed, so an attempt is only
 * reported done (and its log trimmed) after its row says so.
 */
export class OutcomeWriter {
  #pending: { outcome: Outcome; resolve: () => void; reject: (err: unknown) => void }[] = [];
  #writing = false;

  record(app: Deps, outcome: Outcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ outcome, resolve, reject });
      if (!this.#writing) void this.#drain(app);
    });
  }

  async #drain(app: Deps): Promise<void> {
    this.#writing = true;
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, OUTCOME_BATCH_MAX);
        try {
          await writeOutcomes(app, batch.map((b) => b.outcome));
          for (const b of batch) b.resolve();
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.#writing = false;
    }
  }
}

/** Gives a claimed attempt back untouched (shutdown): due again at once for whoever runs next. */
async function release(app: Deps, d: ClaimedDelivery): Promise<void> {
  await execute(app, `update webhook_delivery set lease_until = null, lease_token = null where id = ? and lease_token = ?`, [
    d.id,
    d.leaseToken,
  ]).catch((err: unknown) => app.log.warn({ err, deliveryId: d.id }, 'could not release webhook attempt'));
}

/**
 * The heartbeat of attempts in flight: every `LEASE_RENEW_MS` their leases are pushed `LEASE_MS` ahead,
 * so a lease only runs out when this process is gone. Returns the stop function.
 */
export function renewLeases(app: Deps, inFlight: () => Iterable<ClaimedDelivery>): () => void {
  const timer = setInterval(() => {
    // One token per claim statement: the rows still holding a token are exactly the attempts in flight.
    const tokens = [...new Set([...inFlight()].map((c) => c.leaseToken))];
    if (tokens.length === 0) return;
    const until = iso(new Date(app.clock.now().getTime() + LEASE_MS));
    // Rows locked in id order, like the outcome writes (`writeOutcomes`): two multi-row statements never deadlock.
    void execute(
      app,
      `update webhook_delivery set lease_until = ?
        where id = any(array(select id from webhook_delivery where lease_token in (${tokens.map(() => '?').join(', ')}) order by id for update))`,
      [until, ...tokens],
    ).catch((err: unknown) => app.log.warn({ err }, 'webhook lease renewal failed'));
  }, LEASE_RENEW_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Endpoints trimmed by one statement at most. */
const TRIM_BATCH_MAX = 500;
/** Rows deleted per endpoint by one statement at most. */
const TRIM_ROWS_MAX = 1000;

/**
 * Keeps the latest 50 deliveries of each endpoint, for many endpoints in one statement. Older ones are
 * removed once finished; one still waiting for a retry stays until its schedule ends, so the cap never
 * loses a pending delivery. Returns the endpoints that may have more to trim.
 */
export async function trimLogs(app: Deps, endpointIds: string[]): Promise<string[]> {
  if (endpointIds.length === 0) return [];
  // Per endpoint: its 50th newest row (the log's order: created_at, then id, newest first), then the
  // finished rows after it, read from the index of finished rows only (webhook_delivery_finished_idx), at
  // most TRIM_ROWS_MAX per endpoint and statement (the ordered limit is also what makes the planner use
  // that index); an endpoint that had that many is trimmed again.
  const rows = await execute(
    app,
    `delete from webhook_delivery d
      where d.id = any(array(
              select f.id
                from json_array_elements_text(?::json) as e(endpoint_id)
                cross join lateral (
                  select created_at, id from webhook_delivery where endpoint_id = e.endpoint_id
                   order by created_at desc, id desc offset ? limit 1) last
                cross join lateral (
                  select f.id from webhook_delivery f
                   where f.endpoint_id = e.endpoint_id and (f.created_at, f.id) < (last.created_at, last.id)
                     and f.next_attempt_at is null and f.lease_until is null
                   order by f.created_at desc, f.id desc limit ?) f))
        and d.next_attempt_at is null and d.lease_until is null
  returning d.endpoint_id`,
    [JSON.stringify(endpointIds), DELIVERY_LOG_LENGTH - 1, TRIM_ROWS_MAX],
  );
  const deleted = new Map<string, number>();
  for (const row of rows) deleted.set(String(row.endpoint_id), (deleted.get(String(row.endpoint_id)) ?? 0) + 1);
  return [...deleted].filter(([, n]) => n >= TRIM_ROWS_MAX).map(([id]) => id);
}

/**
 * The log trims of this process: one statement at a time, for every endpoint asked for since the last one
 * started (attempts finishing together share it), instead of one statement per attempt or per endpoint.
 */
export class LogTrimmer {
  #pending = new Map<string, { resolve: () => void; reject: (err: unknown) => void }[]>();
  #running = false;

  trim(app: Deps, endpointId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.#pending.get(endpointId);
      if (waiting) waiting.push({ resolve, reject });
      else this.#pending.set(endpointId, [{ resolve, reject }]);
      if (!this.#running) void this.#drain(app);
    });
  }

  async #drain(app: Deps): Promise<void> {
    this.#running = true;
    try {
      while (this.#pending.size > 0) {
        const batch = [...this.#pending].slice(0, TRIM_BATCH_MAX);
        for (const [id] of batch) this.#pending.delete(id);
        try {
          let ids = batch.map(([id]) => id);
          while (ids.length > 0) ids = await trimLogs(app, ids);
          for (const [, waiters] of batch) for (const w of waiters) w.resolve();
        } catch (err) {
          for (const [, waiters] of batch) for (const w of waiters) w.reject(err);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}

/** Trims the endpoint's log soon, together with the other trims asked for meanwhile in this process. */
export function trimSoon(app: Deps, endpointId: string): Promise<void> {
  return app.webhooks.trims.trim(app, endpointId);
}

export interface RunSummary {
  attempted: number;
  succeeded: number;
}

const BATCH = 100;

async function runStage(app: Deps, now: Date, stage: Stage, signal?: AbortSignal): Promise<RunSummary> {
  const summary: RunSummary = { attempted: 0, succeeded: 0 };
  // Each pass moves every claimed delivery forward (or ends it), so the loop ends. A draining process
  // claims no new batch; the one in hand finishes (or is released when `signal` aborts).
  while (!signal?.aborted && !app.shutdown.draining) {
    const claimed = await claimDue(app, now, stage, BATCH);
    if (claimed.length === 0) break;
    const stopRenewing = renewLeases(app, () => claimed);
    const results = await Promise.all(claimed.map((d) => attemptDelivery(app, d, 'automatic', signal))).finally(stopRenewing);
    await Promise.all([...new Set(claimed.map((d) => d.endpointId))].map((id) => trimSoon(app, id)));
    summary.attempted += results.length;
    summary.succeeded += results.filter((r) => r.success).length;
  }
  return summary;
}

/** Makes every due attempt 1 to 3 (first attempt and the 1 s / 5 s retries) and waits for them. */
export function runDueDeliveries(app: Deps, now: Date, opts: { signal?: AbortSignal } = {}): Promise<RunSummary> {
  return runStage(app, now, 'immediate', opts.signal);
}

/** The minute sweep: every due retry at 5 min, 30 min, 2 h and 12 h, for active endpoints only. */
export function runRetrySweep(app: Deps, now: Date, opts: { signal?: AbortSignal } = {}): Promise<RunSummary> {
  return runStage(app, now, 'sweep', opts.signal);
}
