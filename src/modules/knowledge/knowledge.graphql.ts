import { builder } from '../../graphql/builder.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { objectFromZod } from '../../graphql/from-zod.js';
import { KnowledgeItemSchema, type AgentKnowledgeDto, type CollectionDto, type SourceDto } from './knowledge.schemas.js';
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
import { deleteSource, getSource, listSources, loadSourcesByCollection, toSourceDto, updateSource } from './sources.service.js';

export const KnowledgeSourceRef = builder.objectRef<SourceDto>('KnowledgeSource');
export const KnowledgeCollectionRef = builder.objectRef<CollectionDto>('KnowledgeCollection');

KnowledgeSourceRef.implement({
  description: 'An uploaded document and its ingestion state (same fields as the REST source).',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    filename: t.exposeString('filename', { description: 'The file name as uploaded; ingestion reads the format from it' }),
    mimeType: t.exposeString('mimeType'),
    sizeBytes: t.exposeInt('sizeBytes'),
    sha256: t.exposeString('sha256'),
    format: t.exposeString('format', { nullable: true }),
    title: t.exposeString('title', { nullable: true }),
    status: t.exposeString('status', { description: 'ingesting, ready or failed' }),
    error: t.exposeString('error', { nullable: true }),
    collectionId: t.exposeString('collectionId', { nullable: true }),
    userId: t.exposeString('userId'),
    chunkCount: t.exposeInt('chunkCount'),
    factCount: t.exposeInt('factCount'),
    contradictionCount: t.exposeInt('contradictionCount'),
    qaCount: t.exposeInt('qaCount'),
    ingestedAt: t.exposeString('ingestedAt', { nullable: true }),
    createdAt: t.exposeString('createdAt'),
    updatedAt: t.exposeString('updatedAt'),
    collection: t.loadable({
      type: KnowledgeCollectionRef,
      nullable: true,
      description: 'The collection holding the source (batched across sources).',
      load: async (ids: string[], ctx) => loadCollections(await ctx.service(), ids),
      resolve: (s) => s.collectionId,
    }),
  }),
});

KnowledgeCollectionRef.implement({
  description: 'A named group of sources (a dossier).',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    userId: t.exposeString('userId'),
    sourceCount: t.exposeInt('sourceCount'),
    createdAt: t.exposeString('createdAt'),
    updatedAt: t.exposeString('updatedAt'),
    sources: t.loadableList({
      type: KnowledgeSourceRef,
      description: 'Sources of the collection, newest first (batched across collections).',
      load: async (ids: string[], ctx) => (await loadSourcesByCollection(await ctx.service(), ids)).map((list) => list.map(toSourceDto)),
      resolve: (c) => c.id,
    }),
  }),
});

const KnowledgeItemRef = objectFromZod('KnowledgeItem', KnowledgeItemSchema, {
  description: 'A ranked passage (the knowledgeUsed item shape, plus its text).',
});

const AgentKnowledgeRef = builder.objectRef<AgentKnowledgeDto>('AgentKnowledge').implement({
  description: "An agent's linked sources and collections; collectionScope lists them in link order.",
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    sourceIds: t.exposeStringList('sourceIds'),
    collectionIds: t.exposeStringList('collectionIds'),
    collectionScope: t.exposeStringList('collectionScope'),
  }),
});

// Nullable inputs: the service's zod schemas validate them, so GraphQL and REST refuse alike.
const KnowledgeQueryInput = builder.inputType('KnowledgeQueryInput', {
  fields: (t) => ({
    query: t.string({ required: false }),
    topK: t.int({ required: false }),
    agentId: t.string({ required: false }),
    collectionIds: t.stringList({ required: false }),
    sourceIds: t.stringList({ required: false }),
  }),
});

const CollectionInput = builder.inputType('KnowledgeCollectionInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    description: t.string({ required: false }),
  }),
});

const UpdateSourceInput = builder.inputType('UpdateKnowledgeSourceInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    collectionId: t.string({ required: false, description: 'null takes the source out of its collection' }),
  }),
});

const plain = (input: object): Record<string, unknown> => ({ ...input });

builder.queryFields((t) => ({
  knowledgeSources: t.field({
    type: [KnowledgeSourceRef],
    description: 'Sources of the workspace, newest first.',
    args: { collectionId: t.arg.string({ required: false }), status: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) =>
      (await listSources(await ctx.service(), { collectionId: args.collectionId ?? undefined, status: (args.status ?? undefined) as never })).map(toSourceDto),
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
    resolve: async (_r, args, ctx) => queryKnowledge(await ctx.service(), plain(args.input) as never),
  }),
  agentKnowledge: t.field({
    type: AgentKnowledgeRef,
    args: { agentId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getAgentKnowledge(await ctx.service(), String(args.agentId)),
  }),
}));

builder.mutationFields((t) => ({
  createKnowledgeCollection: t.field({
    type: KnowledgeCollectionRef,
    args: { input: t.arg({ type: CollectionInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const service = await ctx.service();
      return (await withSourceCounts(service, [await createCollection(service, plain(args.input) as never)]))[0];
    },
  }),
  updateKnowledgeCollection: t.field({
    type: KnowledgeCollectionRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: CollectionInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const service = await ctx.service();
      return (await withSourceCounts(service, [await updateCollection(service, String(args.id), plain(args.input) as never)]))[0];
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
    resolve: async (_r, args, ctx) => toSourceDto(await updateSource(await ctx.service(), String(args.id), plain(args.input) as never)),
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
