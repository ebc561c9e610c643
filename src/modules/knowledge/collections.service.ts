/** Knowledge collections (dossiers grouping sources). */
import type { ServiceContext } from '../../core/context.js';
import { newId } from '../../lib/ids.js';
import { KnowledgeCollection, KnowledgeSource } from './knowledge.entity.js';
import { collectionNotFound, findCollection } from './knowledge.lookup.js';
import {
  CreateCollectionSchema,
  UpdateCollectionSchema,
  type CollectionDto,
} from './knowledge.schemas.js';
import { removeLinksTo } from './links.service.js';

export function toCollectionDto(c: KnowledgeCollection, sourceCount: number): CollectionDto {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    userId: c.userId,
    sourceCount,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

async function sourceCounts(ctx: ServiceContext, ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const rows = await ctx.em.execute<{ collection_id: string; n: string | number }[]>(
    `select collection_id, count(*) as n from knowledge_source where workspace_id = ? and collection_id in (${ids.map(() => '?').join(', ')}) group by collection_id`,
    [ctx.caller.workspace.id, ...ids],
  );
  for (const r of rows) counts.set(r.collection_id, Number(r.n));
  return counts;
}

export async function withSourceCounts(ctx: ServiceContext, collections: KnowledgeCollection[]): Promise<CollectionDto[]> {
  const counts = await sourceCounts(ctx, collections.map((c) => c.id));
  return collections.map((c) => toCollectionDto(c, counts.get(c.id) ?? 0));
}

export async function createCollection(ctx: ServiceContext, input: unknown): Promise<KnowledgeCollection> {
  const data = CreateCollectionSchema.parse(input ?? {});
  const now = ctx.clock.now();
  const collection = ctx.em.create(KnowledgeCollection, {
    id: newId('kcol'),
    workspaceId: ctx.caller.workspace.id,
    userId: ctx.caller.user.id,
    name: data.name.trim(),
    description: data.description ?? '',
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return collection;
}

export async function listCollections(ctx: ServiceContext): Promise<KnowledgeCollection[]> {
  return ctx.em.find(KnowledgeCollection, { workspaceId: ctx.caller.workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function getCollection(ctx: ServiceContext, id: string): Promise<KnowledgeCollection> {
  const collection = await findCollection(ctx, id);
  if (!collection) throw collectionNotFound(id);
  return collection;
}

export async function updateCollection(ctx: ServiceContext, id: string, input: unknown): Promise<KnowledgeCollection> {
  const data = UpdateCollectionSchema.parse(input ?? {});
  const collection = await findCollection(ctx, id);
  if (!collection) throw collectionNotFound(id);
  if (data.name !== undefined && data.name !== null) collection.name = data.name.trim();
  if (data.description !== undefined && data.description !== null) collection.description = data.description;
  collection.updatedAt = ctx.clock.now();
  await ctx.em.flush();
  return collection;
}

/** Deletes the collection only: its sources stay, outside any collection; agents linked to it lose the link. */
export async function deleteCollection(ctx: ServiceContext, id: string): Promise<void> {
  const collection = await findCollection(ctx, id);
  if (!collection) throw collectionNotFound(id);
  const now = ctx.clock.now();
  await ctx.em.transactional(async (tx) => {
    await removeLinksTo(tx, collection.workspaceId, [collection.id], now);
    await tx.nativeUpdate(KnowledgeSource, { workspaceId: collection.workspaceId, collectionId: collection.id }, { collectionId: null, updatedAt: now });
    await tx.nativeDelete(KnowledgeCollection, { id: collection.id, workspaceId: collection.workspaceId });
  });
}

/** Collections by id (null for an unknown id), in the order of `ids`, with their source counts. */
export async function loadCollections(ctx: ServiceContext, ids: readonly string[]): Promise<(CollectionDto | null)[]> {
  const found = await ctx.em.find(KnowledgeCollection, { workspaceId: ctx.caller.workspace.id, id: { $in: [...ids] } });
  const dtos = await withSourceCounts(ctx, found);
  return ids.map((id) => dtos.find((c) => c.id === id) ?? null);
}
