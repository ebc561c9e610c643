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
  type ListSourcesInput,
  SourceDtoSchema,
  UpdateCollectionSchema,
  UpdateSourceSchema,
} from '../../src/modules/knowledge/index.js';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  updateCollection,
  withSourceCounts,
} from '../../src/modules/knowledge/index.js';
import { getAgentKnowledge, linkKnowledge, unlinkKnowledge } from '../../src/modules/knowledge/index.js';
import { queryKnowledge } from '../../src/modules/knowledge/index.js';
import {
  deleteSource,
  getOriginalDocument,
  getSource,
  listSources,
  toSourceDto,
  updateSource,
  uploadSource,
} from '../../src/modules/knowledge/index.js';
import { uploadedName } from '../../src/modules/knowledge/index.js';
import { readMultipartUpload, UploadFormSchema } from '../multipart-upload.js';
import { mount, param } from '../route.js';

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
  const base = { tag: 'knowledge', scope: 'knowledge' } as const;

  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/knowledge-sources/upload',
    summary: 'Upload a document (multipart: file, optional collectionId and name); ingestion runs in the background',
    rateLimit: 'upload',
    body: UploadFormSchema,
    bodyType: 'multipart',
    responses: {
      202: { description: 'Accepted: the source, in ingesting state', schema: SourceReply },
      400: { description: 'No file part, malformed multipart, or Collection not found' },
      402: { description: 'Document volume reached (DOCUMENT_LIMIT) or subscription inactive' },
      413: { description: 'File over 25 MB' },
    },
    handler: async (ctx, req, res) => ({
      status: 202,
      body: { source: toSourceDto(await uploadSource(ctx, (max) => readMultipartUpload(req, res, max))) },
    }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/knowledge-sources',
    summary: 'List the sources of the workspace, newest first (?collectionId=, ?status=ingesting|ready|failed)',
    query: ListSourcesSchema,
    responses: { 200: { description: 'Sources', schema: z.object({ sources: z.array(SourceDtoSchema) }) } },
    handler: async (ctx, req) => {
      // Passed as received: the service's schema refuses a repeated parameter (an array) with a 400 naming it.
      const filter = { collectionId: req.query.collectionId, status: req.query.status } as ListSourcesInput;
      return { status: 200, body: { sources: (await listSources(ctx, filter)).map(toSourceDto) } };
    },
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/knowledge-sources/:id',
    summary: 'Read a source (its ingestion state and counts)',
    responses: { 200: { description: 'Source', schema: SourceReply }, 404: { description: 'Unknown source' } },
    handler: async (ctx, req) => ({ status: 200, body: { source: toSourceDto(await getSource(ctx, param(req, 'id'))) } }),
  });
  mount(r, app, {
    ...base,
    method: 'put',
    path: '/v1/knowledge-sources/:id',
    summary: 'Rename a source or move it to a collection (collectionId null takes it out)',
    body: UpdateSourceSchema,
    responses: {
      200: { description: 'Updated', schema: SourceReply },
      400: { description: 'Collection not found, or a wrong type' },
      404: { description: 'Unknown source' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { source: toSourceDto(await updateSource(ctx, param(req, 'id'), req.body)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/v1/knowledge-sources/:id',
    summary: 'Delete a source with its passages and facts',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown source' } },
    handler: async (ctx, req) => {
      await deleteSource(ctx, param(req, 'id'));
      return { status: 204 };
    },
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/knowledge-sources/:id/original',
    summary: 'Download the original document, byte for byte',
    responses: { 200: { description: 'The uploaded bytes (attachment)' }, 404: { description: 'Unknown source' } },
    handler: async (ctx, req, res) => {
      const { source, content } = await getOriginalDocument(ctx, param(req, 'id'));
      res.status(200);
      res.setHeader('Content-Type', /^[\w.+-]+\/[\w.+-]+$/.test(source.mimeType) ? source.mimeType : 'application/octet-stream');
      res.setHeader('Content-Length', String(content.length));
      res.setHeader('Content-Disposition', contentDisposition(uploadedName(source)));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.end(content);
    },
  });

  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/knowledge-collections',
    summary: 'Create a collection of sources',
    body: CreateCollectionSchema,
    responses: { 201: { description: 'Created', schema: CollectionReply }, 400: { description: 'Missing name' } },
    handler: async (ctx, req) => {
      const [dto] = await withSourceCounts(ctx, [await createCollection(ctx, req.body)]);
      return { status: 201, body: { collection: dto } };
    },
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/knowledge-collections',
    summary: 'List the collections, oldest first, with their source counts',
    responses: { 200: { description: 'Collections', schema: z.object({ collections: z.array(CollectionDtoSchema) }) } },
    handler: async (ctx) => ({ status: 200, body: { collections: await withSourceCounts(ctx, await listCollections(ctx)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/knowledge-collections/:id',
    summary: 'Read a collection',
    responses: { 200: { description: 'Collection', schema: CollectionReply }, 404: { description: 'Unknown collection' } },
    handler: async (ctx, req) => {
      const [dto] = await withSourceCounts(ctx, [await getCollection(ctx, param(req, 'id'))]);
      return { status: 200, body: { collection: dto } };
    },
  });
  mount(r, app, {
    ...base,
    method: 'put',
    path: '/v1/knowledge-collections/:id',
    summary: 'Rename a collection or change its description',
    body: UpdateCollectionSchema,
    responses: { 200: { description: 'Updated', schema: CollectionReply }, 404: { description: 'Unknown collection' } },
    handler: async (ctx, req) => {
      const [dto] = await withSourceCounts(ctx, [await updateCollection(ctx, param(req, 'id'), req.body)]);
      return { status: 200, body: { collection: dto } };
    },
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/v1/knowledge-collections/:id',
    summary: 'Delete a collection (its sources are kept, outside any collection)',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'Unknown collection' } },
    handler: async (ctx, req) => {
      await deleteCollection(ctx, param(req, 'id'));
      return { status: 204 };
    },
  });

  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/knowledge/agents/:agentId',
    summary: "An agent's linked sources and collections (its collectionScope)",
    responses: { 200: { description: 'Links', schema: KnowledgeReply }, 404: { description: 'Unknown agent' } },
    handler: async (ctx, req) => ({ status: 200, body: { knowledge: await getAgentKnowledge(ctx, param(req, 'agentId')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/knowledge/agents/:agentId/links',
    summary: 'Link a source ({ sourceId }) or a collection ({ collectionId }) to an agent',
    body: LinkKnowledgeSchema,
    responses: {
      200: { description: 'Links after the change', schema: KnowledgeReply },
      400: { description: 'Neither or both ids, Collection not found, Knowledge source not found' },
      404: { description: 'Unknown agent' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { knowledge: await linkKnowledge(ctx, param(req, 'agentId'), req.body) } }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/v1/knowledge/agents/:agentId/links/:targetId',
    summary: 'Unlink a source or a collection from an agent',
    responses: { 204: { description: 'Unlinked' }, 404: { description: 'Unknown agent or no such link' } },
    handler: async (ctx, req) => {
      await unlinkKnowledge(ctx, param(req, 'agentId'), param(req, 'targetId'));
      return { status: 204 };
    },
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/knowledge/query',
    summary: 'Ranked passages for a query (same items as knowledgeUsed, plus the passage text)',
    write: false,
    rateLimit: 'knowledgeQuery',
    body: KnowledgeQuerySchema,
    responses: {
      200: { description: 'Ranked passages, best first', schema: z.object({ results: z.array(KnowledgeItemSchema) }) },
      400: { description: 'Missing query, topK out of 1..20, Collection not found' },
      404: { description: 'Unknown agent' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { results: await queryKnowledge(ctx, req.body) } }),
  });
  return r;
}
