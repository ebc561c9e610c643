import { z } from 'zod';
import { maxJsonDepth } from '../../lib/json-depth.js';

/** SPEC, Agent chat request table and Other constants. */
export const CHAT_LIMITS = {
  historyMessages: 20,
  temperature: { min: 0, max: 2, default: 0.8 },
  maxTokens: { min: 100, max: 4000, default: 1500 },
  topK: { min: 1, max: 20, default: 5, list: 8 },
  messageChars: 50_000,
  contextBlocks: 50,
  /** One block's `data` (a string, or an object as JSON) and all the blocks together. */
  contextBlockChars: 20_000,
  contextChars: 100_000,
  /** Category, label, field and category names. */
  nameChars: 200,
  responseFields: 50,
  fieldDescriptionChars: 2_000,
  schemaChars: 20_000,
  extractionCategories: 50,
  toolIds: 100,
  idChars: 64,
} as const;

const L = CHAT_LIMITS;

/** `null` is read as "not sent", like an omitted field (JSON clients and GraphQL both send it). */
const opt = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const bool = (field: string) => z.boolean({ error: `${field} must be a boolean` });
const text = (field: string) => z.string({ error: `${field} must be a string` });
const name = (field: string) => text(field).max(L.nameChars, `${field} must be at most ${L.nameChars} characters`);

/** The characters a block's data takes in the prompt (an object is given as JSON). */
const dataChars = (data: string | Record<string, unknown>): number => (typeof data === 'string' ? data.length : JSON.stringify(data).length);

export const ContextBlockSchema = z.object({
  category: name('category').refine((s) => s.trim().length > 0, 'category is required'),
  label: opt(name('label')),
  data: maxJsonDepth(z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'data must be an object or a string' }), 'data').refine(
    (d) => dataChars(d) <= L.contextBlockChars,
    `data must be at most ${L.contextBlockChars} characters (as JSON for an object)`,
  ),
  priority: opt(z.enum(['high', 'medium', 'low'], { error: 'priority must be high, medium or low' })).transform((p) => p ?? 'medium'),
});
/** A validated context block (`priority` defaulted). */
export interface ContextBlock {
  category: string;
  label?: string;
  data: string | Record<string, unknown>;
  priority: 'high' | 'medium' | 'low';
}

const ExtractionSchema = z.object({
  categories: z
    .array(name('extraction.categories[]').refine((s) => s.trim().length > 0, 'extraction.categories must not contain empty names'), {
      error: 'extraction.categories is required (a list of category names)',
    })
    .min(1, 'extraction.categories must name at least one category')
    .max(L.extractionCategories, `extraction.categories must name at most ${L.extractionCategories} categories`),
  persist: opt(bool('extraction.persist')).transform((v) => v ?? true),
});

const { temperature, maxTokens, topK } = CHAT_LIMITS;

const OptionsSchema = z.object({
  reflection: opt(bool('options.reflection')).transform((v) => v ?? false),
  temperature: opt(
    z
      .number({ error: 'options.temperature must be a number' })
      .min(temperature.min, `options.temperature must be between ${temperature.min} and ${temperature.max}`)
      .max(temperature.max, `options.temperature must be between ${temperature.min} and ${temperature.max}`),
  ).transform((v) => v ?? temperature.default),
  maxTokens: opt(
    z
      .number({ error: 'options.maxTokens must be a number' })
      .int('options.maxTokens must be a whole number')
      .min(maxTokens.min, `options.maxTokens must be between ${maxTokens.min} and ${maxTokens.max}`)
      .max(maxTokens.max, `options.maxTokens must be between ${maxTokens.min} and ${maxTokens.max}`),
  ).transform((v) => v ?? maxTokens.default),
});

export const ResponseFormatSchema = z.object({
  type: z.enum(['json', 'text'], { error: 'responseFormat.type is required: json or text' }),
  fields: opt(
    z
      .record(
        z.string().max(L.nameChars, `responseFormat.fields names must be at most ${L.nameChars} characters`),
        text('responseFormat.fields values').max(L.fieldDescriptionChars, `responseFormat.fields values must be at most ${L.fieldDescriptionChars} characters`),
        { error: 'responseFormat.fields must be an object of descriptions' },
      )
      .refine((f) => Object.keys(f).length <= L.responseFields, `responseFormat.fields must hold at most ${L.responseFields} fields`),
  ),
  schema: opt(text('responseFormat.schema').max(L.schemaChars, `responseFormat.schema must be at most ${L.schemaChars} characters`)),
});

const KnowledgeSchema = z.object({
  enabled: opt(bool('knowledge.enabled')).transform((v) => v ?? true),
  topK: opt(
    z
      .number({ error: 'knowledge.topK must be a number' })
      .int('knowledge.topK must be a whole number')
      .min(topK.min, `knowledge.topK must be between ${topK.min} and ${topK.max}`)
      .max(topK.max, `knowledge.topK must be between ${topK.min} and ${topK.max}`),
  ),
});

const ToolsSchema = z.object({
  enabled: opt(bool('tools.enabled')).transform((v) => v ?? true),
  toolIds: opt(
    z
      .array(text('tools.toolIds[]').max(L.idChars, 'tools.toolIds[] is not a valid id'), { error: 'tools.toolIds must be a list of tool ids' })
      .max(L.toolIds, `tools.toolIds must hold at most ${L.toolIds} ids`),
  ),
});

const ConsultSchema = z.object({ enabled: opt(bool('consult.enabled')).transform((v) => v ?? true) });

const objectOf = (field: string) => ({ error: `${field} must be an object` });

/** The body of the four chat routes, the `chat` mutation and the `chatStream` subscription. */
export const ChatRequestSchema = z.object({
  message: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'message is required' : 'message must be a string') })
    .refine((s) => s.trim().length > 0, 'message is required')
    .refine((s) => s.length <= CHAT_LIMITS.messageChars, `message must be at most ${CHAT_LIMITS.messageChars} characters`),
  sessionId: opt(text('sessionId').min(1, 'sessionId must not be empty').max(L.idChars, 'sessionId is not a valid id')),
  context: opt(
    z
      .array(ContextBlockSchema, { error: 'context must be a list of blocks' })
      .max(L.contextBlocks, `context must hold at most ${L.contextBlocks} blocks`)
      .refine((blocks) => blocks.reduce((n, b) => n + dataChars(b.data), 0) <= L.contextChars, `context must hold at most ${L.contextChars} characters of data in all`),
  ),
  extraction: opt(z.object(ExtractionSchema.shape, objectOf('extraction'))),
  options: opt(z.object(OptionsSchema.shape, objectOf('options'))).transform(
    (o) => o ?? { reflection: false, temperature: temperature.default, maxTokens: maxTokens.default },
  ),
  responseFormat: opt(z.object(ResponseFormatSchema.shape, objectOf('responseFormat'))),
  knowledge: opt(z.object(KnowledgeSchema.shape, objectOf('knowledge'))).transform((k) => k ?? { enabled: true, topK: undefined }),
  tools: opt(z.object(ToolsSchema.shape, objectOf('tools'))).transform((t) => t ?? { enabled: true, toolIds: undefined }),
  consult: opt(z.object(ConsultSchema.shape, objectOf('consult'))).transform((c) => c ?? { enabled: true }),
});
export type ChatRequestInput = z.input<typeof ChatRequestSchema>;
export type ChatRequest = z.output<typeof ChatRequestSchema>;

// ---- results ----

export const TokenUsageSchema = z.object({
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  totalTokens: z.number().int(),
});

export const KnowledgeUsedSchema = z.object({
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
});
export type KnowledgeUsed = z.infer<typeof KnowledgeUsedSchema>;

export const ToolCallReportSchema = z.object({ toolName: z.string(), success: z.boolean(), durationMs: z.number().int() });
export type ToolCallReport = z.infer<typeof ToolCallReportSchema>;

export const MemorySavedSchema = z.object({
  key: z.string(),
  value: z.string(),
  type: z.string(),
  provenance: z.string(),
  salience: z.number(),
});
export type MemorySaved = z.infer<typeof MemorySavedSchema>;

export const ExtractedFactSchema = z.object({ category: z.string(), value: z.string() });
export type ExtractedFact = z.infer<typeof ExtractedFactSchema>;

export const ChatTurnResultSchema = z.object({
  agentId: z.string(),
  agentName: z.string(),
  agentRole: z.string(),
  content: z.string(),
  sessionId: z.string(),
  contentParsed: z.record(z.string(), z.unknown()).optional(),
  thoughts: z.string().optional(),
  memoriesSaved: z.array(MemorySavedSchema),
  extracted: z.array(ExtractedFactSchema).optional(),
  tokenUsage: TokenUsageSchema,
  knowledgeUsed: z.array(KnowledgeUsedSchema),
  toolCalls: z.array(ToolCallReportSchema),
});
export type ChatTurnResult = z.infer<typeof ChatTurnResultSchema>;

export const MoodSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  emotion: z.string(),
  valence: z.number(),
  arousal: z.number(),
  intensity: z.number(),
});
export type Mood = z.infer<typeof MoodSchema>;

export const ConsultationSchema = z.object({
  agentId: z.string(),
  agentName: z.string(),
  question: z.string(),
  answer: z.string(),
  /** `named` when the message named the colleague, `tool` when the model asked through consult_colleague. */
  trigger: z.enum(['named', 'tool']),
  durationMs: z.number().int(),
});
export type Consultation = z.infer<typeof ConsultationSchema>;

export const ContextUsedSchema = z.object({
  /** The context blocks of this call in the order the model read them. */
  blocks: z.array(z.object({ category: z.string(), label: z.string().nullable(), priority: z.enum(['high', 'medium', 'low']) })),
  historyMessages: z.number().int(),
  memoriesRecalled: z.number().int(),
  passages: z.number().int(),
});
export type ContextUsed = z.infer<typeof ContextUsedSchema>;

/** The payload of the `done` event: the turn result plus what only streams report. */
export const ChatTurnDoneSchema = ChatTurnResultSchema.extend({
  proofId: z.string().optional(),
  consultations: z.array(ConsultationSchema),
  mood: MoodSchema,
  masked: z.boolean(),
  contextUsed: ContextUsedSchema,
});
export type ChatTurnDone = z.infer<typeof ChatTurnDoneSchema>;

/** The plain routes answer the turn result without the stream-only fields. */
export function plainResult(done: ChatTurnDone): ChatTurnResult {
  const { proofId: _p, consultations: _c, mood: _m, masked: _k, contextUsed: _u, ...result } = done;
  return result;
}
