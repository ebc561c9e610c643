import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import {
  AgentKnowledgeDtoSchema,
  CollectionDtoSchema,
  CreateCollectionSchema,
  KnowledgeItemSchema,
  KnowledgeQuerySchema,
  LinkKnowledgeSchema,
  ListSourcesSchema,
  SourceDtoSchema,
  UpdateCollectionSchema,
  UpdateSourceSchema,
} from '../../src/modules/knowledge/index.js';
import {
  createCollectionOp,
  deleteCollectionOp,
  deleteSourceOp,
  getAgentKnowledgeOp,
  getCollectionOp,
  getOriginalOp,
  getSourceOp,
  linkKnowledgeOp,
  listCollectionsOp,
  listSourcesOp,
  queryKnowledgeOp,
  unlinkKnowledgeOp,
  updateCollectionOp,
  updateSourceOp,
  uploadSourceOp,
} from '../../src/modules/knowledge/index.js';
import { uploadedName } from '../../src/modules/knowledge/index.js';
import { readMultipartUpload, UploadFormSchema } from '../multipart-upload.js';
import { mountOperation, param } from '../route.js';

const SourceReply = z.object({ source: SourceDtoSchema });
const CollectionReply = z.object({ collection: CollectionDtoSchema });
const KnowledgeReply = z.object({ knowledge: AgentKnowledgeDtoSchema });

/** `attachment; filename="..."; filename*=UTF-8''...` (RFC 6266 / 5987). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function knowledgeRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'knowledge' } as const;

  mountOperation(r, app, uploadSourceOp, {
    ...base,
    summary: 'Upload a document (multipart: file, optional collectionId and name); ingestion runs in the background',
    body: UploadFormSchema,
    bodyType: 'multipart',
    responses: {
      202: { description: 'Accepted: the source, in ingesting state', schema: SourceReply },
      400: { description: 'No file part, malformed multipart, or Collection not found' },
      402: { description: 'Document volume reached (DOCUMENT_LIMIT) or subscription inactive' },
      413: { description: 'File over 25 MB' },
    },
    // The body is read by the service once everything that refuses without it has been checked.
    handler: async (_ctx, req, res, run) => ({ status: 202, body: { source: await run({ read: (max) => readMultipartUpload(req, res, max) }) } }),
  });
  mountOperation(r, app, listSourcesOp, {
    ...base,
    summary: 'List the sources of the workspace, newest first (?collectionId=, ?status=ingesting|ready|failed)',
    query: ListSourcesSchema,
    responses: { 200: { description: 'Sources', schema: z.object({ sources: z.array(SourceDtoSchema) }) } },
    // Passed as received: the service's schema refuses a repeated parameter (an array) with a 400 naming it.
    input: (req) => ({ filter: { collectionId: req.query.collectionId, status: req.query.status } }),
    reply: (sources) => ({ status: 200, body: { sources } }),
  });
  mountOperation(r, app, getSourceOp, {
    ...base,
    summary: 'Read a source (its ingestion state and counts)',
    responses: { 200: { description: 'Source', schema: SourceReply }, 404: { description: 'Unknown source' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (source) => ({ status: 200, body: { source } }),
  });
  mountOperation(r, app, updateSourceOp, {
    ...base,
    summary: 'Rename a source or move it to a collection (collectionId null takes it out)',
    body: UpdateSourceSchema,
    responses: {
      200: { description: 'Updated', schema: SourceReply },
      400: { description: 'Collection not found, or a wrong type' },
      404: { description: 'Unknown source' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (source) => ({ status: 200, body: { source } }),
  });
  mountOperation(r, app, deleteSourceOp, {
    ...base,
    summary: 'Delete a source with its passages and facts',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown source' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });
  mountOperation(r, app, getOriginalOp, {
    ...base,
    summary: 'Download the original document, byte for byte',
    responses: { 200: { description: 'The uploaded bytes (attachment)' }, 404: { description: 'Unknown source' } },
    handler: async (_ctx, req, res, run) => {
      const { source, content } = await run({ id: param(req, 'id') });
      res.status(200);
      res.setHeader('Content-Type', /^[\w.+-]+\/[\w.+-]+$/.test(source.mimeType) ? source.mimeType : 'application/octet-stream');
      res.setHeader('Content-Length', String(content.length));
      res.setHeader('Content-Disposition', contentDisposition(uploadedName(source)));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.end(content);
    },
  });

  mountOperation(r, app, createCollectionOp, {
    ...base,
    summary: 'Create a collection of sources',
    body: CreateCollectionSchema,
    responses: { 201: { description: 'Created', schema: CollectionReply }, 400: { description: 'Missing name' } },
    input: (req) => ({ body: req.body }),
    reply: (collection) => ({ status: 201, body: { collection } }),
  });
  mountOperation(r, app, listCollectionsOp, {
    ...base,
    summary: 'List the collections, oldest first, with their source counts',
    responses: { 200: { description: 'Collections', schema: z.object({ collections: z.array(CollectionDtoSchema) }) } },
    input: () => ({}),
    reply: (collections) => ({ status: 200, body: { collections } }),
  });
  mountOperation(r, app, getCollectionOp, {
    ...base,
    summary: 'Read a collection',
    responses: { 200: { description: 'Collection', schema: CollectionReply }, 404: { description: 'Unknown collection' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (collection) => ({ status: 200, body: { collection } }),
  });
  mountOperation(r, app, updateCollectionOp, {
    ...base,
    summary: 'Rename a collection or change its description',
    body: UpdateCollectionSchema,
    responses: { 200: { description: 'Updated', schema: CollectionReply }, 404: { description: 'Unknown collection' } },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (collection) => ({ status: 200, body: { collection } }),
  });
  mountOperation(r, app, deleteCollectionOp, {
    ...base,
    summary: 'Delete a collection (its sources are kept, outside any collection)',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown collection' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });

  mountOperation(r, app, getAgentKnowledgeOp, {
    ...base,
    summary: "An agent's linked sources and collections (its collectionScope)",
    responses: { 200: { description: 'Links', schema: KnowledgeReply }, 404: { description: 'Unknown agent' } },
    input: (req) => ({ agentId: param(req, 'agentId') }),
    reply: (knowledge) => ({ status: 200, body: { knowledge } }),
  });
  mountOperation(r, app, linkKnowledgeOp, {
    ...base,
    summary: 'Link a source ({ sourceId }) or a collection ({ collectionId }) to an agent',
    body: LinkKnowledgeSchema,
    responses: {
      200: { description: 'Links after the change', schema: KnowledgeReply },
      400: { description: 'Neither or both ids, Collection not found, Knowledge source not found' },
      404: { description: 'Unknown agent' },
    },
    input: (req) => ({ agentId: param(req, 'agentId'), body: req.body }),
    reply: (knowledge) => ({ status: 200, body: { knowledge } }),
  });
  mountOperation(r, app, unlinkKnowledgeOp, {
    ...base,
    summary: 'Unlink a source or a collection from an agent',
    responses: { 204: { description: 'Unlinked' }, 404: { description: 'Unknown agent or no such link' } },
    input: (req) => ({ agentId: param(req, 'agentId'), targetId: param(req, 'targetId') }),
    reply: () => ({ status: 204 }),
  });
  mountOperation(r, app, queryKnowledgeOp, {
    ...base,
    summary: 'Ranked passages for a query (same items as knowledgeUsed, plus the passage text)',
    body: KnowledgeQuerySchema,
    responses: {
      200: { description: 'Ranked passages, best first', schema: z.object({ results: z.array(KnowledgeItemSchema) }) },
      400: { description: 'Missing query, topK out of 1..20, Collection not found' },
      404: { description: 'Unknown agent' },
    },
    input: (req) => ({ body: req.body }),
    reply: (results) => ({ status: 200, body: { results } }),
  });
  return r;
}
