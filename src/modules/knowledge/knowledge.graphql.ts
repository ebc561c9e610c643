import { builder } from '../../graphql/builder.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import {
  AgentKnowledgeDtoSchema,
  CollectionDtoSchema,
  CreateCollectionSchema,
  KnowledgeItemSchema,
  KnowledgeQuerySchema,
  SourceDtoSchema,
  UpdateCollectionSchema,
  UpdateSourceSchema,
  UploadBase64Schema,
} from './knowledge.schemas.js';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  loadCollections,
  updateCollection,
  withSourceCounts,
} from './collections.service.js';
import { getAgentKnowledge, linkKnowledge, unlinkKnowledge } from './links.service.js';
import { queryKnowledge } from './query.service.js';
import {
  base64Upload,
  deleteSource,
  getSource,
  listPassages,
  listSources,
  loadSourcesByCollection,
  PREVIEW_PASSAGES,
  toSourceDto,
  updateSource,
  uploadSource,
} from './sources.service.js';
import { plainInput } from '../../graphql/plain-input.js';
import type { KnowledgeChunk } from './knowledge.entity.js';

export const KnowledgeSourceRef = objectFromZod('KnowledgeSource', SourceDtoSchema, {
  description: 'An uploaded document and its ingestion state (same fields as the REST source).',
  descriptions: { filename: 'The file name as uploaded; ingestion reads the format from it', status: 'ingesting, ready or failed' },
});

export const KnowledgeCollectionRef = objectFromZod('KnowledgeCollection', CollectionDtoSchema, {
  description: 'A named group of sources (a dossier).',
});

builder.objectFields(KnowledgeSourceRef, (t) => ({
  collection: t.loadable({
    type: KnowledgeCollectionRef,
    nullable: true,
    description: 'The collection holding the source (batched across sources).',
    load: async (ids: string[], ctx) => loadCollections(await ctx.service(), ids),
    resolve: (s) => s.collectionId,
  }),
}));

builder.objectFields(KnowledgeCollectionRef, (t) => ({
  sources: t.loadableList({
    type: KnowledgeSourceRef,
    description: 'Sources of the collection, newest first (batched across collections).',
    load: async (ids: string[], ctx) => (await loadSourcesByCollection(await ctx.service(), ids)).map((list) => list.map(toSourceDto)),
    resolve: (c) => c.id,
  }),
}));

const KnowledgeItemRef = objectFromZod('KnowledgeItem', KnowledgeItemSchema, {
  description: 'A ranked passage (the knowledgeUsed item shape, plus its text).',
});

const AgentKnowledgeRef = objectFromZod('AgentKnowledge', AgentKnowledgeDtoSchema, {
  description: "An agent's linked sources and collections; collectionScope lists them in link order.",
});

// Derived from the zod schemas the service parses with (src/graphql/from-zod.ts).
const KnowledgeQueryInput = inputFromZod('KnowledgeQueryInput', KnowledgeQuerySchema);

const CollectionInput = inputFromZod('KnowledgeCollectionInput', CreateCollectionSchema);

const UpdateCollectionInput = inputFromZod('UpdateKnowledgeCollectionInput', UpdateCollectionSchema);

const UpdateSourceInput = inputFromZod('UpdateKnowledgeSourceInput', UpdateSourceSchema, {
  descriptions: { collectionId: 'null takes the source out of its collection' },
});

const KnowledgePassageRef = builder.objectRef<KnowledgeChunk>('KnowledgePassage').implement({
  description: 'A passage of a document, as search and citations point to it (its chunkId is `id`).',
  fields: (t) => ({
    id: t.exposeID('id'),
    ordinal: t.exposeInt('ordinal', { description: 'Position in the document, from 0' }),
    section: t.exposeString('section'),
    page: t.exposeInt('page'),
    text: t.exposeString('text'),
  }),
});

builder.queryFields((t) => ({
  knowledgePassages: t.field({
    type: [KnowledgePassageRef],
    description: `A document's passages in reading order (the first ${PREVIEW_PASSAGES}), for its preview; none until it is ready.`,
    args: { sourceId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => listPassages(await ctx.service(), String(args.sourceId)),
  }),
  knowledgeSources: t.field({
    type: [KnowledgeSourceRef],
    description: 'Sources of the workspace, newest first.',
    args: { collectionId: t.arg.string({ required: false }), status: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) =>
      (await listSources(await ctx.service(), { collectionId: args.collectionId ?? undefined, status: args.status ?? undefined })).map(toSourceDto),
  }),
  knowledgeSource: t.field({
    type: KnowledgeSourceRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => toSourceDto(await getSource(await ctx.service(), String(args.id))),
  }),
  knowledgeCollections: t.field({
    type: [KnowledgeCollectionRef],
    description: 'Collections of the workspace, oldest first.',
    resolve: async (_r, _a, ctx) => {
      const service = await ctx.service();
      return withSourceCounts(service, await listCollections(service));
    },
  }),
  knowledgeCollection: t.field({
    type: KnowledgeCollectionRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const service = await ctx.service();
      return (await withSourceCounts(service, [await getCollection(service, String(args.id))]))[0];
    },
  }),
  knowledgeSearch: t.field({
    type: [KnowledgeItemRef],
    description: 'Ranked passages (POST /v1/knowledge/query).',
    extensions: operationNeeds({ scope: 'knowledge', rateLimit: 'knowledgeQuery', twin: 'POST /v1/knowledge/query' }),
    args: { input: t.arg({ type: KnowledgeQueryInput, required: true }) },
    resolve: async (_r, args, ctx) => queryKnowledge(await ctx.service(), plainInput(args.input)),
  }),
  agentKnowledge: t.field({
    type: AgentKnowledgeRef,
    args: { agentId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getAgentKnowledge(await ctx.service(), String(args.agentId)),
  }),
}));

const UploadKnowledgeSourceInput = inputFromZod('UploadKnowledgeSourceInput', UploadBase64Schema);

builder.mutationFields((t) => ({
  uploadKnowledgeSource: t.field({
    type: KnowledgeSourceRef,
    description:
      'Uploads a document sent as base64 (the console); answers the source in ingesting state. Bound by the GraphQL body limit (SVC_BODY_LIMIT); programs use the multipart route POST /v1/knowledge-sources/upload.',
    args: { input: t.arg({ type: UploadKnowledgeSourceInput, required: true }) },
    extensions: operationNeeds({ scope: 'knowledge', write: true, rateLimit: 'upload', twin: 'POST /v1/knowledge-sources/upload' }),
    resolve: async (_r, args, ctx) => toSourceDto(await uploadSource(await ctx.service(), base64Upload(plainInput(args.input)))),
  }),
  createKnowledgeCollection: t.field({
    type: KnowledgeCollectionRef,
    args: { input: t.arg({ type: CollectionInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const service = await ctx.service();
      return (await withSourceCounts(service, [await createCollection(service, plainInput(args.input))]))[0];
    },
  }),
  updateKnowledgeCollection: t.field({
    type: KnowledgeCollectionRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCollectionInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const service = await ctx.service();
      return (await withSourceCounts(service, [await updateCollection(service, String(args.id), plainInput(args.input))]))[0];
    },
  }),
  deleteKnowledgeCollection: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteCollection(await ctx.service(), String(args.id));
      return true;
    },
  }),
  updateKnowledgeSource: t.field({
    type: KnowledgeSourceRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateSourceInput, required: true }) },
    resolve: async (_r, args, ctx) => toSourceDto(await updateSource(await ctx.service(), String(args.id), plainInput(args.input))),
  }),
  deleteKnowledgeSource: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteSource(await ctx.service(), String(args.id));
      return true;
    },
  }),
  linkKnowledge: t.field({
    type: AgentKnowledgeRef,
    description: 'Links a source or a collection (exactly one) to an agent.',
    args: { agentId: t.arg.id({ required: true }), sourceId: t.arg.string({ required: false }), collectionId: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) =>
      linkKnowledge(await ctx.service(), String(args.agentId), { sourceId: args.sourceId, collectionId: args.collectionId }),
  }),
  unlinkKnowledge: t.field({
    type: AgentKnowledgeRef,
    args: { agentId: t.arg.id({ required: true }), targetId: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => unlinkKnowledge(await ctx.service(), String(args.agentId), args.targetId),
  }),
}));
