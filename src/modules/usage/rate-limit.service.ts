import type { Deps, Kernel } from '../../core/deps.js';
import type { AppConfig } from '../../config.js';
import type { Principal } from '../../core/principal.js';
import { pgArrayLiteral, preparedSql, sql } from '../../db/sql.js';
import type { Outcome } from '../../lib/group-commit.js';
import { StaleCaller } from '../../core/stale-caller.js';
import { errors } from '../../errors/index.js';
import { calendarMinute } from './periods.js';
import { withSpan } from '../../lib/tracing.js';
import { unnamed } from '../../lib/unnamed.js';

export type RouteRateName = keyof AppConfig['routeRates'];

/** One request to count in a bucket for a calendar minute, against `limit`. */
export interface RateTake {
  bucket: string;
  minute: number;
  limit: number;
}

/**
 * Counts a batch of requests to one bucket and minute in one upsert, unless the bucket already reached
 * `limit`: `count` grows by as many as fit (`least(count + n, limit)`, never down when the limit was
 * lowered), and `granted`, computed from the old count in the same SET, says how many fit. The count
 * lives in PostgreSQL, so every process on the database shares it exactly; a refused request does not
 * increase it. The first `granted` requests of the batch, in arrival order, pass.
 */
export async function takeBatch(kernel: Kernel, takes: RateTake[]): Promise<boolean[]> {
  const { bucket, minute, limit } = takes[0];
  const n = takes.length;
  const rows = await sql<{ granted: number }>(
    kernel.orm.em,
    // A count is committed without waiting for the WAL flush (this transaction only): a database crash may
    // forget the last counts of the minute, letting a few requests more through; nothing else depends on them.
    `insert into rate_counter as r (bucket, minute, count, granted)
     select $1, $2, least($3::int, $4::int), least($3::int, $4::int) from (select set_config('synchronous_commit', 'off', true)) as async_commit
     on conflict (bucket, minute) do update
        set count = greatest(r.count, least(r.count + $3::int, $4::int)),
            granted = greatest(r.count, least(r.count + $3::int, $4::int)) - r.count
     returning granted`,
    [bucket, minute, n, limit],
  );
  const granted = Math.max(0, Number(rows[0]?.granted ?? 0));
  return takes.map((_, i) => i < granted);
}

/** Counts one request (see `takeBatch`): requests to the same bucket that arrive together share one statement. */
function take(app: Deps, bucket: string, minute: number, limit: number): Promise<boolean> {
  return app.usage.rates.submit(`${bucket}\u0000${minute}\u0000${limit}`, { bucket, minute, limit });
}

async function giveBack(app: Deps, bucket: string, minute: number): Promise<void> {
  await app.orm.em
    .getConnection()
    .execute('update rate_counter set count = count - 1 where bucket = ? and minute = ? and count > 0', [bucket, minute]);
}

/**
 * Ceilings counted per caller (its meter: the key, the person, the widget, the flow, the address); the
 * others are counted per workspace. An anonymous caller has no workspace: every ceiling is its address's.
 */
const PER_CALLER = new Set<RouteRateName>(['agentChat', 'hookPerAddress', 'hookPerFlow', 'devicePairing']);

/**
 * The route-level bucket of a ceiling, each route apart (`route` is `METHOD /path`): per caller for the
 * agent chat routes and the public routes, per workspace for the other limited routes.
 */
export function routeBucket(caller: Principal, rateLimit: RouteRateName, route: string): string {
  return caller.kind === 'anonymous' || PER_CALLER.has(rateLimit)
    ? `route:${route}:key:${caller.limits.meter}`
    : `route:${route}:ws:${caller.workspace.id}`;
}

/** One rate a request is counted against: its bucket, its limit per minute, and the 429 it gets when refused. */
export interface RequestRate {
  bucket: string;
  limit: number;
  refusal: () => Error;
}

/** The rates of one operation, in the order they are counted: the caller's own, then the route's ceiling. */
function requestRatesOf(app: Deps, caller: Principal, opts: { route: string; rateLimit?: RouteRateName }, secondsLeft: number): RequestRate[] {
  const rates: RequestRate[] = caller.limits.rates.map((rate) => ({
    bucket: rate.bucket,
    limit: rate.perMinute,
    refusal: unnamed(() => errors.rateLimited(secondsLeft)),
  }));
  if (opts.rateLimit) {
    const ceiling = app.config.routeRates[opts.rateLimit];
    // SPEC gives the route ceiling a body of its own; retry-after is added for clients (not relied upon).
    rates.push({ bucket: routeBucket(caller, opts.rateLimit, opts.route), limit: ceiling, refusal: unnamed(() => errors.routeRateLimited(opts.route, ceiling, secondsLeft)) });
  }
  return rates;
}

/** Counts `rates` one after the other; the first that refuses gives back what the ones before it counted, and throws its 429. */
async function countRates(app: Deps, rates: RequestRate[], minute: number): Promise<void> {
  const taken: string[] = [];
  for (const rate of rates) {
    if (await take(app, rate.bucket, minute, rate.limit)) {
      taken.push(rate.bucket);
      continue;
    }
    await Promise.all(taken.map((bucket) => giveBack(app, bucket, minute)));
    throw rate.refusal();
  }
}

/**
 * Every request limit of one operation (a REST request, a GraphQL root field, an MCP message, a widget
 * visitor's request, a flow's agent step, a public route), after authentication and before anything
 * runs: the rates that fit the caller (`limits.rates`, src/core/principal.ts: a key's `ratePerMinute`,
 * a widget visitor's per-address rate, a flow's own rate; 429 rate_limited, retry-after 1 to 60), then
 * the route-level ceiling of `config.routeRates` counted in the bucket of `route` (`METHOD /path`; a
 * GraphQL field twinned to a REST route names that route, so both APIs share one count). A request
 * refused by a later limit gives back what the earlier ones counted, so a refused request consumes nothing.
 *
 * A caller made from memory (`keyCheck`) is confirmed before anything counts: in the same statement as its
 * rates (`svc_rate_take`: `StaleCaller` when its key changed, nothing counted), or by a lookup when it has no
 * rate to count. Several rates are counted in that one statement too, instead of one statement each.
 */
export async function enforceRequestRates(
  app: Deps,
  caller: Principal,
  opts: { route: string; rateLimit?: RouteRateName; keyCheck?: KeyCheck },
): Promise<void> {
  const at = calendarMinute(app.clock.now());
  const rates = requestRatesOf(app, caller, opts, at.secondsLeft);
  const { keyCheck } = opts;
  if (rates.length === 0) return keyCheck?.confirm();
  if (!keyCheck && rates.length === 1) return countRates(app, rates, at.minute);
  await app.usage.rateTakes.submit(rateTakeKey(at.minute, rates), { minute: at.minute, rates, key: keyCheck && { hash: keyCheck.hash, fingerprint: keyCheck.fingerprint } });
}

/** One request whose rates are counted in one statement (`svc_rate_take`), with its remembered key confirmed. */
export interface PendingRateTake {
  minute: number;
  rates: RequestRate[];
  /** The key of a caller made from memory, confirmed by the statement before anything is counted (`KeyCheck`). */
  key?: { hash: string; fingerprint: string };
}

/** Requests share a `svc_rate_take` statement when they share a minute and their rate buckets and limits. */
const rateTakeKey = (minute: number, rates: RequestRate[]): string => [minute, ...rates.flatMap((r) => [r.bucket, r.limit])].join('\u0000');

/**
 * Counts the rates of requests that arrived together in one statement (`svc_rate_take`, Migration20261128020000,
 * a named prepared statement): the remembered keys confirmed first (a request whose key changed counts nothing
 * and gets `StaleCaller`), then each bucket in order lets through as many as fit, in arrival order; a request
 * refused by a bucket gets that bucket's 429, and what the buckets before it counted is given back. The items
 * share their minute, buckets and limits (the group commit's key).
 */
export async function rateTakeBatch(kernel: Kernel, _key: string, items: PendingRateTake[]): Promise<Outcome<true>[]> {
  const { minute, rates } = items[0];
  const [row] = await preparedSql<{ outcome: unknown }>(
    kernel.orm.em,
    'select svc_rate_take($1::text[], $2, $3::int[], $4::text[], $5::text[]) as outcome',
    [
      pgArrayLiteral(rates.map((r) => r.bucket)),
      minute,
      pgArrayLiteral(rates.map((r) => r.limit)),
      pgArrayLiteral(items.map((i) => i.key?.hash ?? null)),
      pgArrayLiteral(items.map((i) => i.key?.fingerprint ?? null)),
    ],
  );
  const outcome = pgArrayOf(row?.outcome);
  return items.map((_, i) => {
    const value = outcome[i];
    if (value === null || value === undefined || value === 'NULL') return new StaleCaller();
    const refusedBy = Number(value);
    return refusedBy < 0 ? rates[-refusedBy - 1].refusal() : true;
  });
}

/** A PostgreSQL array as the driver returns it: an array (pg), or its text form `{1,2}` (some drivers). */
function pgArrayOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.replace(/^\{|\}$/g, '').split(',').filter((x) => x !== '');
  return [];
}

/**
 * A key caller made from the process's memory of its key's last lookup, without a statement (the keys
 * module's `remembered`), to be confirmed before anything is counted for it: by the statement that counts its
 * rates (`svc_rate_take`) or its admission's (`svc_rate_admit`), which check `hash` is still unrevoked at
 * `fingerprint`, or by `confirm` (a lookup) when it counts nothing, or before a refusal that comes first. Either throws `StaleCaller` (src/core/stale-caller.ts) when the key changed.
 */
export interface KeyCheck {
  hash: string;
  fingerprint: string;
  confirm(): Promise<void>;
}

/**
 * The rates of a request whose use case counts them in its admission's statement (`svc_rate_admit`,
 * `Needs.ratesWithAdmission`): decided at the pipeline's step 2, counted later, once, either by the
 * admission (`claim`) or alone (`settle`) when something refuses the request before it is admitted, so a
 * request past its rate still gets its 429 before any later refusal (403 scope, 400 body, 404, 402). A
 * caller made from memory (`keyCheck`) is confirmed first, so a changed key gets its 401 or 403 before them.
 */
export class PendingRates {
  private counted = false;

  constructor(
    private readonly app: Deps,
    /** The operation's bucket name (`METHOD /path`), for the `pipeline.rate_limits` span. */
    readonly route: string,
    /** The calendar minute the request arrived in (`calendarMinute`). */
    readonly minute: number,
    readonly rates: RequestRate[],
    readonly keyCheck?: KeyCheck,
  ) {}

  /**
   * Confirms a caller made from memory (`StaleCaller` when its key changed: nothing is counted), then counts
   * the rates now, as `enforceRequestRates` does (429 when one refuses); nothing when already counted.
   */
  async settle(): Promise<void> {
    if (this.counted) return;
    this.counted = true;
    await this.keyCheck?.confirm();
    await withSpan('pipeline.rate_limits', { 'svc.operation': this.route }, () => countRates(this.app, this.rates, this.minute));
  }

  /** Hands the rates (and the key to confirm) to the admission that counts them in its statement; undefined when already counted. */
  claim(): { minute: number; rates: RequestRate[]; keyCheck?: KeyCheck } | undefined {
    if (this.counted) return undefined;
    this.counted = true;
    return { minute: this.minute, rates: this.rates, keyCheck: this.keyCheck };
  }
}

/** The rates of `enforceRequestRates`, to be counted with the admission (`PendingRates`). */
export function pendingRequestRates(
  app: Deps,
  caller: Principal,
  opts: { route: string; rateLimit?: RouteRateName; keyCheck?: KeyCheck },
): PendingRates {
  const at = calendarMinute(app.clock.now());
  return new PendingRates(app, opts.route, at.minute, requestRatesOf(app, caller, opts, at.secondsLeft), opts.keyCheck);
}

/** Deletes counters of minutes that are over (the current and previous minute are kept). */
export async function sweepRateCounters(app: Deps): Promise<number> {
  const { minute } = calendarMinute(app.clock.now());
  const res = await app.orm.em.getConnection().execute<{ affectedRows?: number }>('delete from rate_counter where minute < ?', [minute - 1], 'run');
  return res.affectedRows ?? 0;
}

/** Sweeps old counters every minute while the app runs (only where background jobs are on). */
export function startRateCounterSweep(app: Deps): void {
  if (!app.config.backgroundJobs) return;
  const timer = setInterval(() => {
    sweepRateCounters(app).catch((err) => app.log.warn({ err }, 'rate counter sweep failed'));
  }, 60_000);
  timer.unref();
  app.onClose(() => clearInterval(timer));
}
