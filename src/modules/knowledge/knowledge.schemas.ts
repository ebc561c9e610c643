import { z } from 'zod';
import { CHAT_LIMITS, KnowledgeUsedSchema } from '../chat/index.js';
import { SOURCE_STATUSES } from './knowledge.entity.js';
import { pgInt } from '../../lib/pg-int.js';

/** SPEC Limits: uploaded file size. 25 MiB, checked while the upload streams. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** SPEC: 1 to 20, default 5, 8 for list questions; one rule for the chat turn and the query route. */
export const TOP_K = CHAT_LIMITS.topK;

const MAX_NAME = 200;
const MAX_DESCRIPTION = 2_000;
const MAX_QUERY = 2_000;

/** PostgreSQL text cannot hold NUL: such input is a 400 naming its field here, never a database error. */
const NO_NUL = (s: string) => !s.includes('\u0000');
const noNul = (field: string) => `${field} must not contain NUL characters`;

const idString = (field: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be a string`) })
    .min(1, `${field} is required`)
    .max(64, `${field} is not a valid id`)
    .refine(NO_NUL, `${field} is not a valid id`);

const requiredName = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'name is required' : 'name must be a string') })
  .max(MAX_NAME, `name must be at most ${MAX_NAME} characters`)
  .refine(NO_NUL, noNul('name'))
  .refine((s) => s.trim().length > 0, 'name is required');

const optionalName = z
  .string({ error: 'name must be a string' })
  .max(MAX_NAME, `name must be at most ${MAX_NAME} characters`)
  .refine(NO_NUL, noNul('name'))
  .refine((s) => s.trim().length > 0, 'name must not be empty')
  .nullish();

const description = z
  .string({ error: 'description must be a string' })
  .max(MAX_DESCRIPTION, `description must be at most ${MAX_DESCRIPTION} characters`)
  .refine(NO_NUL, noNul('description'))
  .nullish();

export const CreateCollectionSchema = z.object({
  name: requiredName,
  description,
});
export type CreateCollectionInput = z.input<typeof CreateCollectionSchema>;

export const UpdateCollectionSchema = z.object({
  name: optionalName,
  description,
});
export type UpdateCollectionInput = z.input<typeof UpdateCollectionSchema>;

/** `PUT /v1/knowledge-sources/:id`: rename, or move to a collection (`collectionId: null` takes it out). */
export const UpdateSourceSchema = z.object({
  name: optionalName,
  /** Any string: one naming no collection of the workspace is `Collection not found` (checked by the service). */
  collectionId: z.string({ error: 'collectionId must be a string' }).nullish(),
});
export type UpdateSourceInput = z.input<typeof UpdateSourceSchema>;

/** The display name given with an upload (the file and `collectionId` are read by the multipart reader); blank means absent. */
export const UploadNameSchema = z.string().max(MAX_NAME, `name must be at most ${MAX_NAME} characters`).refine(NO_NUL, noNul('name')).optional();

export const ListSourcesSchema = z.object({
  collectionId: z.string({ error: 'collectionId must be a string' }).max(64, 'collectionId is not a valid id').refine(NO_NUL, 'collectionId is not a valid id').optional(),
  status: z.enum(SOURCE_STATUSES, { error: `status must be one of ${SOURCE_STATUSES.join(', ')}` }).optional(),
});
export type ListSourcesInput = z.input<typeof ListSourcesSchema>;

/** `POST /v1/knowledge/agents/:agentId/links`: exactly one of `sourceId`, `collectionId`. */
export const LinkKnowledgeSchema = z
  .object({
    sourceId: idString('sourceId').nullish(),
    collectionId: idString('collectionId').nullish(),
  })
  .refine((v) => (v.sourceId ? 1 : 0) + (v.collectionId ? 1 : 0) === 1, {
    message: 'sourceId or collectionId is required (exactly one)',
    path: ['sourceId'],
  });
export type LinkKnowledgeInput = z.input<typeof LinkKnowledgeSchema>;

const idList = (field: string) =>
  z
    .array(z.string({ error: `${field} must be a list of ids` }).max(64, `${field} must be a list of ids`).refine(NO_NUL, `${field} must be a list of ids`), {
      error: `${field} must be a list of ids`,
    })
    .max(200, `${field} has too many ids`);

/** `POST /v1/knowledge/query`. Without a scope the whole workspace is searched. */
export const KnowledgeQuerySchema = z.object({
  query: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'query is required' : 'query must be a string') })
    .max(MAX_QUERY, `query must be at most ${MAX_QUERY} characters`)
    .refine((s) => s.trim().length > 0, 'query is required'),
  topK: pgInt('topK', TOP_K).nullish(),
  agentId: z.string({ error: 'agentId must be a string' }).max(64, 'agentId is not a valid id').refine(NO_NUL, 'agentId is not a valid id').nullish(),
  collectionIds: idList('collectionIds').nullish(),
  sourceIds: idList('sourceIds').nullish(),
});
export type KnowledgeQueryInput = z.input<typeof KnowledgeQuerySchema>;

export const SourceDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  filename: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  format: z.string().nullable(),
  title: z.string().nullable(),
  status: z.enum(SOURCE_STATUSES),
  error: z.string().nullable(),
  collectionId: z.string().nullable(),
  userId: z.string(),
  chunkCount: z.number().int(),
  factCount: z.number().int(),
  contradictionCount: z.number().int(),
  qaCount: z.number().int(),
  ingestedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SourceDto = z.infer<typeof SourceDtoSchema>;

export const CollectionDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  userId: z.string(),
  sourceCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CollectionDto = z.infer<typeof CollectionDtoSchema>;

/** A query result: the `knowledgeUsed` item of chat results, plus the whole passage. */
export const KnowledgeItemSchema = KnowledgeUsedSchema.extend({ text: z.string() });

export const AgentKnowledgeDtoSchema = z.object({
  agentId: z.string(),
  sourceIds: z.array(z.string()),
  collectionIds: z.array(z.string()),
  collectionScope: z.array(z.string()),
});
export type AgentKnowledgeDto = z.infer<typeof AgentKnowledgeDtoSchema>;

/**
 * GraphQL `uploadKnowledgeSource` (the console): the document as base64 in a JSON body, so it is bound
 * by the GraphQL body limit (SVC_BODY_LIMIT) besides the 25 MB upload cap; programs use the multipart route.
 */
export const UploadBase64Schema = z.object({
  filename: z.string({ error: 'filename is required' }).min(1, 'filename is required').max(MAX_NAME, `filename must be at most ${MAX_NAME} characters`),
  mimeType: z.string({ error: 'mimeType must be a string' }).max(200, 'mimeType must be at most 200 characters').nullish(),
  contentBase64: z
    .string({ error: 'contentBase64 is required' })
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'contentBase64 must be base64')
    .refine((s) => s.length % 4 === 0, 'contentBase64 must be base64'),
  collectionId: z.string({ error: 'collectionId must be a string' }).nullish(),
  name: UploadNameSchema.nullable(),
});
export type UploadBase64Input = z.input<typeof UploadBase64Schema>;
