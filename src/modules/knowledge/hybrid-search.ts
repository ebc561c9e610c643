import type { ServiceContext } from '../../core/context.js';
import { isAdvancedQuery } from './search-text.js';
import { searchChunks, type SearchHit, type SearchScope } from './knowledge.repository.js';
import { hitsByChunkIds, vectorCandidates } from './vector-store.js';

/** Reciprocal rank fusion constant (Cormack et al. 2009): a passage's score is the sum of 1 / (k + rank). */
export const RRF_K = 60;
/** Passages taken from each ranking before fusion. */
export const CANDIDATES = 50;

/** A passage found, with the number `similarity` reports (docs/knowledge.md, "Hybrid retrieval"). */
export interface RankedHit extends SearchHit {
  /** Full text only: the normalised cover-density rank. Hybrid: the cosine similarity of passage and query. */
  similarity: number;
}

/**
 * Ranks passages by reciprocal rank fusion of two lists: `a` and `b` (ids best first). Ids in only one
 * list count there only. Ties break on the best single rank, then the full-text list's order.
 */
export function reciprocalRankFusion(a: string[], b: string[], k = RRF_K): string[] {
  const score = new Map<string, { s: number; best: number; order: number }>();
  const add = (ids: string[], offset: number) =>
    ids.forEach((id, i) => {
      const cur = score.get(id) ?? { s: 0, best: Infinity, order: offset + i };
      cur.s += 1 / (k + i + 1);
      cur.best = Math.min(cur.best, i);
      score.set(id, cur);
    });
  add(a, 0);
  add(b, a.length);
  return [...score]
    .sort(([, x], [, y]) => y.s - x.s || x.best - y.best || x.order - y.order)
    .map(([id]) => id);
}

/**
 * The knowledge search: full-text ranking alone when no embeddings endpoint is configured (exactly the
 * search of before), else full text and vectors fused. Falls back to full text alone, for this query,
 * when the query uses web-search syntax (an exact request), when the endpoint fails (logged), or when
 * the in-process ranking's scope is over its bound (logged).
 */
export async function searchPassages(
  ctx: Pick<ServiceContext, 'em' | 'app' | 'log' | 'signal'>,
  opts: { workspaceId: string; query: string; topK: number; scope: SearchScope },
): Promise<RankedHit[]> {
  const { client, engine, maxScan, synonyms, rankCandidates } = ctx.app.embeddings;
  const fullText = async (topK: number) => (await searchChunks(ctx.em, { ...opts, topK, expand: synonyms, candidates: rankCandidates })).map((h) => ({ ...h, similarity: h.rank }));
  if (!client || isAdvancedQuery(opts.query) || !opts.query.trim()) return fullText(opts.topK);
  if (opts.scope.kind === 'some' && opts.scope.sourceIds.length === 0 && opts.scope.collectionIds.length === 0) return [];

  let queryVector: Float32Array;
  try {
    [queryVector] = (await client.embed([opts.query], ctx.signal)) as [Float32Array];
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    ctx.log.warn({ err }, 'embedding the query failed; this search is full text only');
    return fullText(opts.topK);
  }
  const candidates = Math.max(CANDIDATES, opts.topK);
  const [text, vectors] = await Promise.all([
    searchChunks(ctx.em, { ...opts, topK: candidates, expand: synonyms, candidates: rankCandidates }),
    vectorCandidates(ctx.em, { engine, model: client.model, query: queryVector, workspaceId: opts.workspaceId, scope: opts.scope, limit: candidates, maxScan }),
  ]).catch(async (err: unknown) => {
    ctx.log.error({ err }, 'vector search failed; this search is full text only');
    return [await searchChunks(ctx.em, { ...opts, topK: candidates, expand: synonyms, candidates: rankCandidates }), null] as const;
  });
  if (!vectors || !vectors.complete) {
    if (vectors) ctx.log.warn({ maxScan, workspaceId: opts.workspaceId }, 'the searched scope holds more passages than the in-process vector bound; this search is full text only');
    return text.slice(0, opts.topK).map((h) => ({ ...h, similarity: h.rank }));
  }

  const byId = new Map(text.map((h) => [h.chunkId, h]));
  const fused = reciprocalRankFusion(
    text.map((h) => h.chunkId),
    vectors.ranked.map((v) => v.chunkId),
  ).slice(0, opts.topK);
  const missing = fused.filter((id) => !byId.has(id));
  for (const [id, hit] of await hitsByChunkIds(ctx.em, opts.workspaceId, missing)) byId.set(id, hit);
  const out: RankedHit[] = [];
  for (const id of fused) {
    const hit = byId.get(id);
    if (!hit) continue; // its source left the scope between the two reads
    const cos = vectors.similarityOf(id);
    out.push({ ...hit, similarity: cos === undefined ? hit.rank : Math.max(0, Math.min(1, cos)) });
  }
  return out;
}
