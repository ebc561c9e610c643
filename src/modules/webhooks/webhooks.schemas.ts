import { z } from 'zod';

const MAX_URL = 2048;
const MAX_DESCRIPTION = 1000;

const presence = (field: string, kind: string) => (iss: { input: unknown }) =>
  iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be ${kind}`;

/** PostgreSQL text cannot hold NUL: refused here as bad input rather than failing at the database. */
const NO_NUL = (s: string) => !s.includes('\u0000');

const url = z
  .string({ error: presence('url', 'a string') })
  .max(MAX_URL, `url must be at most ${MAX_URL} characters`)
  .refine((s) => s.trim().length > 0, 'url is required')
  .refine(NO_NUL, 'url must not contain NUL characters');

const events = z
  .array(z.string({ error: 'events must be a list of event names' }), { error: presence('events', 'a list of event names') })
  .min(1, 'events must contain at least one event name');

const description = z
  .string({ error: 'description must be a string' })
  .max(MAX_DESCRIPTION, `description must be at most ${MAX_DESCRIPTION} characters`)
  .refine(NO_NUL, 'description must not contain NUL characters');

/** `POST /v1/webhooks`. Event names and the URL policy are checked by the service after this shape. */
export const CreateWebhookSchema = z.object({
  url,
  events,
  description: description.nullish(),
});
export type CreateWebhookInput = z.input<typeof CreateWebhookSchema>;

/** `PUT /v1/webhooks/:id`: every field optional; omitted or null keeps the value; `events` replaces the list. */
export const UpdateWebhookSchema = z.object({
  url: url.nullish(),
  events: events.nullish(),
  description: description.nullish(),
  isActive: z.boolean({ error: 'isActive must be a boolean' }).nullish(),
});
export type UpdateWebhookInput = z.input<typeof UpdateWebhookSchema>;

/** A webhook endpoint as read (list item shape): `secretPreview`, never `secret`. */
export const WebhookDtoSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  isActive: z.boolean(),
  secretPreview: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookDto = z.infer<typeof WebhookDtoSchema>;

/** The creation response adds the secret, shown this once. */
export const CreatedWebhookDtoSchema = WebhookDtoSchema.extend({ secret: z.string() });
export type CreatedWebhookDto = z.infer<typeof CreatedWebhookDtoSchema>;

/** A delivery log entry (SPEC fields), plus `failureReason` saying why an attempt without a 2xx failed. */
export const DeliveryDtoSchema = z.object({
  id: z.string(),
  event: z.string(),
  statusCode: z.number().int().nullable(),
  responseBody: z.string(),
  success: z.boolean(),
  retryCount: z.number().int(),
  deliveredAt: z.string().nullable(),
  nextRetryAt: z.string().nullable(),
  createdAt: z.string(),
  failureReason: z.string().nullable(),
  requestId: z.string().nullable().describe('The id of the request that caused the event (`x-request-id`), sent as `X-Request-Id`; null when none did'),
});
export type DeliveryDto = z.infer<typeof DeliveryDtoSchema>;

/** Answer of the test and replay routes. */
export const AttemptOutcomeSchema = z.object({ success: z.boolean(), statusCode: z.number().int().nullable() });
export type AttemptOutcome = z.infer<typeof AttemptOutcomeSchema>;
