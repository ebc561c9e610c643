import type { Pool } from 'pg';
import type { Deps } from '../core/deps.js';
import { startProcessMetrics } from '../lib/metrics.js';
import { ACTIVE_RUN_STATES, flowBacklog } from '../modules/flows/index.js';
import { ingestionBacklog } from '../modules/knowledge/index.js';
import { webhookBacklog } from '../modules/webhooks/index.js';

/**
 * A scrape's database reads are shared by the gauges they feed: prom-client starts every gauge's `collect`
 * in one synchronous loop, so the read made by the first one is reused by the others until that loop has
 * ended (the next turn of the event loop); the next scrape reads again.
 */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      pending = read();
      setImmediate(() => (pending = undefined));
    }
    return pending;
  };
}

/**
 * The gauges read at scrape time (docs/operations.md, "Metrics"): the modules' backlogs (cheap counts over
 * partial indexes, never per request) and the connection pool. In several server processes each one
 * reads the same database: those gauges aggregate by `max`, the pool's (one per process) by sum. A read
 * that fails leaves the gauge's last value and logs a warning; the scrape still answers.
 */
export function registerScrapeGauges(app: Deps): void {
  startProcessMetrics();
  const { metrics, log } = app;
  const guarded =
    <T>(read: () => Promise<T>, what: string) =>
    async (apply: (value: T) => void) => {
      try {
        apply(await read());
      } catch (err) {
        log.warn({ err, what }, 'metrics: a scrape-time read failed');
      }
    };

  const webhooks = guarded(sharedRead(() => webhookBacklog(app)), 'webhook backlog');
  const ageOf = (at: Date | null) => (at ? Math.max(0, (app.clock.now().getTime() - at.getTime()) / 1000) : 0);
  metrics.gauge({ name: 'svc_webhook_deliveries_waiting', help: 'Webhook deliveries waiting for an attempt (first or retry)', aggregator: 'max' }, (g) =>
    webhooks((b) => g.set(b.waiting)),
  );
  metrics.gauge(
    {
      name: 'svc_webhook_oldest_waiting_age_seconds',
      help: 'Age of the oldest webhook delivery waiting for an attempt, in seconds (0 when none waits)',
      aggregator: 'max',
    },
    (g) => webhooks((b) => g.set(ageOf(b.oldestCreatedAt))),
  );

  const flows = guarded(sharedRead(() => flowBacklog(app)), 'flow backlog');
  metrics.gauge({ name: 'svc_flow_runs', help: 'Flow runs not over, by state', labelNames: ['state'] as const, aggregator: 'max' }, (g) =>
    flows((b) => {
      for (const state of ACTIVE_RUN_STATES) g.set({ state }, b.runs[state]);
    }),
  );
  metrics.gauge({ name: 'svc_flow_approvals_waiting', help: 'Flow approvals waiting for a person (open or claimed)', aggregator: 'max' }, (g) =>
    flows((b) => g.set(b.approvalsWaiting)),
  );

  const ingestion = guarded(sharedRead(() => ingestionBacklog(app)), 'ingestion backlog');
  metrics.gauge(
    { name: 'svc_ingestion_jobs', help: 'Ingestion jobs not over, by state (queued, running)', labelNames: ['state'] as const, aggregator: 'max' },
    (g) =>
      ingestion((b) => {
        g.set({ state: 'queued' }, b.queued);
        g.set({ state: 'running' }, b.running);
      }),
  );
  metrics.gauge(
    { name: 'svc_ingestion_oldest_job_age_seconds', help: 'Age of the oldest ingestion job not over, in seconds (0 when none)', aggregator: 'max' },
    (g) => ingestion((b) => g.set(ageOf(b.oldestCreatedAt))),
  );

  // The embedded database is one session inside the process: no pool to report (the gauges stay 0).
  const pool = app.config.databaseUrl
    ? guarded(() => (app.orm.em.getConnection() as unknown as { getNativeClient(): Promise<Pool> }).getNativeClient(), 'database pool')
    : null;
  metrics.gauge({ name: 'svc_db_pool_in_use', help: 'Database connections checked out of the pool (PostgreSQL)' }, (g) =>
    pool?.((p) => g.set(p.totalCount - p.idleCount)),
  );
  metrics.gauge({ name: 'svc_db_pool_idle', help: 'Database connections open and idle in the pool (PostgreSQL)' }, (g) =>
    pool?.((p) => g.set(p.idleCount)),
  );
  metrics.gauge({ name: 'svc_db_pool_waiting', help: 'Queries waiting for a connection of the pool (PostgreSQL)' }, (g) =>
    pool?.((p) => g.set(p.waitingCount)),
  );
  metrics.gauge({ name: 'svc_db_pool_max', help: 'Size limit of the pool (SVC_DB_POOL_MAX; PostgreSQL)' }, (g) => {
    if (pool) g.set(app.config.dbPoolMax);
  });
  metrics.serveSupervisor();
}
