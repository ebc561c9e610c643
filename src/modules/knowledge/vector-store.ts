import type { Em } from '../../db/types.js';
import { cosine, vectorBytes, vectorFromBytes, vectorLiteral } from './embeddings.js';
import { scopeCondition, type SearchHit, type SearchScope } from './knowledge.repository.js';

/**
 * Where passage vectors are ranked (docs/knowledge.md, "Hybrid retrieval"):
 * - `pgvector`: the database has the extension; a `vec vector` column beside the bytes, an HNSW index per
 *   dimension, and the ranking is an `ORDER BY vec <=> query` in SQL;
 * - `in-process`: no pgvector (Debian's PostgreSQL 15 here, the pinned PGlite); the vectors of the
 *   searched scope are read and ranked in this process, up to `maxScan` passages per search.
 */
export type VectorEngine = 'pgvector' | 'in-process';

/**
 * Detects pgvector: the extension and the `vec` column that Migration20261126200000 creates where the
 * server offers it. No DDL here: the schema is changed by migrations only.
 */
export async function detectVectorStore(em: Em): Promise<{ engine: VectorEngine; version?: string }> {
  const rows = await em.execute<{ extversion: string }[]>(
    `select e.extversion from pg_extension e
      where e.extname = 'vector'
        and exists (select 1 from information_schema.columns
                     where table_schema = current_schema() and table_name = 'knowledge_chunk_embedding' and column_name = 'vec')`,
  );
  return rows.length > 0 ? { engine: 'pgvector', version: rows[0]!.extversion } : { engine: 'in-process' };
}

export interface PassageToEmbed {
  chunkId: string;
  workspaceId: string;
  text: string;
}

/**
 * Ready passages without a vector of `model` (none yet, another model's, or no `vec` while pgvector is
 * on), oldest first; `sourceId` limits them to one document.
 */
export async function passagesToEmbed(
  em: Em,
  opts: { model: string; engine: VectorEngine; limit: number; sourceId?: string },
): Promise<PassageToEmbed[]> {
  const params: unknown[] = [opts.model];
  let where = `(e.chunk_id is null or e.model <> ?${opts.engine === 'pgvector' ? ' or e.vec is null' : ''})`;
  if (opts.sourceId) {
    where += ' and c.source_id = ?';
    params.push(opts.sourceId);
  }
  params.push(opts.limit);
  const rows = await em.execute<{ id: string; workspace_id: string; section: string; text: string }[]>(
    `select c.id, c.workspace_id, c.section, c.text
       from knowledge_chunk c
       join knowledge_source s on s.id = c.source_id and s.status = 'ready'
       left join knowledge_chunk_embedding e on e.chunk_id = c.id
      where ${where}
      order by c.created_at, c.id
      limit ?`,
    params,
  );
  return rows.map((r) => ({ chunkId: r.id, workspaceId: r.workspace_id, text: passageText(r.section, r.text) }));
}

/** What is embedded for a passage: its section heading (context) and its text. */
export const passageText = (section: string, text: string): string => (section ? `${section}\n\n${text}` : text);

/**
 * Writes (or replaces) the vectors of passages. Passages deleted meanwhile are skipped. With pgvector
 * the `vec` column is written too; Migration20261126200000's partial HNSW index of its size, if any, covers it.
 */
export async function storeEmbeddings(
  em: Em,
  opts: {
    model: string;
    engine: VectorEngine;
    now: Date;
    rows: { chunkId: string; workspaceId: string; vector: Float32Array }[];
  },
): Promise<void> {
  if (opts.rows.length === 0) return;
  const pg = opts.engine === 'pgvector';
  const params: unknown[] = [];
  const values = opts.rows.map((r) => {
    params.push(r.chunkId, r.workspaceId, opts.model, r.vector.length, vectorBytes(r.vector), opts.now);
    if (pg) params.push(vectorLiteral(r.vector));
    return `(?::varchar, ?::varchar, ?::text, ?::integer, ?::bytea, ?::timestamptz${pg ? ', ?::vector' : ''})`;
  });
  const cols = `chunk_id, workspace_id, model, dims, embedding, created_at${pg ? ', vec' : ''}`;
  await em.execute(
    `insert into knowledge_chunk_embedding (${cols})
     select v.* from (values ${values.join(', ')}) as v(${cols})
       join knowledge_chunk c on c.id = v.chunk_id
     on conflict (chunk_id) do update
       set model = excluded.model, dims = excluded.dims, embedding = excluded.embedding, created_at = excluded.created_at${pg ? ', vec = excluded.vec' : ''}`,
    params,
  );
}

/** Passages ranked by the vector search, best first, with their cosine similarity to the query. */
export interface VectorCandidates {
  ranked: { chunkId: string; similarity: number }[];
  /** Cosine similarity of other passages of the scope, when known (the in-process ranking knows them all). */
  similarityOf(chunkId: string): number | undefined;
  /** False when the scope held more passages than the in-process bound: the search is full-text only. */
  complete: boolean;
}

/**
 * The `limit` passages of the scope closest to `query` (a unit vector of `model`). Only ready sources,
 * always inside the workspace.
 */
export async function vectorCandidates(
  em: Em,
  opts: { engine: VectorEngine; model: string; query: Float32Array; workspaceId: string; scope: SearchScope; limit: number; maxScan: number },
): Promise<VectorCandidates> {
  const dims = opts.query.length;
  const params: unknown[] = [opts.workspaceId, opts.model, dims, opts.workspaceId];
  const scopeSql = scopeCondition(opts.scope, params);
  const from = `from knowledge_chunk_embedding e
       join knowledge_chunk c on c.id = e.chunk_id
       join knowledge_source s on s.id = c.source_id
      where e.workspace_id = ? and e.model = ? and e.dims = ? and s.workspace_id = ? and s.status = 'ready' ${scopeSql}`;
  if (opts.engine === 'pgvector') {
    const q = vectorLiteral(opts.query);
    const rows = await em.execute<{ chunk_id: string; distance: number | string }[]>(
      `select e.chunk_id, e.vec::vector(${dims}) <=> ?::vector(${dims}) as distance ${from} and e.vec is not null
        order by distance, e.chunk_id limit ?`,
      [q, ...params, opts.limit],
    );
    const ranked = rows.map((r) => ({ chunkId: r.chunk_id, similarity: 1 - Number(r.distance) }));
    const known = new Map(ranked.map((r) => [r.chunkId, r.similarity]));
    return { ranked, similarityOf: (id) => known.get(id), complete: true };
  }
  // In process: read at most maxScan vectors (one more tells that the scope is over the bound).
  const rows = await em.execute<{ chunk_id: string; embedding: Uint8Array }[]>(`select e.chunk_id, e.embedding ${from} limit ?`, [
    ...params,
    opts.maxScan + 1,
  ]);
  if (rows.length > opts.maxScan) return { ranked: [], similarityOf: () => undefined, complete: false };
  const all = new Map<string, number>();
  for (const r of rows) all.set(r.chunk_id, cosine(opts.query, vectorFromBytes(r.embedding)));
  const ranked = [...all]
    .map(([chunkId, similarity]) => ({ chunkId, similarity }))
    .sort((a, b) => b.similarity - a.similarity || (a.chunkId < b.chunkId ? -1 : 1))
    .slice(0, opts.limit);
  return { ranked, similarityOf: (id) => all.get(id), complete: true };
}

/** The passages behind chunk ids (ready sources of the workspace), as search hits with no full-text rank. */
export async function hitsByChunkIds(em: Em, workspaceId: string, chunkIds: string[]): Promise<Map<string, SearchHit>> {
  if (chunkIds.length === 0) return new Map();
  const rows = await em.execute<
    { id: string; source_id: string; source_name: string; section: string; page: number; text: string; collection_id: string | null; collection_name: string | null }[]
  >(
    `select c.id, c.source_id, s.name as source_name, c.section, c.page, c.text, s.collection_id, col.name as collection_name
       from knowledge_chunk c
       join knowledge_source s on s.id = c.source_id
       left join knowledge_collection col on col.id = s.collection_id
      where c.workspace_id = ? and s.workspace_id = ? and s.status = 'ready' and c.id in (${chunkIds.map(() => '?').join(', ')})`,
    [workspaceId, workspaceId, ...chunkIds],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        chunkId: r.id,
        sourceId: r.source_id,
        sourceName: r.source_name,
        section: r.section,
        page: Number(r.page),
        text: r.text,
        collectionId: r.collection_id,
        collectionName: r.collection_name,
        rank: 0,
      },
    ]),
  );
}
