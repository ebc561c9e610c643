import type { AppServices } from '../../app/services.js';
import { attachDocumentAnalyser } from './document-analyser.js';
import { IngestionWorker, releaseIngestionLeases, startIngestionWorker } from './ingestion.worker.js';
import { startStaleWatch } from './stale-watch.js';

/**
 * Wires the knowledge module into a starting app: leases are released on close in every mode; the
 * ingestion worker (which also resumes jobs left running) and the daily staleness watch run only with
 * background jobs on. The parsing thread (started with the first document) is stopped on close, right
 * after the ingestion worker was told to stop, so a document being parsed does not delay the close.
 * A graceful shutdown drains the worker first (the job in hand may finish; see ingestion.worker.ts).
 */
export function startKnowledge(app: AppServices): void {
  const analyser = attachDocumentAnalyser(app);
  let worker: IngestionWorker | null = null;
  if (app.config.backgroundJobs) {
    worker = startIngestionWorker(app);
    app.shutdown.onDrain(() => worker?.drain());
    startStaleWatch(app);
  }
  app.onClose(async () => {
    if (worker) {
      const stopping = worker.stop(); // stops claiming at once; the job in hand then ends without writing
      await analyser.stop();
      await stopping;
    } else {
      await analyser.stop();
      await releaseIngestionLeases(app).catch((err: unknown) => app.log.warn({ err }, 'could not release ingestion leases'));
    }
  });
}
