import { z } from 'zod';
import { pgInt } from '../../lib/pg-int.js';

const MAX_NAME = 200;
const MAX_GREETING = 1000;
export const MAX_ORIGINS = 50;
/** A visitor's requests per minute from one IP address, at most. */
export const MAX_IP_RATE = 10_000;

const presence = (field: string, kind: string) => (iss: { input: unknown }) =>
  iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be ${kind}`;

const NO_NUL = (s: string) => !s.includes('\u0000');

/**
 * The origin a page is served from, as a browser sends it in `Origin`: `http` or `https`, a host, an
 * optional port, nothing else (no path, query, fragment or credentials). Returned normalised
 * (lower-case host, default port dropped), or undefined when `value` is not one.
 */
export function normaliseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  return url.origin;
}

const origin = z
  .string({ error: 'allowedOrigins must be a list of origins' })
  .max(300, 'allowedOrigins: an origin is at most 300 characters')
  .transform((s, ctx) => {
    const normalised = normaliseOrigin(s.trim());
    if (!normalised) {
      ctx.addIssue({ code: 'custom', message: `allowedOrigins: ${JSON.stringify(s)} is not an origin (scheme://host[:port], http or https, no path)` });
      return z.NEVER;
    }
    return normalised;
  });

const allowedOrigins = z
  .array(origin, { error: presence('allowedOrigins', 'a list of origins') })
  .min(1, 'allowedOrigins must contain at least one origin')
  .max(MAX_ORIGINS, `allowedOrigins must contain at most ${MAX_ORIGINS} origins`)
  .transform((list) => [...new Set(list)]);

const name = z
  .string({ error: presence('name', 'a string') })
  .max(MAX_NAME, `name must be at most ${MAX_NAME} characters`)
  .refine(NO_NUL, 'name must not contain NUL characters')
  .refine((s) => s.trim().length > 0, 'name is required');

const greeting = z
  .string({ error: 'greeting must be a string' })
  .max(MAX_GREETING, `greeting must be at most ${MAX_GREETING} characters`)
  .refine(NO_NUL, 'greeting must not contain NUL characters');

export const WIDGET_FAMILIES = ['agent', 'light'] as const;
const family = z.enum(WIDGET_FAMILIES, { error: presence('family', 'agent or light') });

const agentId = z.string({ error: 'agentId must be a string' }).max(64, 'agentId must be at most 64 characters');
const dossierId = z.string({ error: 'dossierId must be a string' }).max(64, 'dossierId must be at most 64 characters');

const monthlyQuestionLimit = pgInt('monthlyQuestionLimit');
const ipRatePerMinute = pgInt('ipRatePerMinute', { max: MAX_IP_RATE });

/**
 * `POST /engine/widgets`. An agent widget names its agent (`agentId`), which must read chosen documents
 * or dossiers; a light widget names the dossier it answers from (`dossierId`).
 */
export const CreateWidgetSchema = z.object({
  name,
  family,
  agentId: agentId.nullish(),
  dossierId: dossierId.nullish().describe('The dossier a light widget answers from (required for light, refused for agent)'),
  allowedOrigins,
  monthlyQuestionLimit: monthlyQuestionLimit.describe('Questions the widget may answer per calendar month (UTC)'),
  ipRatePerMinute: ipRatePerMinute.describe('Requests one IP address may make per calendar minute'),
  greeting: greeting.nullish().describe('First message the panel shows'),
});
export type CreateWidgetInput = z.input<typeof CreateWidgetSchema>;

/** `PATCH /engine/widgets/:id`: every field optional; omitted or null keeps the value (`greeting: ""` clears it). */
export const UpdateWidgetSchema = z.object({
  name: name.nullish(),
  family: family.nullish(),
  agentId: agentId.nullish(),
  dossierId: dossierId.nullish(),
  allowedOrigins: allowedOrigins.nullish(),
  monthlyQuestionLimit: monthlyQuestionLimit.nullish(),
  ipRatePerMinute: ipRatePerMinute.nullish(),
  greeting: greeting.nullish(),
});
export type UpdateWidgetInput = z.input<typeof UpdateWidgetSchema>;

/** A widget as the workspace reads it (REST and GraphQL). */
export const WidgetDtoSchema = z.object({
  id: z.string(),
  publicId: z.string().describe('What the script tag names (`data-widget`); public, opens nothing but this widget'),
  name: z.string(),
  greeting: z.string().nullable(),
  family: z.enum(WIDGET_FAMILIES),
  agentId: z.string().nullable(),
  dossierId: z.string().nullable(),
  allowedOrigins: z.array(z.string()),
  monthlyQuestionLimit: z.number().int(),
  ipRatePerMinute: z.number().int(),
  questionsThisMonth: z.number().int().describe('Questions answered through the widget this calendar month (UTC)'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WidgetDto = z.infer<typeof WidgetDtoSchema>;

/** One earlier exchange of the visitor's conversation, kept by the panel (the service stores none). */
const HistoryItemSchema = z.object({
  role: z.enum(['user', 'assistant'], { error: 'history[].role must be user or assistant' }),
  content: z
    .string({ error: 'history[].content must be a string' })
    .max(4000, 'history[].content must be at most 4000 characters')
    .refine(NO_NUL, 'history[].content must not contain NUL characters'),
});

export const MAX_VISITOR_MESSAGE = 2000;
export const MAX_VISITOR_HISTORY = 20;

/** `POST /widget/:publicId/chat`: the visitor's question and the conversation so far. */
export const WidgetChatSchema = z.object({
  message: z
    .string({ error: presence('message', 'a string') })
    .max(MAX_VISITOR_MESSAGE, `message must be at most ${MAX_VISITOR_MESSAGE} characters`)
    .refine(NO_NUL, 'message must not contain NUL characters')
    .refine((s) => s.trim().length > 0, 'message is required'),
  history: z
    .array(HistoryItemSchema, { error: 'history must be a list of { role, content }' })
    .max(MAX_VISITOR_HISTORY, `history must contain at most ${MAX_VISITOR_HISTORY} messages`)
    .optional(),
});
export type WidgetChatInput = z.input<typeof WidgetChatSchema>;

/** `GET /widget/:publicId/config`: what the panel shows before the first question. */
export const WidgetConfigSchema = z.object({
  publicId: z.string(),
  name: z.string(),
  greeting: z.string().nullable(),
  family: z.enum(WIDGET_FAMILIES),
});
export type WidgetConfig = z.infer<typeof WidgetConfigSchema>;
