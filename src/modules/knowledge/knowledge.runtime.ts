import type { AppServices } from '../../app/services.js';
import { IngestionWorker, releaseIngestionLeases, startIngestionWorker } from './ingestion.worker.js';
import { startStaleWatch } from './stale-watch.js';

/**
 * Wires the knowledge module into a starting app: leases are released on close in every mode; the
 * ingestion worker (which also resumes jobs left running) and the daily staleness watch run only with
 * background jobs on.
 */
export function startKnowledge(app: AppServices): void {
  let worker: IngestionWorker | null = null;
  if (app.config.backgroundJobs) {
    worker = startIngestionWorker(app);
    startStaleWatch(app);
  }
  app.onClose(async () => {
    if (worker) await worker.stop();
    else await releaseIngestionLeases(app).catch((err: unknown) => app.log.warn({ err }, 'could not release ingestion leases'));
  });
}
