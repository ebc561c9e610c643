import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Em } from '../../db/types.js';
import { AgentKnowledgeLink } from './knowledge.entity.js';
import { rerank, RERANK_POOL } from './rerank.js';
import { advancedQueryText, expansionTerms, indexSingulars, indexText, isAdvancedQuery, orQuery, queryWordGroups, termGroups, twoWordQuery, type TermGroup } from './search-text.js';

export interface ChunkRow {
  id: string;
  ordinal: number;
  section: string;
  page: number;
  text: string;
  tokenEstimate: number;
}

/**
 * The full-text vector of a chunk: section heading at weight A, text at weight B, singular forms of
 * plural-looking words at weight D (see search-text.ts). Written by the same SQL for every insert path.
 */
const VECTOR_SQL = `setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector('simple', ?), 'B') || setweight(to_tsvector('simple', ?), 'D')`;

/**
 * The embedded database (PGlite, `@mikro-orm/pglite`) runs SQL in WASM on the main thread, and its queries
 * resolve as promise jobs: statements awaited one after another never let timers or sockets run, so a long
 * series of them stalls the event loop for its whole duration, and one big statement for its own.
 * Writers and readers of large data therefore keep each statement small there and give the loop a turn
 * (`yieldToLoop`) between statements. On PostgreSQL the socket round trip already yields.
 */
export function isEmbedded(em: Em): boolean {
  return em.getPlatform().constructor.name === 'PglitePlatform';
}

/** Lets timers and I/O run before the next statement (a macrotask turn, not a promise job). */
export function yieldToLoop(): Promise<void> {
  return nextTurn();
}

/** Rows per multi-row chunk insert: 200 on PostgreSQL; 50 on the embedded database (about 50 ms a statement there). */
const INSERT_BATCH = 200;
const EMBEDDED_INSERT_BATCH = 50;

/** Inserts chunks in multi-row statements, computing each row's search vector in SQL. */
export async function insertChunks(
  em: Em,
  opts: { workspaceId: string; sourceId: string; createdAt: Date; chunks: ChunkRow[] },
): Promise<void> {
  const size = isEmbedded(em) ? EMBEDDED_INSERT_BATCH : INSERT_BATCH;
  for (let i = 0; i < opts.chunks.length; i += size) {
    if (i > 0) await yieldToLoop();
    const batch = opts.chunks.slice(i, i + size);
    const values: unknown[] = [];
    const rows = batch.map((c) => {
      values.push(
        c.id,
        opts.workspaceId,
        opts.sourceId,
        c.ordinal,
        c.section,
        c.page,
        c.text,
        c.tokenEstimate,
        indexText(c.section),
        indexText(c.text),
        indexSingulars(`${c.section} ${c.text}`),
        opts.createdAt,
      );
      return `(?, ?, ?, ?, ?, ?, ?, ?, ${VECTOR_SQL}, ?)`;
    });
    await em.execute(
      `insert into knowledge_chunk (id, workspace_id, source_id, ordinal, section, page, text, token_estimate, search_vector, created_at) values ${rows.join(', ')}`,
      values,
    );
  }
}

/**
 * Moves the search index's pending entries into the index proper (docs/performance.md, "Knowledge search:
 * the index's pending list"). PostgreSQL's GIN index takes new rows into an unsorted pending list (up to
 * `gin_pending_list_limit`, 4 MB by default) that every search reads in full until a vacuum or a later
 * insert merges it; after an ingestion it can hold thousands of passages for a long time (autovacuum counts
 * inserts against a fifth of the table). Called once an ingestion has committed, so searches read the index
 * alone; returns the pending pages merged.
 */
export async function flushSearchIndex(em: Em): Promise<number> {
  const [row] = await em.execute<{ pages: string | number }[]>(`select gin_clean_pending_list('knowledge_chunk_search_idx'::regclass) as pages`);
  return Number(row?.pages ?? 0);
}

export async function storeDocument(em: Em, opts: { sourceId: string; workspaceId: string; content: Buffer }): Promise<void> {
  await em.execute('insert into knowledge_document (source_id, workspace_id, content) values (?, ?, ?)', [
    opts.sourceId,
    opts.workspaceId,
    opts.content,
  ]);
}

/** Bytes per piece when the embedded database reads a document (a 16 MB document read in one statement stalls the loop for about 2 s, a 256 kB piece for some 50 ms). */
const EMBEDDED_READ_PIECE = 256 * 1024;

export async function readDocument(em: Em, opts: { sourceId: string; workspaceId: string }): Promise<Buffer | null> {
  if (isEmbedded(em)) return readDocumentInPieces(em, opts);
  const rows = await em.execute<{ content: Uint8Array }[]>(
    'select content from knowledge_document where source_id = ? and workspace_id = ?',
    [opts.sourceId, opts.workspaceId],
  );
  const content = rows[0]?.content;
  return content ? Buffer.from(content.buffer, content.byteOffset, content.byteLength) : null;
}

/** The embedded database's read: the length first, then 256 kB pieces, each its own statement with a loop turn between. */
async function readDocumentInPieces(em: Em, opts: { sourceId: string; workspaceId: string }): Promise<Buffer | null> {
  const where = 'from knowledge_document where source_id = ? and workspace_id = ?';
  const sized = await em.execute<{ size: number | string }[]>(`select octet_length(content) as size ${where}`, [opts.sourceId, opts.workspaceId]);
  if (sized.length === 0) return null;
  const size = Number(sized[0]!.size);
  const pieces: Buffer[] = [];
  for (let from = 0; from < size; from += EMBEDDED_READ_PIECE) {
    await yieldToLoop();
    const rows = await em.execute<{ piece: Uint8Array }[]>(`select substring(content from ? for ?) as piece ${where}`, [
      from + 1,
      EMBEDDED_READ_PIECE,
      opts.sourceId,
      opts.workspaceId,
    ]);
    const piece = rows[0]?.piece;
    if (!piece) return null; // deleted meanwhile
    pieces.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
  }
  return Buffer.concat(pieces, size);
}

/** Which sources a search may read: the whole workspace, or a list of sources and collections. */
export type SearchScope = { kind: 'workspace' } | { kind: 'some'; sourceIds: string[]; collectionIds: string[] };

export interface SearchHit {
  chunkId: string;
  sourceId: string;
  sourceName: string;
  section: string;
  page: number;
  text: string;
  collectionId: string | null;
  collectionName: string | null;
  /** ts_rank_cd normalised by log length and mapped into [0, 1) (flags 1|32); an expanded query's order is rerank.ts's. */
  rank: number;
}

/**
 * Ranked passages of the ready sources in scope. Natural-language queries match any of their content
 * words (OR), ranked by cover density (`ts_rank_cd`), which favours passages holding more of the words
 * close together; queries using web-search syntax go through `websearch_to_tsquery` as typed.
 * Ties break on source and position, so results are deterministic.
 *
 * `candidates` bounds the ranking (issue 28; docs/performance.md, "Knowledge search: bounded ranking"):
 * when the scope holds more matching passages than that, `ts_rank_cd` scores `candidates` of them: first
 * those holding at least two different words of the query (found by the GIN index alone), then, up to the
 * bound, passages holding one word in the index's order. Scoring every match of a frequent word is what
 * costs at 100 000 passages; a scope with fewer matches than the bound is ranked exactly as without it.
 * 0 or absent: every match is scored.
 */
export async function searchChunks(
  em: Em,
  opts: { workspaceId: string; query: string; topK: number; scope: SearchScope; expand?: boolean; candidates?: number },
): Promise<SearchHit[]> {
  let tsquery: string;
  let queryText: string;
  let expanded = '';
  let strong = '';
  let groups: TermGroup[] = [];
  if (isAdvancedQuery(opts.query)) {
    queryText = advancedQueryText(opts.query);
    tsquery = `websearch_to_tsquery('simple', ?)`;
  } else {
    const words = queryWordGroups(opts.query);
    const terms = [...new Set(words.flat())];
    queryText = orQuery(terms);
    tsquery = `to_tsquery('simple', ?)`;
    if (opts.expand && terms.length > 0) {
      expanded = expansionTerms(terms).join(' | ');
      groups = termGroups(opts.query, words);
    }
    strong = twoWordQuery(words);
  }
  if (!queryText) return [];
  if (opts.scope.kind === 'some' && opts.scope.sourceIds.length === 0 && opts.scope.collectionIds.length === 0) return [];

  // With expansion terms, a passage matches either list and ranks by its exact words plus half the rank of
  // the expansions (scaled back into [0, 1)): a passage holding the exact words stays ahead.
  const params: unknown[] = [queryText];
  const columns = [`${tsquery} as exact`];
  if (expanded) {
    columns.push(`to_tsquery('simple', ?) as wide`);
    params.push(expanded);
  }
  const bound = opts.candidates && opts.candidates > 0 ? Math.max(opts.candidates, opts.topK) : 0;
  if (bound > 0) {
    columns.push(strong ? `to_tsquery('simple', ?) as strong` : `null::tsquery as strong`);
    if (strong) params.push(strong);
  }
  const match = expanded ? 'c.search_vector @@ (q.exact || q.wide)' : 'c.search_vector @@ q.exact';
  const rank = expanded ? '(ts_rank_cd(c.search_vector, q.exact, 33) + 0.5 * ts_rank_cd(c.search_vector, q.wide, 33)) / 1.5' : 'ts_rank_cd(c.search_vector, q.exact, 33)';
  // `s.workspace_id = ?` changes no result (a passage's source is in its workspace) but bounds the plan:
  // while the database holds few ready sources, PostgreSQL drives this join from them and scans the GIN
  // index once per source, so without it a query paid one index scan per ready source of every
  // workspace. See docs/performance.md (Knowledge, 2026-11-23).
  const inScope = (condition: string): string => {
    params.push(opts.workspaceId, opts.workspaceId);
    return `${condition} and c.workspace_id = ? and s.workspace_id = ? and s.status = 'ready' ${scopeCondition(opts.scope, params)}`;
  };
  let text: string;
  if (bound === 0) {
    text = `select c.id, c.source_id, s.name as source_name, c.section, c.page, c.text, s.collection_id, col.name as collection_name, ${rank} as rank
       from (select ${columns.join(', ')}) q
       join knowledge_chunk c on ${match}
       join knowledge_source s on s.id = c.source_id
       left join knowledge_collection col on col.id = s.collection_id
      where ${inScope('true')}
      order by rank desc, c.source_id, c.ordinal
      limit ?`;
  } else {
    // The two tiers of candidates, each with the scope's conditions, carry what the result and the rank
    // read (no second fetch of the passages); only then is the rank computed.
    const tier = (condition: string, limit: string) =>
      `select c.id, c.source_id, c.ordinal, c.section, c.page, c.text, c.search_vector, s.name as source_name, s.collection_id
         from q join knowledge_chunk c on ${condition} join knowledge_source s on s.id = c.source_id
        where ${inScope(condition === match && strong ? 'not (c.search_vector @@ q.strong)' : 'true')} limit ${limit}`;
    const twoWords = tier(strong ? 'c.search_vector @@ q.strong' : 'false', strong ? String(bound) : '0');
    const oneWord = tier(match, `greatest(0, ${bound} - (select count(*) from two_words))`);
    text = `with q as (select ${columns.join(', ')}),
            two_words as (${twoWords}),
            one_word as (${oneWord})
       select c.id, c.source_id, c.source_name, c.section, c.page, c.text, c.collection_id, col.name as collection_name, ${rank} as rank
       from q
       join (select * from two_words union all select * from one_word) c on true
       left join knowledge_collection col on col.id = c.collection_id
      order by rank desc, c.source_id, c.ordinal
      limit ?`;
  }
  params.push(groups.length > 0 ? Math.max(opts.topK, RERANK_POOL) : opts.topK);
  const rows = await em.execute<
    { id: string; source_id: string; source_name: string; section: string; page: number; text: string; collection_id: string | null; collection_name: string | null; rank: number | string }[]
  >(text, params);
  const hits = rows.map((r) => ({
    chunkId: r.id,
    sourceId: r.source_id,
    sourceName: r.source_name,
    section: r.section,
    page: Number(r.page),
    text: r.text,
    collectionId: r.collection_id,
    collectionName: r.collection_name,
    rank: Number(r.rank),
  }));
  return groups.length > 0 ? rerank(hits, groups).slice(0, opts.topK) : hits;
}

/** `and (...)` restricting the source `s` to the scope (empty for the whole workspace); pushes its parameters. */
export function scopeCondition(scope: SearchScope, params: unknown[]): string {
  if (scope.kind !== 'some') return '';
  const parts: string[] = [];
  if (scope.sourceIds.length > 0) {
    parts.push(`s.id in (${scope.sourceIds.map(() => '?').join(', ')})`);
    params.push(...scope.sourceIds);
  }
  if (scope.collectionIds.length > 0) {
    parts.push(`s.collection_id in (${scope.collectionIds.map(() => '?').join(', ')})`);
    params.push(...scope.collectionIds);
  }
  return `and (${parts.join(' or ')})`;
}

/** The sources and collections linked to an agent. */
export async function agentScope(em: Em, workspaceId: string, agentId: string): Promise<SearchScope & { kind: 'some' }> {
  const links = await em.find(AgentKnowledgeLink, { workspaceId, agentId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return scopeOfLinks(links);
}

/** The search scope of an agent's links (sources and collections), in their order. */
export function scopeOfLinks(links: readonly { targetKind: string; targetId: string }[]): SearchScope & { kind: 'some' } {
  return {
    kind: 'some',
    sourceIds: links.filter((l) => l.targetKind === 'source').map((l) => l.targetId),
    collectionIds: links.filter((l) => l.targetKind === 'collection').map((l) => l.targetId),
  };
}
