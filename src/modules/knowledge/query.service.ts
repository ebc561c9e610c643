import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { findAgent } from '../agents/index.js';
import { topKFor } from '../chat/index.js';
import type { KnowledgeUsedItem } from '../chat/index.js';
import { KnowledgeCollection } from './knowledge.entity.js';
import { unknownCollection } from './knowledge.lookup.js';
import { searchPassages } from './hybrid-search.js';
import { agentScope, type SearchScope } from './knowledge.repository.js';
import { KnowledgeQuerySchema } from './knowledge.schemas.js';
import { previewOf } from './search-text.js';

/** Search hits as knowledge items numbered 1..n (`ref`), best first (full text, or hybrid: hybrid-search.ts). */
export async function searchItems(
  ctx: Pick<ServiceContext, 'em' | 'app' | 'log' | 'signal'>,
  opts: { workspaceId: string; query: string; topK: number; scope: SearchScope },
): Promise<KnowledgeUsedItem[]> {
  const hits = await searchPassages(ctx, opts);
  return hits.map((h, i) => ({
    ref: i + 1,
    sourceId: h.sourceId,
    sourceName: h.sourceName,
    section: h.section,
    page: h.page,
    chunkPreview: previewOf(h.text),
    similarity: Math.round(h.similarity * 10_000) / 10_000,
    chunkId: h.chunkId,
    collectionId: h.collectionId,
    dossierName: h.collectionName,
    text: h.text,
  }));
}

/**
 * `POST /v1/knowledge/query`: ranked passages of the workspace, or of an agent's linked knowledge
 * (`agentId`), or of the given sources and collections. Reading only; consumes no questions.
 */
export async function queryKnowledge(ctx: ServiceContext, input: unknown): Promise<KnowledgeUsedItem[]> {
  const q = KnowledgeQuerySchema.parse(input ?? {});
  const workspaceId = ctx.caller.workspace.id;
  const ids = { sourceIds: [...new Set(q.sourceIds ?? [])], collectionIds: [...new Set(q.collectionIds ?? [])] };
  const explicit = ids.sourceIds.length > 0 || ids.collectionIds.length > 0;
  if (q.agentId && explicit) throw errors.validation('agentId', 'agentId cannot be combined with sourceIds or collectionIds');
  let scope: SearchScope = { kind: 'workspace' };
  if (q.agentId) scope = await agentScope(ctx.em, workspaceId, (await findAgent(ctx, q.agentId)).id);
  else if (explicit) {
    if (ids.collectionIds.length > 0) {
      const found = await ctx.em.count(KnowledgeCollection, { workspaceId, id: { $in: ids.collectionIds } });
      if (found !== ids.collectionIds.length) throw unknownCollection();
    }
    scope = { kind: 'some', ...ids };
  }
  return searchItems(ctx, { workspaceId, query: q.query, topK: topKFor(q.query, q.topK ?? undefined), scope });
}
