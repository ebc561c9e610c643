import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { createCollection, deleteCollection, getCollection, listCollections, updateCollection, withSourceCounts } from './collections.service.js';
import { createDossier, deleteDossier, getDossier, listDossiers, toDossierDto, toDossierDtos, updateDossier } from './dossiers.service.js';
import { getAgentKnowledge, linkKnowledge, unlinkKnowledge } from './links.service.js';
import { queryKnowledge } from './query.service.js';
import {
  deleteSource,
  getOriginalDocument,
  getSource,
  listPassages,
  listSources,
  toSourceDto,
  updateSource,
  uploadSource,
  type UploadReader,
} from './sources.service.js';

// The knowledge family's use cases (issue 29 §1): sources, collections, an agent's links, the search and
// the dossiers. rest/v1/knowledge.routes.ts, rest/v1/dossiers.routes.ts, knowledge.graphql.ts and
// dossiers.graphql.ts refer to these; the request pipeline admits the caller with their needs.
const READ = { scope: 'knowledge' } as const;
const WRITE = { scope: 'knowledge', write: true } as const;
const ById = z.object({ id: z.string() });
const Body = z.object({ body: z.unknown() });
const ByIdWithBody = ById.extend({ body: z.unknown() });
const ByAgent = z.object({ agentId: z.string() });

// ---- sources ----

/**
 * Stores an upload and queues its ingestion. `read` reads the document (REST: the multipart body,
 * streamed under the cap; GraphQL: the base64 input), called only once the caller is admitted.
 */
export const uploadSourceOp = defineOperation({
  name: 'knowledge.upload',
  route: 'POST /v1/knowledge-sources/upload',
  needs: { ...WRITE, rateLimit: 'upload' },
  input: z.object({ read: z.custom<UploadReader>((v) => typeof v === 'function') }),
  run: async (ctx, { read }) => toSourceDto(await uploadSource(ctx, read)),
});

/** `filter` is `{ collectionId?, status? }` as received: the service's schema refuses a repeated parameter. */
export const listSourcesOp = defineOperation({
  name: 'knowledge.sources',
  route: 'GET /v1/knowledge-sources',
  needs: READ,
  input: z.object({ filter: z.unknown() }),
  run: async (ctx, { filter }) => (await listSources(ctx, filter)).map(toSourceDto),
});

export const getSourceOp = defineOperation({
  name: 'knowledge.source',
  route: 'GET /v1/knowledge-sources/:id',
  needs: READ,
  input: ById,
  run: async (ctx, { id }) => toSourceDto(await getSource(ctx, id)),
});

export const updateSourceOp = defineOperation({
  name: 'knowledge.updateSource',
  route: 'PUT /v1/knowledge-sources/:id',
  needs: WRITE,
  input: ByIdWithBody,
  run: async (ctx, { id, body }) => toSourceDto(await updateSource(ctx, id, body)),
});

export const deleteSourceOp = defineOperation({
  name: 'knowledge.deleteSource',
  route: 'DELETE /v1/knowledge-sources/:id',
  needs: WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    await deleteSource(ctx, id);
    return true as const;
  },
});

/** The uploaded bytes and the source they belong to (REST sends them as an attachment). */
export const getOriginalOp = defineOperation({
  name: 'knowledge.original',
  route: 'GET /v1/knowledge-sources/:id/original',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => getOriginalDocument(ctx, id),
});

/** A document's first passages in reading order, for its preview (GraphQL `knowledgePassages`). */
export const listPassagesOp = defineOperation({
  name: 'knowledge.passages',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => listPassages(ctx, id),
});

// ---- collections ----

export const listCollectionsOp = defineOperation({
  name: 'knowledge.collections',
  route: 'GET /v1/knowledge-collections',
  needs: READ,
  input: z.object({}),
  run: async (ctx) => withSourceCounts(ctx, await listCollections(ctx)),
});

export const getCollectionOp = defineOperation({
  name: 'knowledge.collection',
  route: 'GET /v1/knowledge-collections/:id',
  needs: READ,
  input: ById,
  run: async (ctx, { id }) => (await withSourceCounts(ctx, [await getCollection(ctx, id)]))[0],
});

export const createCollectionOp = defineOperation({
  name: 'knowledge.createCollection',
  route: 'POST /v1/knowledge-collections',
  needs: WRITE,
  input: Body,
  run: async (ctx, { body }) => (await withSourceCounts(ctx, [await createCollection(ctx, body)]))[0],
});

export const updateCollectionOp = defineOperation({
  name: 'knowledge.updateCollection',
  route: 'PUT /v1/knowledge-collections/:id',
  needs: WRITE,
  input: ByIdWithBody,
  run: async (ctx, { id, body }) => (await withSourceCounts(ctx, [await updateCollection(ctx, id, body)]))[0],
});

export const deleteCollectionOp = defineOperation({
  name: 'knowledge.deleteCollection',
  route: 'DELETE /v1/knowledge-collections/:id',
  needs: WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    await deleteCollection(ctx, id);
    return true as const;
  },
});

// ---- an agent's links ----

export const getAgentKnowledgeOp = defineOperation({
  name: 'knowledge.ofAgent',
  route: 'GET /v1/knowledge/agents/:agentId',
  needs: READ,
  input: ByAgent,
  run: (ctx, { agentId }) => getAgentKnowledge(ctx, agentId),
});

export const linkKnowledgeOp = defineOperation({
  name: 'knowledge.link',
  route: 'POST /v1/knowledge/agents/:agentId/links',
  needs: WRITE,
  input: ByAgent.extend({ body: z.unknown() }),
  run: (ctx, { agentId, body }) => linkKnowledge(ctx, agentId, body),
});

/** Answers the agent's links after the change (REST answers 204 without them). */
export const unlinkKnowledgeOp = defineOperation({
  name: 'knowledge.unlink',
  route: 'DELETE /v1/knowledge/agents/:agentId/links/:targetId',
  needs: WRITE,
  input: ByAgent.extend({ targetId: z.string() }),
  run: (ctx, { agentId, targetId }) => unlinkKnowledge(ctx, agentId, targetId),
});

// ---- search ----

/** Ranked passages; a read with its own ceiling (one count across REST, GraphQL and MCP). */
export const queryKnowledgeOp = defineOperation({
  name: 'knowledge.query',
  route: 'POST /v1/knowledge/query',
  needs: { ...READ, rateLimit: 'knowledgeQuery' },
  input: Body,
  run: (ctx, { body }) => queryKnowledge(ctx, body),
});

// ---- dossiers (collections of kind dossier, docs/light.md) ----

export const listDossiersOp = defineOperation({
  name: 'dossiers.list',
  route: 'GET /v1/dossiers',
  needs: READ,
  input: z.object({}),
  run: async (ctx) => toDossierDtos(ctx, await listDossiers(ctx)),
});

export const getDossierOp = defineOperation({
  name: 'dossiers.get',
  route: 'GET /v1/dossiers/:id',
  needs: READ,
  input: ById,
  run: async (ctx, { id }) => toDossierDto(ctx, await getDossier(ctx, id)),
});

export const createDossierOp = defineOperation({
  name: 'dossiers.create',
  route: 'POST /v1/dossiers',
  needs: WRITE,
  input: Body,
  run: async (ctx, { body }) => toDossierDto(ctx, await createDossier(ctx, body)),
});

export const updateDossierOp = defineOperation({
  name: 'dossiers.update',
  route: 'PATCH /v1/dossiers/:id',
  needs: WRITE,
  input: ByIdWithBody,
  run: async (ctx, { id, body }) => toDossierDto(ctx, await updateDossier(ctx, id, body)),
});

export const deleteDossierOp = defineOperation({
  name: 'dossiers.delete',
  route: 'DELETE /v1/dossiers/:id',
  needs: WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    await deleteDossier(ctx, id);
    return true as const;
  },
});
