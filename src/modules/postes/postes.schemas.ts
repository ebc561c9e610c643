import { z } from 'zod';
import { CitationSchema } from '../light/index.js';
import { ClaimSchema, CountsSchema } from '../verify/index.js';

const NO_NUL = (s: string) => !s.includes('\u0000');
export const MAX_INSTRUCTIONS = 4_000;

/** The console's install (GraphQL `installPoste`) and the CLI's `poste install W --key K`. */
export const InstallPosteSchema = z.object({
  key: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'key is required' : 'key must be a string') })
    .max(100, 'key must be at most 100 characters')
    .refine(NO_NUL, 'key must not contain NUL characters')
    .refine((s) => s.trim().length > 0, 'key is required'),
});
export type InstallPosteInput = z.input<typeof InstallPosteSchema>;

/** `POST /v1/postes/:key/run`. */
export const RunPosteBodySchema = z.object({
  dossierId: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'dossierId is required' : 'dossierId must be a string') })
    .min(1, 'dossierId is required')
    .max(64, 'Dossier not found')
    .refine(NO_NUL, 'Dossier not found')
    .describe('The dossier the poste runs on (400 Dossier not found otherwise)'),
  instructions: z
    .string({ error: 'instructions must be a string' })
    .max(MAX_INSTRUCTIONS, `instructions must be at most ${MAX_INSTRUCTIONS} characters`)
    .refine(NO_NUL, 'instructions must not contain NUL characters')
    .nullish()
    .describe('Extra instructions given to the model for every control point'),
  stream: z.boolean({ error: 'stream must be a boolean' }).nullish().describe('true (or Accept: text/event-stream): progress as Server-Sent Events'),
});
export type RunPosteBody = z.input<typeof RunPosteBodySchema>;

/** `runPoste`'s input (the operation postes.run passes the REST body, the GraphQL arguments or the MCP tool poste_run's, with the key). */
export const RunPosteSchema = RunPosteBodySchema.omit({ stream: true }).extend({
  key: InstallPosteSchema.shape.key,
});
export type RunPosteInput = z.input<typeof RunPosteSchema>;

export const ITEM_VERDICTS = ['supported', 'partially_supported', 'contradicted', 'unverifiable', 'not_found'] as const;
export type ItemVerdict = (typeof ITEM_VERDICTS)[number];

export const VerificationSchema = z.object({
  counts: CountsSchema,
  claims: z.array(ClaimSchema).describe("The verifier's result: each claim of the finding against the passages it cites"),
});

export const PosteItemSchema = z.object({
  checkpoint: z.string().describe('The control point of the checklist'),
  finding: z.string().describe('What the dossier says about it, with [n] citations; "Not found in the dossier." when nothing answers'),
  citations: z.array(CitationSchema).describe('The passages the finding cites'),
  verdict: z
    .enum(ITEM_VERDICTS)
    .describe('supported: every claim backed by its passages; partially_supported; contradicted: a passage says otherwise; unverifiable; not_found: the dossier does not answer'),
  verification: VerificationSchema.nullable().describe("The verifier's result against the cited passages (null when nothing was found)"),
});
export type PosteItem = z.infer<typeof PosteItemSchema>;

export const PosteRunDtoSchema = z.object({
  id: z.string(),
  posteKey: z.string(),
  dossierId: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  items: z.array(PosteItemSchema),
  proofId: z.string().nullable().describe('The proof certificate of the run (GET /v1/proofs/:id)'),
  totalTokens: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type PosteRunDto = z.infer<typeof PosteRunDtoSchema>;

export const PosteDtoSchema = z.object({
  key: z.string(),
  agentId: z.string(),
  name: z.string(),
  checklist: z.array(z.string()),
});
export type PosteDto = z.infer<typeof PosteDtoSchema>;

export const PosteTemplateDtoSchema = z.object({
  key: z.string(),
  name: z.string(),
  role: z.string(),
  mission: z.string(),
  checklist: z.array(z.string()),
  installed: z.boolean(),
});

/** `GET /v1/postes/runs` (and `posteRuns` on GraphQL): the run history, newest first. */
export const POSTE_RUNS_PAGE = { default: 20, max: 100 } as const;
const runsLimitMessage = `limit must be a whole number from 1 to ${POSTE_RUNS_PAGE.max}`;
export const ListPosteRunsQuerySchema = z.object({
  posteKey: z.string({ error: 'posteKey must be a string' }).max(64, 'posteKey: at most 64 characters').refine((s) => !s.includes('\u0000'), 'posteKey must not contain NUL characters').optional().describe('Only the runs of this poste'),
  dossierId: z.string({ error: 'dossierId must be a string' }).max(64, 'dossierId: at most 64 characters').refine((s) => !s.includes('\u0000'), 'dossierId must not contain NUL characters').optional().describe('Only the runs on this dossier'),
  limit: z.coerce
    .number({ error: runsLimitMessage })
    .int(runsLimitMessage)
    .min(1, runsLimitMessage)
    .max(POSTE_RUNS_PAGE.max, runsLimitMessage)
    .default(POSTE_RUNS_PAGE.default)
    .describe(`Runs to return, newest first, 1 to ${POSTE_RUNS_PAGE.max} (default ${POSTE_RUNS_PAGE.default})`),
});
export type ListPosteRunsQuery = z.input<typeof ListPosteRunsQuerySchema>;
