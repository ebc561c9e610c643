import { z } from 'zod';
import { maxJsonDepth } from '../../lib/json-depth.js';
import { pgInt } from '../../lib/pg-int.js';
import { TOOL_METHODS } from './tool.entity.js';

export const TOOL_TIMEOUT = { min: 100, max: 30_000, default: 10_000 } as const;
/** Largest response body a tool call reads; a bigger one is a failed call. */
export const TOOL_MAX_RESPONSE_BYTES = 64 * 1024;
export const MAX_HEADERS = 20;

const MAX_DESCRIPTION = 2_000;
const MAX_URL = 2_000;
const MAX_HEADER_VALUE = 4_000;

/** Function-tool names accepted by the model providers. */
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** Set by the HTTP client from the request itself; a tool may not override them. */
export const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-authorization', 'proxy-connection']);

/** PostgreSQL text and jsonb hold no NUL: such input is a 400 naming its field, never a database error. */
const NO_NUL = (s: string) => !s.includes('\u0000');
/** No NUL in any key or string of a JSON value (jsonb refuses `\u0000`). */
const jsonWithoutNul = (value: unknown): boolean => {
  let clean = true;
  JSON.stringify(value, (key: string, v: unknown) => {
    if (!NO_NUL(key) || (typeof v === 'string' && !NO_NUL(v))) clean = false;
    return v;
  });
  return clean;
};

const required = (field: string) =>
  z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be a string`) });

const toolName = required('name').regex(NAME, 'name must start with a letter and hold only letters, digits, _ and - (at most 64 characters)');
const description = required('description')
  .max(MAX_DESCRIPTION, `description must be at most ${MAX_DESCRIPTION} characters`)
  .refine(NO_NUL, 'description must not contain NUL characters')
  .refine((s) => s.trim().length > 0, 'description is required');
const urlTemplate = required('urlTemplate')
  .max(MAX_URL, `urlTemplate must be at most ${MAX_URL} characters`)
  .refine(NO_NUL, 'urlTemplate must not contain NUL characters')
  .refine((s) => s.trim().length > 0, 'urlTemplate is required');
const method = z.enum(TOOL_METHODS, { error: `method must be one of ${TOOL_METHODS.join(', ')}` });
const timeoutMs = pgInt('timeoutMs', TOOL_TIMEOUT);
const isActive = z.boolean({ error: 'isActive must be a boolean' });
const inputSchema = maxJsonDepth(
  z.record(z.string(), z.unknown(), { error: 'inputSchema must be a JSON Schema object' }),
  'inputSchema',
).refine(jsonWithoutNul, 'inputSchema must not contain NUL characters');

/** A header as sent by clients; a secret header's `value` may be omitted on update to keep the stored one. */
export const HeaderInputSchema = z.object({
  name: required('name')
    .regex(HEADER_NAME, 'header name is not a valid HTTP header name')
    .refine((n) => !FORBIDDEN_HEADERS.has(n.toLowerCase()), 'header name is set by the server and cannot be configured'),
  value: z
    .string({ error: 'header value must be a string' })
    .max(MAX_HEADER_VALUE, `header value must be at most ${MAX_HEADER_VALUE} characters`)
    .refine((v) => !/[\r\n\0]/.test(v), 'header value must not contain line breaks')
    // What HTTP allows in a field value (Node refuses anything else at call time): tab, visible ASCII, Latin-1.
    .refine((v) => /^[\t\x20-\x7e\x80-\xff]*$/.test(v), 'header value must hold only printable characters (Latin-1)')
    .nullish(),
  secret: z.boolean({ error: 'header secret must be a boolean' }).nullish(),
});
export type HeaderInput = z.infer<typeof HeaderInputSchema>;
const headers = z.array(HeaderInputSchema, { error: 'headers must be a list of { name, value, secret }' }).max(MAX_HEADERS, `headers must have at most ${MAX_HEADERS} entries`);

export const CreateToolSchema = z.object({
  name: toolName,
  description,
  inputSchema: inputSchema.nullish(),
  method: method.nullish(),
  urlTemplate,
  headers: headers.nullish(),
  timeoutMs: timeoutMs.nullish(),
  isActive: isActive.nullish(),
});
export type CreateToolInput = z.input<typeof CreateToolSchema>;

/** Partial update: omitted or null fields keep their value; `headers` replaces the whole list. */
export const UpdateToolSchema = z.object({
  name: toolName.nullish(),
  description: description.nullish(),
  inputSchema: inputSchema.nullish(),
  method: method.nullish(),
  urlTemplate: urlTemplate.nullish(),
  headers: headers.nullish(),
  timeoutMs: timeoutMs.nullish(),
  isActive: isActive.nullish(),
});
export type UpdateToolInput = z.input<typeof UpdateToolSchema>;

export const LinkToolSchema = z.object({
  toolId: required('toolId').min(1, 'toolId is required').max(64, 'Tool not found'),
});
export type LinkToolInput = z.input<typeof LinkToolSchema>;

export const TestToolSchema = z.object({
  arguments: maxJsonDepth(z.unknown(), 'arguments').optional(),
});
export type TestToolInput = z.input<typeof TestToolSchema>;

export const ToolDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  method: method,
  urlTemplate: z.string(),
  headers: z.array(z.object({ name: z.string(), secret: z.boolean(), value: z.string().nullable() })),
  timeoutMs: z.number().int(),
  isActive: z.boolean(),
  userId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ToolDto = z.infer<typeof ToolDtoSchema>;

export const ToolRunResultSchema = z.object({
  success: z.boolean(),
  result: z.unknown(),
  durationMs: z.number().int(),
});
