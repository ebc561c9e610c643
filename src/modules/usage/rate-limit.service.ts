import type { Deps, Kernel } from '../../core/deps.js';
import type { AppConfig } from '../../config.js';
import type { Caller } from '../../core/context.js';
import { sql } from '../../db/sql.js';
import { errors } from '../../errors/index.js';
import { calendarMinute } from './periods.js';

export type RouteRateName = keyof AppConfig['routeRates'];

declare module '../../core/context.js' {
  interface Caller {
    /**
     * A caller acting for anonymous visitors (an embedded widget, src/modules/widgets/widget-caller.ts)
     * limits each visitor apart: `perMinute` requests per calendar minute in `bucket` (one per visitor).
     */
    visitorRate?: { bucket: string; perMinute: number };
  }
}

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

const keyBucket = (caller: Caller) => `key:${caller.key.id}`;

/**
 * The route-level bucket: agent chat routes are counted per client (the calling key), the other
 * limited routes per workspace, each route apart (`route` is `METHOD /path`).
 */
export function routeBucket(caller: Caller, rateLimit: RouteRateName, route: string): string {
  return rateLimit === 'agentChat' ? `route:${route}:key:${caller.key.id}` : `route:${route}:ws:${caller.workspace.id}`;
}

/**
 * Every request limit of one operation (a REST request, a GraphQL root field), after authentication and
 * before anything runs: the key's `ratePerMinute` (429 rate_limited, retry-after 1 to 60), a visitor's
 * own rate for a caller acting for visitors (a widget's per-IP limit, the same 429), then the
 * route-level ceiling of `config.routeRates` counted in the bucket of `route` (`METHOD /path`; a GraphQL
 * field twinned to a REST route names that route, so both APIs share one count). A request refused by
 * the route ceiling gives its per-key count back, so a refused request consumes nothing.
 */
export async function enforceRequestRates(
  app: Deps,
  caller: Caller,
  opts: { route: string; rateLimit?: RouteRateName },
): Promise<void> {
  const at = calendarMinute(app.clock.now());
  const keyLimit = caller.key.ratePerMinute;
  const keyLimited = keyLimit !== null && keyLimit !== undefined;
  if (keyLimited && !(await take(app, keyBucket(caller), at.minute, keyLimit))) throw errors.rateLimited(at.secondsLeft);
  const visitor = caller.visitorRate;
  if (visitor && !(await take(app, visitor.bucket, at.minute, visitor.perMinute))) throw errors.rateLimited(at.secondsLeft);
  if (!opts.rateLimit) return;
  const ceiling = app.config.routeRates[opts.rateLimit];
  if (await take(app, routeBucket(caller, opts.rateLimit, opts.route), at.minute, ceiling)) return;
  if (keyLimited) await giveBack(app, keyBucket(caller), at.minute);
  // SPEC gives the route ceiling a body of its own; retry-after is added for clients (not relied upon).
  throw errors.routeRateLimited(opts.route, ceiling, at.secondsLeft);
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
