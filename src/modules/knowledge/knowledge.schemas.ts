import { z } from 'zod';
import { SOURCE_STATUSES } from './knowledge.entity.js';

/** SPEC Limits: uploaded file size. 25 MiB, checked while the upload streams. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

export const TOP_K = { min: 1, max: 20, default: 5, list: 8 } as const;

const MAX_NAME = 200;
const MAX_DESCRIPTION = 2_000;
const MAX_QUERY = 2_000;

const idString = (field: string) =>
  z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be a string`) }).min(1, `${field} is required`).max(64, `${field} is not a valid id`);

const requiredName = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'name is required' : 'name must be a string') })
  .max(MAX_NAME, `name must be at most ${MAX_NAME} characters`)
  .refine((s) => s.trim().length > 0, 'name is required');

export const CreateCollectionSchema = z.object({
  name: requiredName,
  description: z.string({ error: 'description must be a string' }).max(MAX_DESCRIPTION, `description must be at most ${MAX_DESCRIPTION} characters`).nullish(),
});
export type CreateCollectionInput = z.input<typeof CreateCollectionSchema>;

export const UpdateCollectionSchema = z.object({
  name: z.string({ error: 'name must be a string' }).max(MAX_NAME, `name must be at most ${MAX_NAME} characters`).refine((s) => s.trim().length > 0, 'name must not be empty').nullish(),
  description: z.string({ error: 'description must be a string' }).max(MAX_DESCRIPTION, `description must be at most ${MAX_DESCRIPTION} characters`).nullish(),
});
export type UpdateCollectionInput = z.input<typeof UpdateCollectionSchema>;

/** `PUT /v1/knowledge-sources/:id`: rename, or move to a collection (`collectionId: null` takes it out). */
export const UpdateSourceSchema = z.object({
  name: z.string({ error: 'name must be a string' }).max(MAX_NAME, `name must be at most ${MAX_NAME} characters`).refine((s) => s.trim().length > 0, 'name must not be empty').nullish(),
  collectionId: z.string({ error: 'collectionId must be a string' }).max(64, 'Collection not found').nullish(),
});
export type UpdateSourceInput = z.input<typeof UpdateSourceSchema>;

export const ListSourcesSchema = z.object({
  collectionId: z.string({ error: 'collectionId must be a string' }).max(64).optional(),
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

const idList = (field: string) => z.array(z.string({ error: `${field} must be a list of ids` }).max(64), { error: `${field} must be a list of ids` }).max(200, `${field} has too many ids`);

/** `POST /v1/knowledge/query`. Without a scope the whole workspace is searched. */
export const KnowledgeQuerySchema = z.object({
  query: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'query is required' : 'query must be a string') })
    .max(MAX_QUERY, `query must be at most ${MAX_QUERY} characters`)
    .refine((s) => s.trim().length > 0, 'query is required'),
  topK: z
    .number({ error: 'topK must be a number' })
    .int('topK must be a whole number')
    .min(TOP_K.min, `topK must be at least ${TOP_K.min}`)
    .max(TOP_K.max, `topK must be at most ${TOP_K.max}`)
    .nullish(),
  agentId: z.string({ error: 'agentId must be a string' }).max(64).nullish(),
  collectionIds: idList('collectionIds').nullish(),
  sourceIds: idList('sourceIds').nullish(),
});
export type KnowledgeQueryInput = z.input<typeof KnowledgeQuerySchema>;

export const SourceDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
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

export const KnowledgeItemSchema = z.object({
  ref: z.number().int(),
  sourceId: z.string(),
  sourceName: z.string(),
  section: z.string(),
  page: z.number().int(),
  chunkPreview: z.string(),
  similarity: z.number(),
  chunkId: z.string(),
  collectionId: z.string().nullable(),
  dossierName: z.string().nullable(),
  text: z.string(),
});

export const AgentKnowledgeDtoSchema = z.object({
  agentId: z.string(),
  sourceIds: z.array(z.string()),
  collectionIds: z.array(z.string()),
  collectionScope: z.array(z.string()),
});
export type AgentKnowledgeDto = z.infer<typeof AgentKnowledgeDtoSchema>;
