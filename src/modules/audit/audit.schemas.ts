import { z } from 'zod';

/**
 * What the audit log records: the changes of who can do what (docs/operations.md, "Audit log"). The
 * names are `<object>.<what happened>`; new ones are added at the end.
 */
export const AUDIT_ACTIONS = [
  'key.created',
  'key.updated',
  'key.revoked',
  'person.created',
  'person.invited',
  'person.invitation_accepted',
  'person.role_changed',
  'person.disabled',
  'person.signed_in',
  'person.sign_in_failed',
  'person.password_changed',
  'person.password_reset',
  'webhook.created',
  'webhook.updated',
  'webhook.secret_rotated',
  'webhook.deleted',
  'flow.unattended_outbound_allowed',
  'flow.unattended_outbound_withdrawn',
  'workspace.suspended',
  'workspace.reinstated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who acted: an API key (and the user it acts for), a signed-in person, the system (the operator's
 * CLI), or an anonymous client known only by its address (a failed sign-in).
 */
export const ACTOR_TYPES = ['key', 'person', 'system', 'anonymous'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export const AuditActorSchema = z.object({
  type: z.enum(ACTOR_TYPES).describe('key, person, system (the operator CLI) or anonymous (a failed sign-in)'),
  keyId: z.string().nullable().describe('The API key that acted (type key)'),
  userId: z.string().nullable().describe('The person, or the user the key acts for'),
  email: z.string().nullable().describe("That user's e-mail when it has one, as it was at the time"),
});
export type AuditActor = z.infer<typeof AuditActorSchema>;

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string().describe('When, on the service clock (ISO 8601)'),
  action: z.enum(AUDIT_ACTIONS),
  actor: AuditActorSchema,
  target: z.object({
    type: z.string().describe('apiKey, person, webhook, flow or workspace'),
    id: z.string().nullable(),
  }),
  details: z.record(z.string(), z.unknown()).describe('What changed, never a secret (no key or webhook secret, password or token)'),
  address: z.string().nullable().describe('The client address the request came from (X-Forwarded-For behind a proxy); null for the CLI'),
  requestId: z.string().nullable().describe('The request id (x-request-id) of the change; null for the CLI'),
});
export type AuditEntryDto = z.infer<typeof AuditEntrySchema>;

export const AuditPageSchema = z.object({ entries: z.array(AuditEntrySchema), nextCursor: z.string().nullable() });

const ACTION_MESSAGE = `action must be one or more of ${AUDIT_ACTIONS.join(', ')} (comma-separated)`;

const instant = (field: string) =>
  z
    .string({ error: `${field} must be a date (YYYY-MM-DD) or an ISO 8601 instant` })
    .max(40, `${field} must be a date (YYYY-MM-DD) or an ISO 8601 instant`)
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s)),
      `${field} must be a date (YYYY-MM-DD) or an ISO 8601 instant`,
    )
    .transform((s) => new Date(s));

export const AuditQuerySchema = z.object({
  action: z
    .string({ error: ACTION_MESSAGE })
    .max(1000, ACTION_MESSAGE)
    .transform((s) => [...new Set(s.split(',').map((a) => a.trim()).filter(Boolean))])
    .refine((as) => as.length > 0 && as.every((a) => (AUDIT_ACTIONS as readonly string[]).includes(a)), ACTION_MESSAGE)
    .optional()
    .describe('Only these actions (comma-separated), e.g. key.created,key.revoked'),
  from: instant('from').optional().describe('Entries at or after (YYYY-MM-DD or ISO instant, UTC)'),
  to: instant('to').optional().describe('Entries before (YYYY-MM-DD or ISO instant, UTC)'),
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 100' })
    .int('limit must be a whole number from 1 to 100')
    .min(1, 'limit must be a whole number from 1 to 100')
    .max(100, 'limit must be a whole number from 1 to 100')
    .default(50),
  cursor: z.string({ error: 'cursor must be a string' }).max(200, 'cursor is not valid').optional(),
});
export type AuditQuery = z.input<typeof AuditQuerySchema>;
