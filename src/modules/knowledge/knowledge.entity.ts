import { defineEntity, p } from '@mikro-orm/core';

export const COLLECTION_KINDS = ['collection', 'dossier'] as const;
export type CollectionKind = (typeof COLLECTION_KINDS)[number];

export const SOURCE_STATUSES = ['ingesting', 'ready', 'failed'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

const KnowledgeCollectionSchema = defineEntity({
  name: 'KnowledgeCollection',
  tableName: 'knowledge_collection',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    userId: p.string(),
    name: p.text(),
    description: p.text(),
    /** `dossier`: a named folder of documents for one matter (dossiers.service.ts); `collection` otherwise. */
    kind: p.string().$type<CollectionKind>().default('collection'),
    /** A dossier's client, removed from web queries (light module). */
    clientName: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
/** A named group of sources; of kind `dossier` it is a dossier; its name is `dossierName` of knowledge items. */
export class KnowledgeCollection extends KnowledgeCollectionSchema.class {}
KnowledgeCollectionSchema.setClass(KnowledgeCollection);

const KnowledgeSourceSchema = defineEntity({
  name: 'KnowledgeSource',
  tableName: 'knowledge_source',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    /** The uploader: knowledge events go to this user's webhook endpoints. */
    userId: p.string(),
    collectionId: p.string().nullable(),
    /** Display name (the file name unless the client gave one); renamable. */
    name: p.text(),
    /** The file name as uploaded (null: same as `name`); ingestion reads the format from it. */
    filename: p.text().nullable(),
    mimeType: p.string(),
    sizeBytes: p.integer(),
    sha256: p.string(),
    format: p.string().nullable(),
    title: p.text().nullable(),
    status: p.string().$type<SourceStatus>(),
    error: p.text().nullable(),
    chunkCount: p.integer(),
    factCount: p.integer(),
    contradictionCount: p.integer(),
    qaCount: p.integer(),
    ingestedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
/** An uploaded document. Its bytes live in `knowledge_document`, its passages in `knowledge_chunk`. */
export class KnowledgeSource extends KnowledgeSourceSchema.class {}
KnowledgeSourceSchema.setClass(KnowledgeSource);

/** The file name as uploaded (the display name for rows written without it). */
export const uploadedName = (s: KnowledgeSource): string => s.filename ?? s.name;

const KnowledgeFactSchema = defineEntity({
  name: 'KnowledgeFact',
  tableName: 'knowledge_fact',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    sourceId: p.string(),
    chunkId: p.string().nullable(),
    subject: p.text(),
    /** normalizeSubject(subject): the comparison key. */
    subjectKey: p.text(),
    value: p.text(),
    /** `YYYY-MM-DD`, last day the fact holds. */
    validUntil: p.string().columnType('date').nullable(),
    statement: p.text(),
    staleNotifiedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export class KnowledgeFact extends KnowledgeFactSchema.class {}
KnowledgeFactSchema.setClass(KnowledgeFact);

const KnowledgeContradictionSchema = defineEntity({
  name: 'KnowledgeContradiction',
  tableName: 'knowledge_contradiction',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    newFactId: p.string(),
    existingFactId: p.string(),
    severity: p.string().$type<'low' | 'medium' | 'high'>(),
    createdAt: p.datetime(),
  },
});
export class KnowledgeContradiction extends KnowledgeContradictionSchema.class {}
KnowledgeContradictionSchema.setClass(KnowledgeContradiction);

const KnowledgeQaPairSchema = defineEntity({
  name: 'KnowledgeQaPair',
  tableName: 'knowledge_qa_pair',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    sourceId: p.string(),
    chunkId: p.string().nullable(),
    question: p.text(),
    answer: p.text(),
    createdAt: p.datetime(),
  },
});
export class KnowledgeQaPair extends KnowledgeQaPairSchema.class {}
KnowledgeQaPairSchema.setClass(KnowledgeQaPair);

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const IngestionJobSchema = defineEntity({
  name: 'IngestionJob',
  tableName: 'knowledge_ingestion_job',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    sourceId: p.string(),
    status: p.string().$type<JobStatus>(),
    attempts: p.integer(),
    workerId: p.string().nullable(),
    leaseExpiresAt: p.datetime().nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
  },
});
/** The persisted ingestion of one source; see ingestion.worker.ts for the claim and lease rules. */
export class IngestionJob extends IngestionJobSchema.class {}
IngestionJobSchema.setClass(IngestionJob);

export type LinkTargetKind = 'source' | 'collection';

const AgentKnowledgeLinkSchema = defineEntity({
  name: 'AgentKnowledgeLink',
  tableName: 'agent_knowledge_link',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    agentId: p.string(),
    targetKind: p.string().$type<LinkTargetKind>(),
    targetId: p.string(),
    createdAt: p.datetime(),
  },
});
/** A source or a collection an agent reads in its turns; mirrored into the agent's `collectionScope`. */
export class AgentKnowledgeLink extends AgentKnowledgeLinkSchema.class {}
AgentKnowledgeLinkSchema.setClass(AgentKnowledgeLink);

/**
 * A passage of a ready source. Written and searched with SQL (knowledge.repository.ts): `searchVector` is
 * the full-text vector PostgreSQL ranks, never read into the process.
 */
const KnowledgeChunkSchema = defineEntity({
  name: 'KnowledgeChunk',
  tableName: 'knowledge_chunk',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    sourceId: p.string(),
    ordinal: p.integer(),
    section: p.text(),
    page: p.integer(),
    text: p.text(),
    tokenEstimate: p.integer(),
    searchVector: p.string().columnType('tsvector').lazy(),
    createdAt: p.datetime(),
  },
});
export class KnowledgeChunk extends KnowledgeChunkSchema.class {}
KnowledgeChunkSchema.setClass(KnowledgeChunk);

/** A passage's embedding (little-endian float32), when an embeddings endpoint is configured (vector-store.ts). */
const KnowledgeChunkEmbeddingSchema = defineEntity({
  name: 'KnowledgeChunkEmbedding',
  tableName: 'knowledge_chunk_embedding',
  properties: {
    chunkId: p.string().primary(),
    workspaceId: p.string(),
    model: p.text(),
    dims: p.integer(),
    embedding: p.blob().lazy(),
    createdAt: p.datetime(),
  },
});
export class KnowledgeChunkEmbedding extends KnowledgeChunkEmbeddingSchema.class {}
KnowledgeChunkEmbeddingSchema.setClass(KnowledgeChunkEmbedding);

/** The uploaded bytes of a source, kept apart so that listing sources never reads them. */
const KnowledgeDocumentSchema = defineEntity({
  name: 'KnowledgeDocument',
  tableName: 'knowledge_document',
  properties: {
    sourceId: p.string().primary(),
    workspaceId: p.string(),
    content: p.blob().lazy(),
  },
});
export class KnowledgeDocument extends KnowledgeDocumentSchema.class {}
KnowledgeDocumentSchema.setClass(KnowledgeDocument);

export const knowledgeEntities = [
  KnowledgeCollection,
  KnowledgeSource,
  KnowledgeFact,
  KnowledgeContradiction,
  KnowledgeQaPair,
  IngestionJob,
  AgentKnowledgeLink,
  KnowledgeChunk,
  KnowledgeChunkEmbedding,
  KnowledgeDocument,
];
