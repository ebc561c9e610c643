import type { Deps, Kernel } from '../../core/deps.js';
import { EmbeddingsClient, loadEmbeddingsConfig } from './embeddings.js';
import { yieldToLoop } from './knowledge.repository.js';
import { passagesToEmbed, detectVectorStore, storeEmbeddings, type VectorEngine } from './vector-store.js';

/** Process state of hybrid retrieval, created once by the composition root. */
export interface EmbeddingsRuntime {
  /** The embeddings endpoint; null when none is configured (full-text search only, exactly as before). */
  readonly client: EmbeddingsClient | null;
  /** Where vectors are ranked (detected at start). */
  readonly engine: VectorEngine;
  /** In-process ranking: the most passages one search reads. */
  readonly maxScan: number;
  /** Passages per embeddings request. */
  readonly batch: number;
  /** Whether the knowledge search adds synonyms and translations below the exact words (SVC_SEARCH_SYNONYMS). */
  readonly synonyms: boolean;
  /** Full-text search ranks at most this many matching passages (0: every match; knowledge.repository.ts, searchChunks). */
  readonly rankCandidates: number;
}

declare module '../../core/deps.js' {
  interface Deps {
    readonly embeddings: EmbeddingsRuntime;
  }
}

/**
 * Reads the embeddings settings and, when an endpoint is configured, detects pgvector in the database.
 * Says in one log line which retrieval the process does.
 */
export async function createEmbeddingsRuntime(kernel: Kernel): Promise<EmbeddingsRuntime> {
  const config = loadEmbeddingsConfig(kernel.config.env);
  const base = { maxScan: config.maxScan, batch: config.batch, synonyms: config.synonyms, rankCandidates: config.rankCandidates };
  if (!config.baseUrl) {
    kernel.log.info('knowledge search: full text only (SVC_EMBEDDINGS_BASE_URL is not set)');
    return { ...base, client: null, engine: 'in-process' };
  }
  const client = new EmbeddingsClient({ ...config, baseUrl: config.baseUrl });
  const { engine, version } = await detectVectorStore(kernel.orm.em.fork());
  if (engine === 'pgvector') {
    kernel.log.info({ model: config.model, pgvector: version }, 'knowledge search: hybrid (full text + vectors), vectors ranked by pgvector');
  } else {
    kernel.log.info(
      { model: config.model, maxScan: config.maxScan },
      `knowledge search: hybrid (full text + vectors); this database has no pgvector, so vectors are ranked in process, at most ${config.maxScan} passages per search (a larger scope is searched by full text only)`,
    );
  }
  return { ...base, client, engine };
}

/**
 * Embeds ready passages that have no vector of the configured model, in batches, until none is left
 * (or only those of `sourceId` when given). Returns how many were stored. Throws when the endpoint fails:
 * what was stored stays, the rest waits for the next round.
 */
export async function embedPending(app: Deps, opts: { sourceId?: string; signal?: AbortSignal } = {}): Promise<number> {
  const { client, engine, batch } = app.embeddings;
  if (!client) return 0;
  let stored = 0;
  for (;;) {
    if (opts.signal?.aborted) return stored;
    const em = app.orm.em.fork();
    const todo = await passagesToEmbed(em, { model: client.model, engine, limit: batch, sourceId: opts.sourceId });
    if (todo.length === 0) return stored;
    const vectors = await client.embed(
      todo.map((p) => p.text),
      opts.signal,
    );
    await storeEmbeddings(em, {
      model: client.model,
      engine,
      now: app.clock.now(),
      rows: todo.map((p, i) => ({ chunkId: p.chunkId, workspaceId: p.workspaceId, vector: vectors[i]! })),
    });
    stored += todo.length;
    if (todo.length < batch) return stored;
    await yieldToLoop();
  }
}

/** Back-fill rounds: at start, then every 30 s (a failed endpoint is retried then). */
const POLL_MS = 30_000;

/**
 * Starts the back-fill worker when an endpoint is configured and background jobs run: passages written
 * before the endpoint was configured, or under another model, or whose embedding failed at ingestion,
 * get their vectors. Until then they are found by full text only.
 */
export function startEmbeddings(app: Deps): void {
  if (!app.embeddings.client || !app.config.backgroundJobs) return;
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, app.shutdown.signal]);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const round = (): void => {
    if (signal.aborted || app.shutdown.draining) return;
    running = embedPending(app, { signal })
      .then((n) => {
        if (n > 0) app.log.info({ passages: n }, 'passage vectors stored');
      })
      .catch((err: unknown) => {
        if (!signal.aborted) app.log.warn({ err }, 'embedding passages failed; retried in 30 s');
      })
      .finally(() => {
        running = null;
        if (signal.aborted) return;
        timer = setTimeout(round, POLL_MS);
        timer.unref();
      });
  };
  app.onClose(async () => {
    stop.abort();
    clearTimeout(timer);
    await running;
  });
  round();
}
