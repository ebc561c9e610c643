import { z } from 'zod';
import { errors } from '../../errors/index.js';

/** Limits of `POST /v1/verify` (docs/operations.md, Limits on text). */
export const VERIFY_LIMITS = {
  /** Over it: 413 `text_too_large`. About 15 000 words. */
  textChars: 100_000,
  passages: 1_000,
  passageChars: 100_000,
  sourceChars: 500,
  collectionIds: 50,
} as const;

const NO_NUL = (s: string) => !s.includes('\u0000');

const PassageSchema = z.object({
  source: z
    .string({ error: 'source is required' })
    .min(1, 'source is required')
    .max(VERIFY_LIMITS.sourceChars, `source must be at most ${VERIFY_LIMITS.sourceChars} characters`)
    .refine(NO_NUL, 'source must not contain NUL characters')
    .describe('Name of the passage, echoed in the evidence'),
  content: z
    .string({ error: 'content is required' })
    .max(VERIFY_LIMITS.passageChars, `content must be at most ${VERIFY_LIMITS.passageChars} characters`)
    .refine((s) => s.trim().length > 0, 'content is required')
    .refine(NO_NUL, 'content must not contain NUL characters'),
});

const PassagesSchema = z
  .array(PassageSchema, { error: 'passages must be a list of { source, content }' })
  .min(1, 'passages must not be empty')
  .max(VERIFY_LIMITS.passages, `passages must hold at most ${VERIFY_LIMITS.passages} passages`);

const CollectionIdsSchema = z
  .array(z.string({ error: 'collectionIds must be a list of ids' }).min(1, 'collectionIds must not hold an empty id').max(64, 'Collection not found'), {
    error: 'collectionIds must be a list of ids',
  })
  .min(1, 'collectionIds must not be empty')
  .max(VERIFY_LIMITS.collectionIds, `collectionIds must hold at most ${VERIFY_LIMITS.collectionIds} ids`);

/** The request body as documented (OpenAPI, GraphQL input); `parseVerifyInput` gives SPEC's codes. */
export const VerifyInputSchema = z.object({
  text: z.string().describe(`The text whose claims are checked; non-empty, at most ${VERIFY_LIMITS.textChars} characters (413 text_too_large)`),
  passages: PassagesSchema.optional().describe('The passages to check against; or collectionIds, never both'),
  collectionIds: CollectionIdsSchema.optional().describe("Knowledge collections of the workspace to check against (their ready sources' passages)"),
});
export type VerifyInput = z.input<typeof VerifyInputSchema>;

export type ParsedVerifyInput =
  | { text: string; passages: { source: string; content: string }[]; collectionIds?: undefined }
  | { text: string; passages?: undefined; collectionIds: string[] };

const present = (v: unknown) => v !== undefined && v !== null;

/**
 * SPEC Errors 400/413: empty or missing `text` is `text_required`, over the maximum 413 `text_too_large`,
 * malformed `passages` `invalid_passages` (the message names the passage and its field), both scopes
 * `ambiguous_scope`, neither a 400 naming `passages`; bad `collectionIds` a 400 naming it.
 */
export function parseVerifyInput(input: unknown): ParsedVerifyInput {
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const { text } = body;
  if (!present(text) || (typeof text === 'string' && text.trim().length === 0)) throw errors.textRequired();
  if (typeof text !== 'string') throw errors.validation('text', 'text must be a string');
  if (text.length > VERIFY_LIMITS.textChars) throw errors.textTooLarge(VERIFY_LIMITS.textChars);
  if (!NO_NUL(text)) throw errors.validation('text', 'text must not contain NUL characters');
  const hasPassages = present(body.passages);
  const hasCollections = present(body.collectionIds);
  if (hasPassages && hasCollections) throw errors.ambiguousScope();
  if (!hasPassages && !hasCollections) throw errors.validation('passages', 'passages or collectionIds is required');
  if (hasPassages) {
    const parsed = PassagesSchema.safeParse(body.passages);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const [index, field] = issue.path;
      const where = typeof index === 'number' ? `passages[${index}]${field ? `.${String(field)}` : ''}` : 'passages';
      const message = typeof index === 'number' && !field ? 'each passage needs a source and a content' : issue.message;
      throw errors.invalidPassages(`${where}: ${message}`);
    }
    return { text, passages: parsed.data };
  }
  const parsed = CollectionIdsSchema.safeParse(body.collectionIds);
  if (!parsed.success) throw errors.validation('collectionIds', parsed.error.issues[0]!.message);
  return { text, collectionIds: [...new Set(parsed.data)] };
}

export const VERDICTS = ['supported', 'contradicted', 'unverifiable'] as const;

export const EvidenceSchema = z.object({
  source: z.string().describe('The passage (its `source`) or the knowledge source (its name)'),
  quote: z.string().describe('The sentence of the passage that backs or contradicts the claim, verbatim'),
  start: z.number().int().describe('Offset of the quote in the passage content (characters)'),
  end: z.number().int().describe('End offset of the quote (exclusive)'),
  score: z.number().describe('Weighted share of the claim words found in the quote, 0 to 1'),
  sourceId: z.string().optional().describe('Knowledge source id (collections only)'),
  chunkId: z.string().optional().describe('Knowledge passage id (collections only)'),
});

export const ClaimSchema = z.object({
  text: z.string(),
  start: z.number().int().describe('Offset of the claim in the verified text'),
  end: z.number().int(),
  verdict: z.enum(VERDICTS),
  rule: z.string().describe('The rule that decided: numbers, dates, negation, antonym, entities, overlap or none'),
  evidence: z.array(EvidenceSchema).describe('The best evidence first; empty when nothing near was found'),
});

export const CountsSchema = z.object({ supported: z.number().int(), contradicted: z.number().int(), unverifiable: z.number().int() });

export const ReportSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  language: z.string().describe('Language of the rules and stemmer used: en or fr'),
  against: z.enum(['passages', 'collections']),
  collectionIds: z.array(z.string()).nullable(),
  text: z.string(),
  claims: z.array(ClaimSchema),
  counts: CountsSchema,
  certificateId: z.string().describe('The proof certificate of the report (GET /v1/verify/:id/certificate)'),
});
export type ReportDto = z.infer<typeof ReportSchema>;

export const ReportListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 100' })
    .int('limit must be a whole number from 1 to 100')
    .min(1, 'limit must be a whole number from 1 to 100')
    .max(100, 'limit must be a whole number from 1 to 100')
    .default(20)
    .describe('Reports per page, 1 to 100 (default 20)'),
  cursor: z.string({ error: 'cursor must be a string' }).max(200, 'cursor is not valid').optional().describe('`nextCursor` of the previous page (opaque)'),
});
export type ReportListQuery = z.input<typeof ReportListQuerySchema>;

export const ReportListSchema = z.object({
  reports: z.array(ReportSchema),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});

export const ExportQuerySchema = z.object({
  format: z.enum(['pdf', 'json'], { error: 'format must be pdf or json' }).default('pdf'),
});
