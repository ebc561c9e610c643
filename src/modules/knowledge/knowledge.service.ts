import { createHash } from 'node:crypto';
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { Agent } from '../agents/agent.entity.js';
import { findAgent } from '../agents/agents.service.js';
import { authorize } from '../keys/access.js';
import { documentLimitFor, subscriptionState } from '../usage/plans.js';
import { wakeIngestion } from './ingestion.worker.js';
import { AgentKnowledgeLink, IngestionJob, KnowledgeCollection, KnowledgeSource, uploadedName } from './knowledge.entity.js';
import { agentScope, readDocument, searchChunks, storeDocument, type SearchScope } from './knowledge.repository.js';
import {
  CreateCollectionSchema,
  KnowledgeQuerySchema,
  LinkKnowledgeSchema,
  ListSourcesSchema,
  MAX_UPLOAD_BYTES,
  UpdateCollectionSchema,
  UpdateSourceSchema,
  UploadNameSchema,
  type AgentKnowledgeDto,
  type CollectionDto,
  type CreateCollectionInput,
  type KnowledgeQueryInput,
  type LinkKnowledgeInput,
  type ListSourcesInput,
  type SourceDto,
  type UpdateCollectionInput,
  type UpdateSourceInput,
} from './knowledge.schemas.js';
import { previewOf } from './search-text.js';
import { topKFor } from '../chat/retrieval.js';
import type { KnowledgeUsedItem } from '../chat/turn-extensions.js';

const READ = { scope: 'knowledge' } as const;
const WRITE = { scope: 'knowledge', write: true } as const;

export const sourceNotFound = (id: string) => errors.notFound(`Knowledge source not found: ${id}`);
export const collectionNotFound = (id: string) => errors.notFound(`Collection not found: ${id}`);
/** SPEC: a `collectionId` naming no collection of the workspace is a 400 with this text. */
const unknownCollection = () => errors.badRequest('Collection not found', { field: 'collectionId' });

export function toSourceDto(s: KnowledgeSource): SourceDto {
  return {
    id: s.id,
    name: s.name,
    filename: uploadedName(s),
    mimeType: s.mimeType,
    sizeBytes: s.sizeBytes,
    sha256: s.sha256,
    format: s.format ?? null,
    title: s.title ?? null,
    status: s.status,
    error: s.error ?? null,
    collectionId: s.collectionId ?? null,
    userId: s.userId,
    chunkCount: s.chunkCount,
    factCount: s.factCount,
    contradictionCount: s.contradictionCount,
    qaCount: s.qaCount,
    ingestedAt: s.ingestedAt ? s.ingestedAt.toISOString() : null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

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

// ---------------------------------------------------------------------------------------------- sources

/**
 * An id from a path, a form field or a body that no row can have (ids are at most 64 characters, and
 * PostgreSQL text holds no NUL): absent, rather than a database error.
 */
const impossibleId = (id: string): boolean => id.length > 64 || id.includes('\u0000');

export async function findSource(ctx: ServiceContext, id: string): Promise<KnowledgeSource> {
  const source = impossibleId(id) ? null : await ctx.em.findOne(KnowledgeSource, { id, workspaceId: ctx.caller.workspace.id });
  if (!source) throw sourceNotFound(id);
  return source;
}

async function findCollection(ctx: ServiceContext, id: string): Promise<KnowledgeCollection | null> {
  if (impossibleId(id)) return null;
  return ctx.em.findOne(KnowledgeCollection, { id, workspaceId: ctx.caller.workspace.id });
}

/** What the multipart reader hands over once the whole upload has streamed in under the cap. */
export interface UploadedFile {
  filename: string;
  mimeType: string;
  bytes: Buffer;
  collectionId?: string;
  /** Optional display name (defaults to the file name). */
  name?: string;
}

/** Reads the request body; throws 400 (no `file`, malformed multipart) or 413 (over `maxBytes`, found while streaming). */
export type UploadReader = (maxBytes: number) => Promise<UploadedFile>;

/**
 * Stores the upload and queues its ingestion, answering at once with the source in `ingesting` state.
 * Everything that can refuse without the body (scope, read-only, subscription, document volume) is
 * checked before a byte is read. Ingestion runs in the background and consumes no questions.
 */
export async function uploadSource(ctx: ServiceContext, read: UploadReader): Promise<KnowledgeSource> {
  authorize(ctx, WRITE);
  const ws = ctx.caller.workspace;
  if (!subscriptionState(ws, ctx.clock.now()).active) throw errors.subscriptionInactive();
  const limit = documentLimitFor(ws);
  const used = await ctx.em.count(KnowledgeSource, { workspaceId: ws.id });
  if (used >= limit) throw errors.documentLimit(limit, used);

  const file = await read(MAX_UPLOAD_BYTES);
  const name = UploadNameSchema.safeParse(file.name);
  if (!name.success) throw errors.badRequest(name.error.issues[0].message, { field: 'name' });
  const collectionId = file.collectionId?.trim() || null;
  if (collectionId && !(await findCollection(ctx, collectionId))) throw unknownCollection();

  const now = ctx.clock.now();
  const source = await ctx.em.transactional(async (tx) => {
    const created = tx.create(KnowledgeSource, {
      id: newId('ksrc'),
      workspaceId: ws.id,
      userId: ctx.caller.user.id,
      collectionId,
      name: name.data?.trim() || file.filename,
      filename: file.filename,
      mimeType: file.mimeType,
      sizeBytes: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      format: null,
      title: null,
      status: 'ingesting',
      error: null,
      chunkCount: 0,
      factCount: 0,
      contradictionCount: 0,
      qaCount: 0,
      ingestedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    tx.create(IngestionJob, {
      id: newId('kjob'),
      workspaceId: ws.id,
      sourceId: created.id,
      status: 'queued',
      attempts: 0,
      workerId: null,
      leaseExpiresAt: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    });
    await tx.flush();
    await storeDocument(tx, { sourceId: created.id, workspaceId: ws.id, content: file.bytes });
    return created;
  });
  wakeIngestion(ctx.app);
  return source;
}

export async function listSources(ctx: ServiceContext, input: ListSourcesInput = {}): Promise<KnowledgeSource[]> {
  authorize(ctx, READ);
  const q = ListSourcesSchema.parse(input ?? {});
  return ctx.em.find(
    KnowledgeSource,
    { workspaceId: ctx.caller.workspace.id, ...(q.collectionId ? { collectionId: q.collectionId } : {}), ...(q.status ? { status: q.status } : {}) },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
}

export async function getSource(ctx: ServiceContext, id: string): Promise<KnowledgeSource> {
  authorize(ctx, READ);
  return findSource(ctx, id);
}

export async function updateSource(ctx: ServiceContext, id: string, input: UpdateSourceInput): Promise<KnowledgeSource> {
  authorize(ctx, WRITE);
  const data = UpdateSourceSchema.parse(input ?? {});
  const source = await findSource(ctx, id);
  if (data.name !== undefined && data.name !== null) source.name = data.name.trim();
  if (data.collectionId === null) source.collectionId = null;
  else if (data.collectionId !== undefined) {
    if (!(await findCollection(ctx, data.collectionId))) throw unknownCollection();
    source.collectionId = data.collectionId;
  }
  source.updatedAt = ctx.clock.now();
  await ctx.em.flush();
  return source;
}

/** The uploaded bytes, as received. */
export async function getOriginalDocument(ctx: ServiceContext, id: string): Promise<{ source: KnowledgeSource; content: Buffer }> {
  authorize(ctx, READ);
  const source = await findSource(ctx, id);
  const content = await readDocument(ctx.em, { sourceId: source.id, workspaceId: source.workspaceId });
  if (!content) throw sourceNotFound(id);
  return { source, content };
}

/** Deletes the source with its bytes, passages, facts, Q&A pairs and job; agents linked to it lose the link. */
export async function deleteSource(ctx: ServiceContext, id: string): Promise<void> {
  authorize(ctx, WRITE);
  const source = await findSource(ctx, id);
  await ctx.em.transactional(async (tx) => {
    await removeLinksTo(tx, source.workspaceId, [source.id], ctx.clock.now());
    await tx.nativeDelete(KnowledgeSource, { id: source.id, workspaceId: source.workspaceId });
  });
}

// ------------------------------------------------------------------------------------------ collections

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

export async function createCollection(ctx: ServiceContext, input: CreateCollectionInput): Promise<KnowledgeCollection> {
  authorize(ctx, WRITE);
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
  authorize(ctx, READ);
  return ctx.em.find(KnowledgeCollection, { workspaceId: ctx.caller.workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function getCollection(ctx: ServiceContext, id: string): Promise<KnowledgeCollection> {
  authorize(ctx, READ);
  const collection = await findCollection(ctx, id);
  if (!collection) throw collectionNotFound(id);
  return collection;
}

export async function updateCollection(ctx: ServiceContext, id: string, input: UpdateCollectionInput): Promise<KnowledgeCollection> {
  authorize(ctx, WRITE);
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
  authorize(ctx, WRITE);
  const collection = await findCollection(ctx, id);
  if (!collection) throw collectionNotFound(id);
  const now = ctx.clock.now();
  await ctx.em.transactional(async (tx) => {
    await removeLinksTo(tx, collection.workspaceId, [collection.id], now);
    await tx.nativeUpdate(KnowledgeSource, { workspaceId: collection.workspaceId, collectionId: collection.id }, { collectionId: null, updatedAt: now });
    await tx.nativeDelete(KnowledgeCollection, { id: collection.id, workspaceId: collection.workspaceId });
  });
}

// ---------------------------------------------------------------------------------------- agent links

/** Recomputes `collectionScope` (linked ids, in link order) of the given agents from the link table. */
async function syncCollectionScope(em: ServiceContext['em'], workspaceId: string, agentIds: string[], now: Date): Promise<void> {
  for (const agentId of new Set(agentIds)) {
    const links = await em.find(AgentKnowledgeLink, { workspaceId, agentId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    await em.nativeUpdate(Agent, { id: agentId, workspaceId }, { collectionScope: links.map((l) => l.targetId), updatedAt: now });
  }
}

async function removeLinksTo(em: ServiceContext['em'], workspaceId: string, targetIds: string[], now: Date): Promise<void> {
  const links = await em.find(AgentKnowledgeLink, { workspaceId, targetId: { $in: targetIds } });
  if (links.length === 0) return;
  await em.nativeDelete(AgentKnowledgeLink, { workspaceId, targetId: { $in: targetIds } });
  await syncCollectionScope(em, workspaceId, links.map((l) => l.agentId), now);
}

async function agentKnowledge(ctx: ServiceContext, agent: Agent): Promise<AgentKnowledgeDto> {
  const links = await ctx.em.find(AgentKnowledgeLink, { workspaceId: agent.workspaceId, agentId: agent.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return {
    agentId: agent.id,
    sourceIds: links.filter((l) => l.targetKind === 'source').map((l) => l.targetId),
    collectionIds: links.filter((l) => l.targetKind === 'collection').map((l) => l.targetId),
    collectionScope: links.map((l) => l.targetId),
  };
}

export async function getAgentKnowledge(ctx: ServiceContext, agentId: string): Promise<AgentKnowledgeDto> {
  authorize(ctx, READ);
  return agentKnowledge(ctx, await findAgent(ctx, agentId));
}

/** Links a source or a collection to an agent (idempotent); its turns then read it. */
export async function linkKnowledge(ctx: ServiceContext, agentId: string, input: LinkKnowledgeInput): Promise<AgentKnowledgeDto> {
  authorize(ctx, WRITE);
  const data = LinkKnowledgeSchema.parse(input ?? {});
  const agent = await findAgent(ctx, agentId);
  const ws = ctx.caller.workspace.id;
  let target: { kind: 'source' | 'collection'; id: string };
  if (data.collectionId) {
    if (!(await findCollection(ctx, data.collectionId))) throw unknownCollection();
    target = { kind: 'collection', id: data.collectionId };
  } else {
    const id = data.sourceId as string;
    if (!(await ctx.em.findOne(KnowledgeSource, { id, workspaceId: ws }))) {
      throw errors.badRequest('Knowledge source not found', { field: 'sourceId' });
    }
    target = { kind: 'source', id };
  }
  const now = ctx.clock.now();
  await ctx.em.transactional(async (tx) => {
    const existing = await tx.findOne(AgentKnowledgeLink, { workspaceId: ws, agentId: agent.id, targetId: target.id });
    if (existing) return;
    tx.create(AgentKnowledgeLink, { id: newId('klnk'), workspaceId: ws, agentId: agent.id, targetKind: target.kind, targetId: target.id, createdAt: now });
    await tx.flush();
    await syncCollectionScope(tx, ws, [agent.id], now);
  });
  return agentKnowledge(ctx, agent);
}

/** Removes the link to a source or collection; 404 when the agent has no such link. */
export async function unlinkKnowledge(ctx: ServiceContext, agentId: string, targetId: string): Promise<AgentKnowledgeDto> {
  authorize(ctx, WRITE);
  const agent = await findAgent(ctx, agentId);
  const ws = ctx.caller.workspace.id;
  if (impossibleId(targetId)) throw errors.notFound(`Knowledge link not found: ${targetId}`);
  const removed = await ctx.em.transactional(async (tx) => {
    const n = await tx.nativeDelete(AgentKnowledgeLink, { workspaceId: ws, agentId: agent.id, targetId });
    if (n > 0) await syncCollectionScope(tx, ws, [agent.id], ctx.clock.now());
    return n;
  });
  if (removed === 0) throw errors.notFound(`Knowledge link not found: ${targetId}`);
  return agentKnowledge(ctx, agent);
}

// --------------------------------------------------------------------------------------------- search

/** Search hits as knowledge items numbered 1..n (`ref`), best first. */
export async function searchItems(
  ctx: Pick<ServiceContext, 'em'>,
  opts: { workspaceId: string; query: string; topK: number; scope: SearchScope },
): Promise<KnowledgeUsedItem[]> {
  const hits = await searchChunks(ctx.em, opts);
  return hits.map((h, i) => ({
    ref: i + 1,
    sourceId: h.sourceId,
    sourceName: h.sourceName,
    section: h.section,
    page: h.page,
    chunkPreview: previewOf(h.text),
    similarity: Math.round(h.rank * 10_000) / 10_000,
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
export async function queryKnowledge(ctx: ServiceContext, input: KnowledgeQueryInput): Promise<KnowledgeUsedItem[]> {
  authorize(ctx, READ);
  const q = KnowledgeQuerySchema.parse(input ?? {});
  const workspaceId = ctx.caller.workspace.id;
  const ids = { sourceIds: [...new Set(q.sourceIds ?? [])], collectionIds: [...new Set(q.collectionIds ?? [])] };
  const explicit = ids.sourceIds.length > 0 || ids.collectionIds.length > 0;
  if (q.agentId && explicit) throw errors.badRequest('agentId cannot be combined with sourceIds or collectionIds', { field: 'agentId' });
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

// ------------------------------------------------------------------------------ batch reads (GraphQL)

/** Sources of each collection, newest first, in the order of `collectionIds`. */
export async function loadSourcesByCollection(ctx: ServiceContext, collectionIds: readonly string[]): Promise<KnowledgeSource[][]> {
  authorize(ctx, READ);
  const sources = await ctx.em.find(
    KnowledgeSource,
    { workspaceId: ctx.caller.workspace.id, collectionId: { $in: [...collectionIds] } },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  return collectionIds.map((id) => sources.filter((s) => s.collectionId === id));
}

/** Collections by id (null for an unknown id), in the order of `ids`, with their source counts. */
export async function loadCollections(ctx: ServiceContext, ids: readonly string[]): Promise<(CollectionDto | null)[]> {
  authorize(ctx, READ);
  const found = await ctx.em.find(KnowledgeCollection, { workspaceId: ctx.caller.workspace.id, id: { $in: [...ids] } });
  const dtos = await withSourceCounts(ctx, found);
  return ids.map((id) => dtos.find((c) => c.id === id) ?? null);
}
