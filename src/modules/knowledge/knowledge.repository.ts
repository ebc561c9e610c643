import type { Em } from '../../db/orm.js';
import { AgentKnowledgeLink } from './knowledge.entity.js';
import { advancedQueryText, indexSingulars, indexText, isAdvancedQuery, orQuery, queryTerms } from './search-text.js';

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

const INSERT_BATCH = 200;

/** Inserts chunks in multi-row statements (200 rows each), computing each row's search vector in SQL. */
export async function insertChunks(
  em: Em,
  opts: { workspaceId: string; sourceId: string; createdAt: Date; chunks: ChunkRow[] },
): Promise<void> {
  for (let i = 0; i < opts.chunks.length; i += INSERT_BATCH) {
    const batch = opts.chunks.slice(i, i + INSERT_BATCH);
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

export async function storeDocument(em: Em, opts: { sourceId: string; workspaceId: string; content: Buffer }): Promise<void> {
  await em.execute('insert into knowledge_document (source_id, workspace_id, content) values (?, ?, ?)', [
    opts.sourceId,
    opts.workspaceId,
    opts.content,
  ]);
}

export async function readDocument(em: Em, opts: { sourceId: string; workspaceId: string }): Promise<Buffer | null> {
  const rows = await em.execute<{ content: Uint8Array }[]>(
    'select content from knowledge_document where source_id = ? and workspace_id = ?',
    [opts.sourceId, opts.workspaceId],
  );
  const content = rows[0]?.content;
  return content ? Buffer.from(content.buffer, content.byteOffset, content.byteLength) : null;
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
  /** ts_rank_cd normalised by log length and mapped into [0, 1) (flags 1|32). */
  rank: number;
}

/**
 * Ranked passages of the ready sources in scope. Natural-language queries match any of their content
 * words (OR), ranked by cover density (`ts_rank_cd`), which favours passages holding more of the words
 * close together; queries using web-search syntax go through `websearch_to_tsquery` as typed.
 * Ties break on source and position, so results are deterministic.
 */
export async function searchChunks(em: Em, opts: { workspaceId: string; query: string; topK: number; scope: SearchScope }): Promise<SearchHit[]> {
  let tsquery: string;
  let queryText: string;
  if (isAdvancedQuery(opts.query)) {
    queryText = advancedQueryText(opts.query);
    tsquery = `websearch_to_tsquery('simple', ?)`;
  } else {
    const terms = queryTerms(opts.query);
    queryText = orQuery(terms);
    tsquery = `to_tsquery('simple', ?)`;
  }
  if (!queryText) return [];
  if (opts.scope.kind === 'some' && opts.scope.sourceIds.length === 0 && opts.scope.collectionIds.length === 0) return [];

  const params: unknown[] = [queryText, opts.workspaceId];
  let scopeSql = '';
  if (opts.scope.kind === 'some') {
    const parts: string[] = [];
    if (opts.scope.sourceIds.length > 0) {
      parts.push(`s.id in (${opts.scope.sourceIds.map(() => '?').join(', ')})`);
      params.push(...opts.scope.sourceIds);
    }
    if (opts.scope.collectionIds.length > 0) {
      parts.push(`s.collection_id in (${opts.scope.collectionIds.map(() => '?').join(', ')})`);
      params.push(...opts.scope.collectionIds);
    }
    scopeSql = `and (${parts.join(' or ')})`;
  }
  params.push(opts.topK);
  const rows = await em.execute<
    { id: string; source_id: string; source_name: string; section: string; page: number; text: string; collection_id: string | null; collection_name: string | null; rank: number | string }[]
  >(
    `select c.id, c.source_id, s.name as source_name, c.section, c.page, c.text, s.collection_id, col.name as collection_name,
            ts_rank_cd(c.search_vector, q.query, 33) as rank
       from (select ${tsquery} as query) q
       join knowledge_chunk c on c.search_vector @@ q.query
       join knowledge_source s on s.id = c.source_id
       left join knowledge_collection col on col.id = s.collection_id
      where c.workspace_id = ? and s.status = 'ready' ${scopeSql}
      order by rank desc, c.source_id, c.ordinal
      limit ?`,
    params,
  );
  return rows.map((r) => ({
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
}

/** The sources and collections linked to an agent. */
export async function agentScope(em: Em, workspaceId: string, agentId: string): Promise<SearchScope & { kind: 'some' }> {
  const links = await em.find(AgentKnowledgeLink, { workspaceId, agentId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return {
    kind: 'some',
    sourceIds: links.filter((l) => l.targetKind === 'source').map((l) => l.targetId),
    collectionIds: links.filter((l) => l.targetKind === 'collection').map((l) => l.targetId),
  };
}
