/** Knowledge sources: the upload, its reads and edits, and its deletion. */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { documentLimitFor, subscriptionState } from '../usage/index.js';
import { wakeIngestion } from './ingestion.worker.js';
import { findDossier, unknownDossier } from './dossiers.service.js';
import { IngestionJob, KnowledgeChunk, KnowledgeSource, uploadedName } from './knowledge.entity.js';
import { findCollection, findSource, sourceNotFound, unknownCollection } from './knowledge.lookup.js';
import { readDocument, storeDocument } from './knowledge.repository.js';
import {
  ListSourcesSchema,
  MAX_UPLOAD_BYTES,
  UpdateSourceSchema,
  UploadBase64Schema,
  UploadNameSchema,
  type SourceDto,
} from './knowledge.schemas.js';
import { removeLinksTo } from './links.service.js';

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

/** What the multipart reader hands over once the whole upload has streamed in under the cap. */
export interface UploadedFile {
  filename: string;
  mimeType: string;
  bytes: Buffer;
  collectionId?: string;
  /** A dossier to upload into (a collection of kind `dossier`); with `collectionId`, both must name it. */
  dossierId?: string;
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
  const ws = ctx.caller.workspace;
  if (!subscriptionState(ws, ctx.clock.now()).active) throw errors.subscriptionInactive();
  const limit = documentLimitFor(ws);
  const used = await ctx.em.count(KnowledgeSource, { workspaceId: ws.id });
  if (used >= limit) throw errors.documentLimit(limit, used);

  const file = await read(MAX_UPLOAD_BYTES);
  const name = UploadNameSchema.safeParse(file.name);
  if (!name.success) throw errors.validation('name', name.error.issues[0].message);
  let collectionId = file.collectionId?.trim() || null;
  if (collectionId && !(await findCollection(ctx, collectionId))) throw unknownCollection();
  const dossierId = file.dossierId?.trim() || null;
  if (dossierId) {
    if (!(await findDossier(ctx, dossierId))) throw unknownDossier();
    if (collectionId && collectionId !== dossierId) throw errors.validation('dossierId', 'dossierId and collectionId name different collections');
    collectionId = dossierId;
  }

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

/**
 * The reader for a document sent as base64 (GraphQL): the same checks as the multipart reader (a file
 * name without folders, the size cap) before `uploadSource` stores it.
 */
export function base64Upload(input: unknown): UploadReader {
  return async (maxBytes) => {
    const data = UploadBase64Schema.parse(input);
    if (Math.floor((data.contentBase64.length * 3) / 4) > maxBytes + 2) {
      throw errors.payloadTooLarge(`File too large: the limit is ${maxBytes} bytes (25 MB)`);
    }
    const bytes = Buffer.from(data.contentBase64, 'base64');
    if (bytes.length > maxBytes) throw errors.payloadTooLarge(`File too large: the limit is ${maxBytes} bytes (25 MB)`);
    const filename = basename(data.filename.replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '').trim() || 'upload';
    return {
      filename,
      mimeType: data.mimeType?.trim() || 'application/octet-stream',
      bytes,
      ...(data.collectionId ? { collectionId: data.collectionId } : {}),
      ...(data.name ? { name: data.name } : {}),
    };
  };
}

export async function listSources(ctx: ServiceContext, input: unknown = {}): Promise<KnowledgeSource[]> {
  const q = ListSourcesSchema.parse(input ?? {});
  return ctx.em.find(
    KnowledgeSource,
    { workspaceId: ctx.caller.workspace.id, ...(q.collectionId ? { collectionId: q.collectionId } : {}), ...(q.status ? { status: q.status } : {}) },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
}

export async function getSource(ctx: ServiceContext, id: string): Promise<KnowledgeSource> {
  return findSource(ctx, id);
}

export async function updateSource(ctx: ServiceContext, id: string, input: unknown): Promise<KnowledgeSource> {
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

/** Passages a document preview shows at most (a long document's first ones). */
export const PREVIEW_PASSAGES = 500;

/** A document's passages in reading order, for its preview (what search and citations point into). */
export async function listPassages(ctx: ServiceContext, id: string): Promise<KnowledgeChunk[]> {
  const source = await findSource(ctx, id);
  return ctx.em.find(
    KnowledgeChunk,
    { sourceId: source.id, workspaceId: source.workspaceId },
    { orderBy: { ordinal: 'asc' }, limit: PREVIEW_PASSAGES },
  );
}

/** The uploaded bytes, as received. */
export async function getOriginalDocument(ctx: ServiceContext, id: string): Promise<{ source: KnowledgeSource; content: Buffer }> {
  const source = await findSource(ctx, id);
  const content = await readDocument(ctx.em, { sourceId: source.id, workspaceId: source.workspaceId });
  if (!content) throw sourceNotFound(id);
  return { source, content };
}

/** Deletes the source with its bytes, passages, facts, Q&A pairs and job; agents linked to it lose the link. */
export async function deleteSource(ctx: ServiceContext, id: string): Promise<void> {
  const source = await findSource(ctx, id);
  await ctx.em.transactional(async (tx) => {
    await removeLinksTo(tx, source.workspaceId, [source.id], ctx.clock.now());
    await tx.nativeDelete(KnowledgeSource, { id: source.id, workspaceId: source.workspaceId });
  });
}

/** Sources of each collection, newest first, in the order of `collectionIds`. */
export async function loadSourcesByCollection(ctx: ServiceContext, collectionIds: readonly string[]): Promise<KnowledgeSource[][]> {
  const sources = await ctx.em.find(
    KnowledgeSource,
    { workspaceId: ctx.caller.workspace.id, collectionId: { $in: [...collectionIds] } },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  return collectionIds.map((id) => sources.filter((s) => s.collectionId === id));
}
