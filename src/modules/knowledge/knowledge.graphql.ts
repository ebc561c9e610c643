import { builder } from '../../graphql/builder.js';
import { operationField } from '../../graphql/root-fields.js';
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
import { loadCollections } from './collections.service.js';
import { base64Upload, loadSourcesByCollection, PREVIEW_PASSAGES, toSourceDto } from './sources.service.js';
import {
  createCollectionOp,
  deleteCollectionOp,
  deleteSourceOp,
  getAgentKnowledgeOp,
  getCollectionOp,
  getSourceOp,
  linkKnowledgeOp,
  listCollectionsOp,
  listPassagesOp,
  listSourcesOp,
  queryKnowledgeOp,
  unlinkKnowledgeOp,
  updateCollectionOp,
  updateSourceOp,
  uploadSourceOp,
} from './operations.js';
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
    extensions: operationField(listPassagesOp),
    resolve: async (_r, args, ctx) => listPassagesOp.run(await ctx.service(), { id: String(args.sourceId) }),
  }),
  knowledgeSources: t.field({
    type: [KnowledgeSourceRef],
    description: 'Sources of the workspace, newest first.',
    args: { collectionId: t.arg.string({ required: false }), status: t.arg.string({ required: false }) },
    extensions: operationField(listSourcesOp),
    resolve: async (_r, args, ctx) =>
      listSourcesOp.run(await ctx.service(), { filter: { collectionId: args.collectionId ?? undefined, status: args.status ?? undefined } }),
  }),
  knowledgeSource: t.field({
    type: KnowledgeSourceRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getSourceOp),
    resolve: async (_r, args, ctx) => getSourceOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  knowledgeCollections: t.field({
    type: [KnowledgeCollectionRef],
    description: 'Collections of the workspace, oldest first.',
    extensions: operationField(listCollectionsOp),
    resolve: async (_r, _a, ctx) => listCollectionsOp.run(await ctx.service(), {}),
  }),
  knowledgeCollection: t.field({
    type: KnowledgeCollectionRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getCollectionOp),
    resolve: async (_r, args, ctx) => getCollectionOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  knowledgeSearch: t.field({
    type: [KnowledgeItemRef],
    description: 'Ranked passages (POST /v1/knowledge/query).',
    extensions: operationField(queryKnowledgeOp),
    args: { input: t.arg({ type: KnowledgeQueryInput, required: true }) },
    resolve: async (_r, args, ctx) => queryKnowledgeOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  agentKnowledge: t.field({
    type: AgentKnowledgeRef,
    args: { agentId: t.arg.id({ required: true }) },
    extensions: operationField(getAgentKnowledgeOp),
    resolve: async (_r, args, ctx) => getAgentKnowledgeOp.run(await ctx.service(), { agentId: String(args.agentId) }),
  }),
}));

const UploadKnowledgeSourceInput = inputFromZod('UploadKnowledgeSourceInput', UploadBase64Schema);

builder.mutationFields((t) => ({
  uploadKnowledgeSource: t.field({
    type: KnowledgeSourceRef,
    description:
      'Uploads a document sent as base64 (the console); answers the source in ingesting state. Bound by the GraphQL body limit (SVC_BODY_LIMIT); programs use the multipart route POST /v1/knowledge-sources/upload.',
    args: { input: t.arg({ type: UploadKnowledgeSourceInput, required: true }) },
    extensions: operationField(uploadSourceOp),
    resolve: async (_r, args, ctx) => uploadSourceOp.run(await ctx.service(), { read: base64Upload(plainInput(args.input)) }),
  }),
  createKnowledgeCollection: t.field({
    type: KnowledgeCollectionRef,
    args: { input: t.arg({ type: CollectionInput, required: true }) },
    extensions: operationField(createCollectionOp),
    resolve: async (_r, args, ctx) => createCollectionOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  updateKnowledgeCollection: t.field({
    type: KnowledgeCollectionRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCollectionInput, required: true }) },
    extensions: operationField(updateCollectionOp),
    resolve: async (_r, args, ctx) => updateCollectionOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  deleteKnowledgeCollection: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(deleteCollectionOp),
    resolve: async (_r, args, ctx) => deleteCollectionOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  updateKnowledgeSource: t.field({
    type: KnowledgeSourceRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateSourceInput, required: true }) },
    extensions: operationField(updateSourceOp),
    resolve: async (_r, args, ctx) => updateSourceOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  deleteKnowledgeSource: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(deleteSourceOp),
    resolve: async (_r, args, ctx) => deleteSourceOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  linkKnowledge: t.field({
    type: AgentKnowledgeRef,
    description: 'Links a source or a collection (exactly one) to an agent.',
    args: { agentId: t.arg.id({ required: true }), sourceId: t.arg.string({ required: false }), collectionId: t.arg.string({ required: false }) },
    extensions: operationField(linkKnowledgeOp),
    resolve: async (_r, args, ctx) =>
      linkKnowledgeOp.run(await ctx.service(), { agentId: String(args.agentId), body: { sourceId: args.sourceId, collectionId: args.collectionId } }),
  }),
  unlinkKnowledge: t.field({
    type: AgentKnowledgeRef,
    args: { agentId: t.arg.id({ required: true }), targetId: t.arg.string({ required: true }) },
    extensions: operationField(unlinkKnowledgeOp),
    resolve: async (_r, args, ctx) => unlinkKnowledgeOp.run(await ctx.service(), { agentId: String(args.agentId), targetId: args.targetId }),
  }),
}));
