import type { Server } from 'node:http';
import type { Pool } from 'pg';
import type { RunningApp } from './create-app.js';

/** Share of the grace period given to in-flight requests, streams and workers before streams are ended. */
const DRAIN_SHARE = 0.8;
/** By then whatever still runs is cut (connections closed) so the database can close before the deadline. */
const CUT_SHARE = 0.9;

const after = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, Math.max(0, ms)).unref();
  });

/**
 * Graceful shutdown (docs/operations.md, Shutdown and deploys):
 *
 * 1. draining: stop accepting connections, `/health` answers 503, idle keep-alive connections close,
 *    workers claim nothing new and finish what they hold;
 * 2. at 80% of the grace period, if work remains: open streams end with the `server_restarting` error
 *    event, requests still running are aborted, workers release the claims they still hold;
 * 3. at 90%: remaining connections are closed;
 * 4. once the database pool is idle (nothing touches it after), background work stops and the database
 *    closes; then `flush` runs (the spans still buffered are exported: src/lib/tracing-start.ts). A timer
 *    (`unref`'d) exits the process at the end of the grace period whatever happens.
 *
 * Resolves with the exit code: 0 after a clean close, 1 when closing failed.
 */
export async function shutDownGracefully(
  app: RunningApp,
  server: Server,
  reason: string,
  opts: { flush?: () => Promise<void> } = {},
): Promise<number> {
  const { log, config, shutdown } = app.services;
  const graceMs = config.shutdownGraceMs;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const backstop = setTimeout(() => {
    log.error({ graceMs }, 'shutdown grace period over: exiting with work still running');
    process.exit(1);
  }, graceMs);
  backstop.unref();
  log.info({ reason, graceMs }, 'shutdown started: draining');

  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections are closed as soon as their last response has gone out.
  const idleSweep = setInterval(() => server.closeIdleConnections(), 250);
  idleSweep.unref();
  const drained = Promise.all([closed, shutdown.drain()]).then(() => true);

  if (!(await Promise.race([drained, after(graceMs * DRAIN_SHARE - elapsed()).then(() => false)]))) {
    log.warn({ openConnections: await connectionsOf(server), elapsedMs: elapsed() }, 'drain time over: ending open streams and releasing claims');
    shutdown.giveUp();
    if (!(await Promise.race([drained, after(graceMs * CUT_SHARE - elapsed()).then(() => false)]))) {
      log.warn({ openConnections: await connectionsOf(server), elapsedMs: elapsed() }, 'closing the connections still open');
      server.closeAllConnections();
    }
  } else {
    log.info({ elapsedMs: elapsed() }, 'drained: every request and worker finished');
  }
  clearInterval(idleSweep);
  try {
    await databaseIdle(app, started + graceMs * 0.95);
    await app.close();
    if (opts.flush) {
      // A collector that does not answer must not hold the exit past the grace period (the exporter retries).
      const flushed = opts.flush().then(
        () => true,
        (err: unknown) => (log.warn({ err }, 'traces could not be flushed at shutdown'), true),
      );
      if (!(await Promise.race([flushed, after(graceMs * 0.98 - elapsed()).then(() => false)]))) log.warn({ elapsedMs: elapsed() }, 'traces not flushed within the grace period');
    }
    log.info({ elapsedMs: elapsed() }, 'shutdown complete');
    return 0;
  } catch (err) {
    log.error({ err, elapsedMs: elapsed() }, 'shutdown failed while closing');
    return 1;
  } finally {
    clearTimeout(backstop);
  }
}

function connectionsOf(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((err, count) => resolve(err ? -1 : count)));
}

/**
 * Waits (until `deadline`) for the PostgreSQL pool to have no connection checked out twice in a row,
 * so the tail of a request (its question hold released after the response) is not cut by the close.
 * The embedded database runs one statement at a time on its own: nothing to wait for there.
 */
async function databaseIdle(app: RunningApp, deadline: number): Promise<void> {
  if (!app.services.config.databaseUrl) return;
  const connection = app.services.orm.em.getConnection() as unknown as { getNativeClient(): Promise<Pool> };
  const pool = await connection.getNativeClient();
  let quiet = 0;
  while (quiet < 2 && performance.now() < deadline) {
    quiet = pool.totalCount === pool.idleCount && pool.waitingCount === 0 ? quiet + 1 : 0;
    if (quiet < 2) await after(20);
  }
}
