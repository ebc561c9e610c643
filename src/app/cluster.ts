import cluster, { type Worker } from 'node:cluster';
import { loadConfig } from '../config.js';
import { createLogger } from '../lib/logger.js';
import { superviseMetrics } from '../lib/metrics.js';
import { createApp } from './create-app.js';

/**
 * `SVC_WORKERS=N` (N > 1): this process becomes the supervisor of N server processes sharing the port
 * (node:cluster; connections are spread round-robin). Nothing of the service runs here: the processes
 * are stateless and meet only in PostgreSQL (docs/scaling.md), as N instances behind a load balancer do.
 *
 * Start-up is ordered so that one-time work happens once: the supervisor opens the app once (migrations,
 * the generated signing and secret keys) and closes it, then starts the first worker alone (which creates
 * the first workspace and prints its key on a first start) and the others once it listens. A worker that
 * dies is replaced. SIGTERM or SIGINT is passed on to every worker as SIGTERM; each drains as a single
 * process does (src/app/shutdown.ts), and the supervisor exits when they all have, with 1 if one failed.
 *
 * Returns at once when the process should serve itself (a worker, or N = 1); never returns otherwise.
 */
export async function superviseWorkers(): Promise<void> {
  if (!cluster.isPrimary) return;
  const config = loadConfig();
  if (config.workers <= 1) return;
  const log = createLogger(config.logLevel);
  if (!config.databaseUrl) {
    log.warn({ workers: config.workers }, 'SVC_WORKERS needs PostgreSQL (DATABASE_URL): the embedded database is one process; serving with one');
    return;
  }
  const prepared = await createApp({ config: { ...config, backgroundJobs: false }, log });
  await prepared.close();

  let stopping = false;
  let failed = false;
  const exits: { pid: number | undefined; code: number | null; signal: string | null }[] = [];
  const live = new Set<Worker>();
  const fork = (): Promise<Worker> =>
    new Promise((resolve) => {
      const worker = cluster.fork();
      let serving = false;
      live.add(worker);
      worker.once('listening', () => {
        serving = true;
        resolve(worker);
      });
      worker.once('exit', (code, signal) => {
        live.delete(worker);
        if (stopping) {
          // One still starting had nothing to drain: the signal's default action is its clean stop.
          if (serving && code !== 0) failed = true;
          exits.push({ pid: worker.process.pid, code, signal });
          if (live.size === 0) stopped();
          return;
        }
        log.error({ pid: worker.process.pid, code, signal }, 'server process exited: starting another');
        void fork();
      });
    });

  const stopped = () => {
    log.info({ failed, exits }, 'every server process stopped');
    process.exit(failed ? 1 : 0);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: live.size }, 'stopping server processes');
    for (const worker of live) worker.process.kill('SIGTERM');
    if (live.size === 0) stopped();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  superviseMetrics(); // GET /metrics on any process answers with the aggregate of all of them

  await fork();
  await Promise.all(Array.from({ length: config.workers - 1 }, fork));
  log.info({ workers: config.workers, port: config.port }, 'svc listening with several server processes');
  await new Promise<never>(() => {});
}

/**
 * In a worker, SIGINT is the terminal's Ctrl-C reaching the whole process group: the supervisor passes it
 * on as SIGTERM, so the worker waits for that instead of reacting twice.
 */
export const isClusterWorker = (): boolean => cluster.isWorker;
