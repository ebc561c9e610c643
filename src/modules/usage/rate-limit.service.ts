import type { Deps, Kernel } from '../../core/deps.js';
import type { AppConfig } from '../../config.js';
import type { Principal } from '../../core/principal.js';
import { sql } from '../../db/sql.js';
import { errors } from '../../errors/index.js';
import { calendarMinute } from './periods.js';

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

/**
 * Every request limit of one operation (a REST request, a GraphQL root field, an MCP message, a widget
 * visitor's request, a flow's agent step, a public route), after authentication and before anything
 * runs: the rates that fit the caller (`limits.rates`, src/core/principal.ts: a key's `ratePerMinute`,
 * a widget visitor's per-address rate, a flow's own rate; 429 rate_limited, retry-after 1 to 60), then
 * the route-level ceiling of `config.routeRates` counted in the bucket of `route` (`METHOD /path`; a
 * GraphQL field twinned to a REST route names that route, so both APIs share one count). A request
 * refused by a later limit gives back what the earlier ones counted, so a refused request consumes nothing.
 */
export async function enforceRequestRates(
  app: Deps,
  caller: Principal,
  opts: { route: string; rateLimit?: RouteRateName },
): Promise<void> {
  const at = calendarMinute(app.clock.now());
  const taken: string[] = [];
  const refuse = async (error: Error): Promise<never> => {
    await Promise.all(taken.map((bucket) => giveBack(app, bucket, at.minute)));
    throw error;
  };
  for (const rate of caller.limits.rates) {
    if (!(await take(app, rate.bucket, at.minute, rate.perMinute))) await refuse(errors.rateLimited(at.secondsLeft));
    taken.push(rate.bucket);
  }
  if (!opts.rateLimit) return;
  const ceiling = app.config.routeRates[opts.rateLimit];
  if (await take(app, routeBucket(caller, opts.rateLimit, opts.route), at.minute, ceiling)) return;
  // SPEC gives the route ceiling a body of its own; retry-after is added for clients (not relied upon).
  await refuse(errors.routeRateLimited(opts.route, ceiling, at.secondsLeft));
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
