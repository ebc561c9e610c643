import type { Deps } from '../../core/deps.js';
import { metrics } from '../../lib/metrics.js';
import { untilAborted } from '../../lib/shutdown.js';
import { embedPending } from './embeddings.runtime.js';
import { commitFailure, commitIngestion, IngestionFailure, loadDocumentBytes, type IngestionResult } from './ingestion.js';
import { IngestionJob, KnowledgeSource, uploadedName } from './knowledge.entity.js';
import { flushSearchIndex } from './knowledge.repository.js';

/**
 * Ingestion jobs (`knowledge_ingestion_job`): `queued` → `running` → `done` | `failed`.
 *
 * A worker claims one job at a time with `FOR UPDATE SKIP LOCKED`, sets it `running` under its worker id
 * with a lease (now + 15 s, renewed every 5 s while it works: a dead process's job is resumed by another
 * worker within about 15 s plus its 2 s poll), parses outside any transaction (on the
 * app's parsing thread, document-analyser.ts; if that thread dies, the job fails as an unexpected error), then
 * writes everything (passages, facts, source state, events, job `done`) in one transaction that first
 * checks it still holds the job. A job is claimable when `queued`, or `running` with a lease that has
 * expired or was released. A process that closes releases its leases, so the next process to start
 * resumes the job at once; a process that dies keeps its lease until it expires, then any worker resumes
 * it. A draining process (shutdown) claims nothing new and lets the job in hand finish; when the drain
 * time runs out it releases its lease at once (the job's final transaction checks it still holds it). Parsing failures fail the source (`source.failed`); unexpected errors retry, three attempts in all.
 */
export const LEASE_MS = 15_000;
const HEARTBEAT_MS = 5_000;
const POLL_MS = 2_000;
export const MAX_ATTEMPTS = 3;

interface ClaimedJob {
  id: string;
  sourceId: string;
  attempts: number;
}

/** Claims the oldest claimable job for this process, or null. */
export async function claimIngestionJob(app: Deps): Promise<ClaimedJob | null> {
  const now = app.clock.now();
  const rows = await app.orm.em.fork().execute<{ id: string; source_id: string; attempts: number }[]>(
    `update knowledge_ingestion_job
        set status = 'running', attempts = attempts + 1, worker_id = ?, lease_expires_at = ?, updated_at = ?
      where id = (select id from knowledge_ingestion_job
                   where status = 'queued' or (status = 'running' and (lease_expires_at is null or lease_expires_at < ?))
                   order by created_at, id
                   for update skip locked
                   limit 1)
      returning id, source_id, attempts`,
    [app.ingestion.workerId, new Date(now.getTime() + LEASE_MS), now, now],
  );
  const row = rows[0];
  return row ? { id: row.id, sourceId: row.source_id, attempts: Number(row.attempts) } : null;
}

/** Gives back the leases this process holds: the jobs stay `running` and are claimable at once. */
export async function releaseIngestionLeases(app: Deps): Promise<number> {
  const rows = await app.orm.em
    .fork()
    .execute<{ id: string }[]>(
      `update knowledge_ingestion_job set lease_expires_at = null where worker_id = ? and status = 'running' returning id`,
      [app.ingestion.workerId],
    );
  return rows.length;
}

/**
 * Runs one claimed job to its end. Returns without writing when the job was taken over or deleted
 * meanwhile, or when `signal` aborts before the final transaction (the lease is then released by close).
 */
export async function processIngestionJob(app: Deps, job: ClaimedJob, signal?: AbortSignal): Promise<void> {
  const me = app.ingestion.workerId;
  const heartbeat = setInterval(() => {
    const until = new Date(app.clock.now().getTime() + LEASE_MS);
    app.orm.em
      .fork()
      .execute(`update knowledge_ingestion_job set lease_expires_at = ? where id = ? and worker_id = ? and status = 'running'`, [until, job.id, me])
      .catch((err: unknown) => app.log.warn({ err, jobId: job.id }, 'ingestion lease renewal failed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const em = app.orm.em.fork();
    const source = await em.findOne(KnowledgeSource, { id: job.sourceId });
    if (!source) return;
    let outcome: { ok: IngestionResult } | { failure: string };
    if (job.attempts > MAX_ATTEMPTS) outcome = { failure: 'Ingestion failed repeatedly and was abandoned' };
    else {
      try {
        const bytes = await loadDocumentBytes(em, source);
        // On the app's parsing thread: the bytes are transferred there, the event loop stays free.
        outcome = { ok: await app.ingestion.analyser.analyse({ bytes, filename: uploadedName(source), mimeType: source.mimeType }) };
      } catch (err) {
        if (!(err instanceof IngestionFailure)) throw err;
        outcome = { failure: err.message };
      }
    }
    if (signal?.aborted) return;
    const ready = await finish(app, job, outcome);
    metrics.ingestionJob('ok' in outcome ? 'ingested' : 'failed', seconds());
    if (ready) await flushPendingSearchEntries(app);
    if (ready && !signal?.aborted) await embedIngested(app, job.sourceId, signal);
  } catch (err) {
    if (signal?.aborted) return;
    app.log.error({ err, jobId: job.id, sourceId: job.sourceId }, 'ingestion failed unexpectedly');
    metrics.ingestionJob('retried', seconds());
    await retryOrFail(app, job, err);
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * The passages just committed sit in the search index's pending list, which every search reads in full:
 * merged now (knowledge.repository.ts, `flushSearchIndex`). A failure only leaves searches slower until a
 * vacuum merges them, so it is logged, not retried.
 */
async function flushPendingSearchEntries(app: Deps): Promise<void> {
  try {
    await flushSearchIndex(app.orm.em.fork());
  } catch (err) {
    app.log.warn({ err }, 'merging the search index pending list failed');
  }
}

/** Writes the outcome; true when the source is now ready. */
async function finish(app: Deps, job: ClaimedJob, outcome: { ok: IngestionResult } | { failure: string }): Promise<boolean> {
  const me = app.ingestion.workerId;
  return app.orm.em.fork().transactional(async (tx) => {
    const held = await tx.execute<{ id: string }[]>(
      `select id from knowledge_ingestion_job where id = ? and worker_id = ? and status = 'running' for update`,
      [job.id, me],
    );
    if (held.length === 0) return false; // taken over after our lease expired, or deleted with its source
    const source = await tx.findOne(KnowledgeSource, { id: job.sourceId });
    if (!source) return false;
    const now = app.clock.now();
    if ('ok' in outcome) await commitIngestion(app, tx, source, outcome.ok);
    else await commitFailure(app, tx, source, outcome.failure);
    await tx.nativeUpdate(
      IngestionJob,
      { id: job.id },
      { status: 'ok' in outcome ? 'done' : 'failed', lastError: 'ok' in outcome ? null : outcome.failure, leaseExpiresAt: null, updatedAt: now, finishedAt: now },
    );
    return 'ok' in outcome;
  });
}

/**
 * A document just became searchable by full text: its passages get their vectors now when an embeddings
 * endpoint is configured (docs/knowledge.md, "Hybrid retrieval"). A failure leaves them to the back-fill
 * worker; the job is done either way.
 */
async function embedIngested(app: Deps, sourceId: string, signal?: AbortSignal): Promise<void> {
  if (!app.embeddings.client) return;
  try {
    await embedPending(app, { sourceId, signal });
  } catch (err) {
    if (!signal?.aborted) app.log.warn({ err, sourceId }, 'embedding the passages of a new document failed; the back-fill worker retries');
  }
}

/** An unexpected error (database, bug): queued again for another attempt, or failed after the last one. */
async function retryOrFail(app: Deps, job: ClaimedJob, err: unknown): Promise<void> {
  const message = err instanceof Error ? err.message.slice(0, 500) : String(err);
  try {
    if (job.attempts < MAX_ATTEMPTS) {
      await app.orm.em
        .fork()
        .nativeUpdate(IngestionJob, { id: job.id, workerId: app.ingestion.workerId, status: 'running' }, { status: 'queued', leaseExpiresAt: null, lastError: message, updatedAt: app.clock.now() });
    } else {
      await finish(app, job, { failure: 'Ingestion failed because of an internal error' });
    }
  } catch (again) {
    app.log.error({ err: again, jobId: job.id }, 'could not record the ingestion failure; the lease will expire');
  }
}

/**
 * Processes every claimable job now, in this process, and returns how many were run. For tests and
 * tools (the app runs with SVC_BACKGROUND_JOBS=off in tests); the background worker does the same.
 */
export async function runPendingIngestion(app: Deps): Promise<number> {
  let n = 0;
  for (let job = await claimIngestionJob(app); job; job = await claimIngestionJob(app)) {
    await processIngestionJob(app, job);
    n++;
  }
  return n;
}

/** The background worker of one process: woken after each upload, and polling every 2 s for the rest. */
export class IngestionWorker {
  readonly #app: Deps;
  readonly #stop = new AbortController();
  /** Stop or shutdown: combined once for the worker's life, not once per job (each would stay on both). */
  readonly #abort: AbortSignal;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | null = null;
  #again = false;

  constructor(app: Deps) {
    this.#app = app;
    this.#abort = AbortSignal.any([this.#stop.signal, app.shutdown.signal]);
  }

  start(): void {
    this.wake();
  }

  wake(): void {
    if (this.#stop.signal.aborted || this.#app.shutdown.draining) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#drain().finally(() => {
      this.#running = null;
      if (this.#stop.signal.aborted || this.#app.shutdown.draining) return;
      if (this.#again) {
        this.#again = false;
        this.wake();
      } else {
        this.#timer = setTimeout(() => this.wake(), POLL_MS);
        this.#timer.unref();
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (!this.#stop.signal.aborted && !this.#app.shutdown.draining) {
        const job = await claimIngestionJob(this.#app);
        if (!job) return;
        await processIngestionJob(this.#app, job, this.#abort);
      }
    } catch (err) {
      if (!this.#stop.signal.aborted) this.#app.log.error({ err }, 'ingestion worker could not claim a job');
    }
  }

  /**
   * The app is draining: claims nothing more; resolves when the job in hand is done. If the drain time
   * runs out first, its lease is released at once, so another process resumes it without waiting.
   */
  async drain(): Promise<void> {
    clearTimeout(this.#timer);
    const giveUp = this.#app.shutdown.signal;
    const release = () => void releaseIngestionLeases(this.#app).catch((err: unknown) => this.#app.log.warn({ err }, 'could not release ingestion leases'));
    giveUp.addEventListener('abort', release, { once: true });
    try {
      await untilAborted(this.#running ?? Promise.resolve(), giveUp);
    } finally {
      giveUp.removeEventListener('abort', release);
    }
  }

  /** Stops claiming, lets the job in hand stop before its final write, and releases its lease. */
  async stop(): Promise<void> {
    this.#stop.abort();
    clearTimeout(this.#timer);
    await this.#running;
    await releaseIngestionLeases(this.#app).catch((err: unknown) => this.#app.log.warn({ err }, 'could not release ingestion leases'));
  }
}

/** Starts this process's worker; an upload that commits wakes it at once (`wakeIngestion`). */
export function startIngestionWorker(app: Deps): IngestionWorker {
  const worker = new IngestionWorker(app);
  const unsubscribe = app.ingestion.wake.subscribe(() => worker.wake());
  app.onClose(unsubscribe);
  worker.start();
  return worker;
}

/** Called after an upload commits: the worker of this process (when running) starts at once. */
export function wakeIngestion(app: Deps): void {
  app.ingestion.wake.notify();
}
