import { z } from 'zod';
import { pgInt } from '../../lib/pg-int.js';
import { KNOWN_SCOPES } from '../../core/scopes.js';

export const ScopesSchema = z
  .array(z.string({ error: 'scopes must be a list of scope names' }), { error: 'scopes must be a list of scope names' })
  .superRefine((scopes, ctx) => {
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.includes(s));
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `scopes contains unknown scope: ${unknown.join(', ')}` });
  });

/** Attributes of a new key (CLI and `POST /developer/api-keys`). */
export const KeyAttributesSchema = z.object({
  name: z.string({ error: 'name must be a string' }).max(200, 'name must be at most 200 characters').nullish(),
  scopes: ScopesSchema.optional(),
  readonly: z.boolean({ error: 'readonly must be a boolean' }).optional(),
  ratePerMinute: pgInt('ratePerMinute').nullish(),
  monthlyQuestionLimit: pgInt('monthlyQuestionLimit').nullish(),
  expiresAt: z.iso.datetime({ offset: true, error: 'expiresAt must be an ISO 8601 date-time' }).nullish(),
});
export type KeyAttributes = z.infer<typeof KeyAttributesSchema>;

/** An API key as every API shows it (REST, GraphQL, the CLI): never its secret, but at creation. */
export const ApiKeyDtoSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  preview: z.string().describe('The first characters of the secret, to recognise the key'),
  scopes: z.array(z.string()),
  readonly: z.boolean(),
  ratePerMinute: z.number().int().nullable(),
  monthlyQuestionLimit: z.number().int().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiKeyDto = z.infer<typeof ApiKeyDtoSchema> & {
  /** Only in the creation response. */
  secret?: string;
};
