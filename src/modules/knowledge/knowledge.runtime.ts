import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Deps } from '../../core/deps.js';
import type { Logger } from '../../lib/logger.js';
import { Notifier } from '../../lib/notifier.js';
import { DocumentAnalyser } from './document-analyser.js';
import { IngestionWorker, releaseIngestionLeases, startIngestionWorker } from './ingestion.worker.js';
import { startStaleWatch } from './stale-watch.js';

/** Process state of the knowledge module's ingestion, created once by the composition root. */
export interface IngestionRuntime {
  /** The parsing thread (started with the first document, stopped when the app closes). */
  readonly analyser: DocumentAnalyser;
  /** This process's name on the jobs it claims (`worker_id`), so it can release its leases. */
  readonly workerId: string;
  /** Notified after an upload commits; the in-process worker (when running) subscribes. */
  readonly wake: Notifier;
}

export function createIngestionRuntime(log: Logger): IngestionRuntime {
  return {
    analyser: new DocumentAnalyser(log),
    workerId: `${hostname().slice(0, 30)}:${process.pid}:${randomBytes(4).toString('hex')}`,
    wake: new Notifier(),
  };
}

declare module '../../core/deps.js' {
  interface Deps {
    readonly ingestion: IngestionRuntime;
  }
}

/**
 * Starts the knowledge module in a starting app: leases are released on close in every mode; the
 * ingestion worker (which also resumes jobs left running) and the daily staleness watch run only with
 * background jobs on. The parsing thread (started with the first document) is stopped on close, right
 * after the ingestion worker was told to stop, so a document being parsed does not delay the close.
 * A graceful shutdown drains the worker first (the job in hand may finish; see ingestion.worker.ts).
 */
export function startKnowledge(app: Deps): void {
  const analyser = app.ingestion.analyser;
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
