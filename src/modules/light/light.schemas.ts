import { z } from 'zod';
import { KnowledgeUsedSchema } from '../chat/index.js';

export const LIGHT_LIMITS = { questionChars: 4_000, historyMessages: 20, historyChars: 8_000 } as const;

const NO_NUL = (s: string) => !s.includes('\u0000');

const question = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'question is required' : 'question must be a string') })
  .max(LIGHT_LIMITS.questionChars, `question must be at most ${LIGHT_LIMITS.questionChars} characters`)
  .refine(NO_NUL, 'question must not contain NUL characters')
  .refine((s) => s.trim().length > 0, 'question is required');

/** `auto` (the default model), `local` (the built-in model) or the name of a configured provider; checked by the service (400 `invalid_provider`). */
const provider = z
  .string({ error: 'provider must be a string' })
  .max(100, 'provider must be at most 100 characters')
  .refine(NO_NUL, 'provider must not contain NUL characters')
  .nullish()
  .describe('auto (default), local, or the id of a provider allowed in the workspace (400 invalid_provider otherwise)');

const HistoryItemSchema = z.object({
  role: z.enum(['user', 'assistant'], { error: 'history[].role must be user or assistant' }),
  content: z
    .string({ error: 'history[].content must be a string' })
    .max(LIGHT_LIMITS.historyChars, `history[].content must be at most ${LIGHT_LIMITS.historyChars} characters`)
    .refine(NO_NUL, 'history[].content must not contain NUL characters'),
});

/** `POST /light/ask`. */
export const AskSchema = z.object({
  question,
  history: z
    .array(HistoryItemSchema, { error: 'history must be a list of { role, content }' })
    .max(LIGHT_LIMITS.historyMessages, `history must hold at most ${LIGHT_LIMITS.historyMessages} messages`)
    .nullish()
    .describe('Earlier turns of the conversation, oldest first (at most 20): the model reads them, the search does not'),
  dossierId: z
    .string({ error: 'dossierId must be a string' })
    .max(64, 'Dossier not found')
    .refine(NO_NUL, 'Dossier not found')
    .nullish()
    .describe('Answer only from this dossier (400 Dossier not found otherwise); default every document of the workspace'),
  provider,
});
export type AskInput = z.input<typeof AskSchema>;

/** `POST /light/web`. */
export const WebAskSchema = z.object({ question, provider });
export type WebAskInput = z.input<typeof WebAskSchema>;

export const CitationSchema = KnowledgeUsedSchema.extend({ text: z.string().describe('The whole passage') });
export type Citation = z.infer<typeof CitationSchema>;

export const SearchedSchema = z.object({
  scope: z.enum(['workspace', 'dossier']).describe('What was searched: every document of the workspace, or one dossier'),
  dossierId: z.string().nullable(),
  dossierName: z.string().nullable(),
  documents: z.number().int().describe('Ready documents in that scope'),
  passagesFound: z.number().int().describe('Passages the search returned for the question'),
  query: z.string().describe('The question as searched'),
});
export type Searched = z.infer<typeof SearchedSchema>;

export const REFUSAL_REASONS = ['no_documents', 'no_passages', 'not_covered', 'model_declined', 'uncited', 'no_web_results'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export const RefusalSchema = z.object({
  reason: z
    .enum(REFUSAL_REASONS)
    .describe(
      'no_documents: nothing ready in scope; no_passages: no passage shares a word with the question; not_covered: the best passage covers less of the question than the threshold; model_declined: the model said the passages do not answer; uncited: the model answered without citing a passage; no_web_results: the web search found nothing',
    ),
  message: z.string(),
  coverage: z.number().describe('Share of the question (rarer words weigh more) found in the best passage, 0 to 1'),
  threshold: z.number().describe('Coverage under which the question is refused without asking a model (docs/light.md)'),
  searched: SearchedSchema,
});
export type Refusal = z.infer<typeof RefusalSchema>;

export const WebResultSchema = z.object({
  ref: z.number().int(),
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
});
export type WebResult = z.infer<typeof WebResultSchema>;

export const ProvenanceSchema = z.object({
  searched: SearchedSchema.nullable().describe('The documents searched (null for a web answer)'),
  documents: z
    .array(z.object({ sourceId: z.string(), sourceName: z.string(), collectionId: z.string().nullable(), dossierName: z.string().nullable() }))
    .describe('Documents cited by the answer'),
  webResults: z.array(WebResultSchema).describe('Web results read by the answer (web only)'),
  webQuery: z.string().nullable().describe('The redacted query that was sent to the web search (web only)'),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

const UsageSchema = z.object({ promptTokens: z.number().int(), completionTokens: z.number().int(), totalTokens: z.number().int() });

export const LightAnswerSchema = z.object({
  answer: z.string().describe('The answer with [n] citations; on a refusal, a sentence saying the documents do not cover the question'),
  refused: z.boolean(),
  refusal: RefusalSchema.nullable().describe('Why and what was searched, when refused'),
  citations: z.array(CitationSchema).describe('The passages (or, on the web, nothing) the answer cites, by ref'),
  provenance: ProvenanceSchema,
  proofId: z.string().describe('The proof certificate of this answer (GET /v1/proofs/:id)'),
  model: z.string().nullable().describe('The model that answered; null when refused before any model ran'),
  usage: UsageSchema,
});
export type LightAnswer = z.infer<typeof LightAnswerSchema>;
