import { z } from 'zod';
import { CertificateSchema } from '../proofs/index.js';

/** What produced a certificate, read from its route: a gateway call, a chat turn, a verifier report. */
export const PROOF_KINDS = ['gateway', 'chat', 'verify'] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];

/** The kind of a certificate as SQL, from its `route` (the table stores no kind: signed bodies stay as they were). */
export const KIND_SQL = `case when route like 'POST /v1/verify%' then 'verify'
  when route in ('POST /v1/chat/completions', 'POST /v1/messages') then 'gateway' else 'chat' end`;

const instant = (field: string) =>
  z
    .string({ error: `${field} must be a date (YYYY-MM-DD) or an ISO 8601 instant` })
    .max(40, `${field} must be a date (YYYY-MM-DD) or an ISO 8601 instant`)
    .refine((s) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s)), `${field} must be a date (YYYY-MM-DD) or an ISO 8601 instant`)
    .transform((s) => new Date(s));

export const RegisterQuerySchema = z.object({
  kind: z
    .string({ error: 'kind must be gateway, chat or verify (comma-separated)' })
    .max(100, 'kind must be gateway, chat or verify (comma-separated)')
    .transform((s) => s.split(',').map((k) => k.trim()).filter(Boolean))
    .refine((ks) => ks.length > 0 && ks.every((k) => (PROOF_KINDS as readonly string[]).includes(k)), 'kind must be gateway, chat or verify (comma-separated)')
    .optional()
    .describe('gateway, chat or verify; several separated by commas'),
  from: instant('from').optional().describe('Certificates created at or after (YYYY-MM-DD or ISO instant, UTC)'),
  to: instant('to').optional().describe('Certificates created before (YYYY-MM-DD or ISO instant, UTC)'),
  keyId: z.string({ error: 'keyId must be a string' }).min(1, 'keyId must not be empty').max(64, 'keyId is not a valid id').optional().describe('The API key the certificate was issued for'),
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 100' })
    .int('limit must be a whole number from 1 to 100')
    .min(1, 'limit must be a whole number from 1 to 100')
    .max(100, 'limit must be a whole number from 1 to 100')
    .default(50),
  cursor: z.string({ error: 'cursor must be a string' }).max(200, 'cursor is not valid').optional(),
});
export type RegisterQuery = z.input<typeof RegisterQuerySchema>;

export const RegisterEntrySchema = CertificateSchema.extend({
  kind: z.enum(PROOF_KINDS),
  apiKeyId: z.string().nullable().describe('The API key the certificate was issued for, when recorded (not signed)'),
  requestId: z.string().nullable().describe('The `x-request-id` of the call that produced the certificate, when recorded (not signed)'),
});
export type RegisterEntry = z.infer<typeof RegisterEntrySchema>;

export const RegisterPageSchema = z.object({ certificates: z.array(RegisterEntrySchema), nextCursor: z.string().nullable() });

export const ChainStateSchema = z.object({
  length: z.number().int(),
  firstHash: z.string().nullable(),
  lastHash: z.string().nullable(),
  valid: z.boolean(),
  firstBroken: z
    .object({ seq: z.number().int(), id: z.string(), check: z.enum(['sequence', 'hash', 'signature', 'chain']), reason: z.string() })
    .nullable()
    .describe('The first certificate whose position, hash, signature or link to the previous one fails'),
});

export const RegisterSummarySchema = z.object({
  counts: z.array(z.object({ month: z.string(), kind: z.enum(PROOF_KINDS), count: z.number().int() })).describe('Certificates by month (UTC) and kind'),
  chain: ChainStateSchema,
});
export type RegisterSummary = z.infer<typeof RegisterSummarySchema>;
