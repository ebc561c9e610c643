import { z } from 'zod';
import { AnthropicErrorSchema, OpenAIErrorSchema } from '../src/modules/gateway/index.js';
import { SHOULD_RETRY_HEADER } from '../src/errors/index.js';
import { routeRegistry, isMetered, refusesUnknownFields, type AnyRoute } from './route.js';

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' });

const MEDIA_TYPES = { json: 'application/json', multipart: 'multipart/form-data' } as const;

/**
 * The native error body (SPEC, Errors): `error` says what went wrong, `code` where the catalogue has one
 * on the wire, `field` when one field of the input is at fault, and the entry's other details beside
 * them (`required`, `feature`, `scope`...). A native route's 4xx/5xx response without a schema of its
 * own is documented with it, so route files only describe when each status happens.
 */
export const NativeErrorSchema = z.object({ error: z.string(), code: z.string().optional(), field: z.string().optional() }).loose();

/** The MCP endpoint's refusals of a request it could not read or serve: a JSON-RPC 2.0 error object (src/errors/render.ts). */
export const JsonRpcErrorSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.null(),
  error: z.object({
    code: z.number().int().describe('-32700 the body does not read as one JSON-RPC message, -32600 an invalid request, -32603 an internal error'),
    message: z.string(),
    data: NativeErrorSchema.describe('The native error body, with the catalogue code'),
  }),
});

/** The route-level ceiling's 429 (SPEC: a body of its own, in none of the error shapes). */
export const RouteRateLimitedSchema = z.object({ message: z.string(), route: z.string(), limitPerMinute: z.number().int() }).loose();

/** One shared schema per wire shape, in `components.schemas`; every response that has that shape refers to it. */
const ERROR_COMPONENTS = new Map<z.ZodType, string>([
  [NativeErrorSchema, 'NativeError'],
  [OpenAIErrorSchema, 'OpenAIError'],
  [AnthropicErrorSchema, 'AnthropicError'],
  [JsonRpcErrorSchema, 'JsonRpcError'],
  [RouteRateLimitedSchema, 'RouteRateLimited'],
]);

type Dialect = NonNullable<AnyRoute['dialect']>;
const DIALECT_ERROR: Record<Dialect, z.ZodType> = {
  native: NativeErrorSchema,
  openai: OpenAIErrorSchema,
  anthropic: AnthropicErrorSchema,
  jsonrpc: JsonRpcErrorSchema,
};

const ref = (schema: z.ZodType): Record<string, unknown> => {
  const name = ERROR_COMPONENTS.get(schema);
  return name ? { $ref: `#/components/schemas/${name}` } : toJsonSchema(schema, 'output');
};

interface Documented {
  descriptions: string[];
  schemas: Record<string, unknown>[];
}

/**
 * Every status a route can answer, derived from its declaration so that a route added with `mount()`
 * gets them without writing them:
 * - what the route declares (its own schema, or its wire shape's error schema for a 4xx/5xx);
 * - on every keyed route, the auth-stage refusals in the native shape whatever the dialect (SPEC,
 *   Authentication 6): 401, 403 (`scope_denied`, `read_only_key`, `client_suspended`,
 *   `provider_unpaid`...), 429 `rate_limited`; with a route-level ceiling (`rateLimit`) also its 429
 *   body; on a route that meters answers (`isMetered`), 402 `API_KEY_BUDGET_EXCEEDED` (native) and the
 *   allowance refusals in the route's shape (the Anthropic dialect answers a spent allowance with 429
 *   `rate_limit_error`); and 503 `server_restarting` (a shutdown that gives up on the request);
 * - with a request body: 400 (malformed or invalid body) and 413 (over the body limit); with declared
 *   query parameters, 400;
 * - with a path parameter: 404 (nothing by that id in the workspace) and 400 (not valid
 *   percent-encoding, refused by the router in the native shape);
 * - 500 everywhere (an unexpected failure, without its internals).
 * Several bodies for one status are documented as `anyOf`.
 */
function statusesOf(r: AnyRoute): Map<number, Documented> {
  const dialect: Dialect = r.dialect ?? 'native';
  const out = new Map<number, Documented>();
  const add = (status: number, description: string, schema?: z.ZodType) => {
    const doc = out.get(status) ?? { descriptions: [], schemas: [] };
    if (!doc.descriptions.includes(description)) doc.descriptions.push(description);
    const json = schema && ref(schema);
    if (json && !doc.schemas.some((s) => JSON.stringify(s) === JSON.stringify(json))) doc.schemas.push(json);
    out.set(status, doc);
  };
  for (const [key, resp] of Object.entries(r.responses)) {
    const status = Number(key);
    add(status, resp.description, resp.schema ?? (status >= 400 ? DIALECT_ERROR[dialect] : undefined));
  }
  const dialectError = DIALECT_ERROR[dialect];
  const keyed = !('public' in r) && !r.widget;
  if (!keyed && r.rateLimit) add(429, `Ceiling (${r.rateLimit}), per ${'public' in r ? 'client address' : 'widget'}: its own body, with retry-after`, RouteRateLimitedSchema);
  if (keyed) {
    add(401, 'Missing, invalid, revoked or expired key, or unknown user (native shape)', NativeErrorSchema);
    add(403, 'Auth stage: scope_denied, read_only_key, client_suspended, provider_unpaid (native shape)', NativeErrorSchema);
    add(429, 'rate_limited: the key\'s ratePerMinute, with retry-after (native shape)', NativeErrorSchema);
    if (r.rateLimit) add(429, `Route-level ceiling (${r.rateLimit}): its own body`, RouteRateLimitedSchema);
    if (isMetered(r)) {
      add(402, 'API_KEY_BUDGET_EXCEEDED: the key\'s monthly ceiling (native shape)', NativeErrorSchema);
      add(402, 'No questions left, subscription inactive, or a feature the plan lacks', dialectError);
      if (dialect === 'anthropic') add(429, 'rate_limit_error: the question allowance is spent (no retry-after)', AnthropicErrorSchema);
    }
    add(503, 'server_restarting: a shutdown gave up on the request; retry elsewhere', dialectError);
  }
  if (r.query) add(400, 'Invalid query parameter', dialectError);
  if (r.body) {
    add(400, 'Malformed or invalid request body', dialectError);
    add(413, 'Request body over the body limit', dialectError);
  }
  if (/:[A-Za-z]+/.test(r.path)) {
    if (!out.has(404)) add(404, 'Nothing by that id in the workspace', dialectError);
    add(400, 'A path parameter that is not valid percent-encoding (native shape)', NativeErrorSchema);
  }
  add(500, 'Unexpected failure (its internals are logged, never returned)', dialectError);
  return out;
}

/** Every error answer says whether the SPEC's retry rules allow sending it again (src/errors/render.ts, `mayRetry`). */
const SHOULD_RETRY_DOC = {
  description:
    "Whether to retry (SPEC, Retry rules): true for a 429 with retry-after and a 5xx but 501, false otherwise; the official OpenAI and Anthropic clients obey it",
  schema: { type: 'string', enum: ['true', 'false'] },
};

function responsesOf(r: AnyRoute): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, doc] of [...statusesOf(r)].sort(([a], [b]) => a - b)) {
    const schema = doc.schemas.length === 0 ? undefined : doc.schemas.length === 1 ? doc.schemas[0] : { anyOf: doc.schemas };
    const stream = r.streams && status === 200 ? { 'text/event-stream': { schema: { type: 'string', description: 'Server-sent events' } } } : {};
    const mediaType = status === 200 && r.produces ? r.produces : 'application/json';
    responses[status] = {
      description: doc.descriptions.join('; '),
      ...(status >= 400 ? { headers: { [SHOULD_RETRY_HEADER]: SHOULD_RETRY_DOC } } : {}),
      ...(schema || r.streams ? { content: { ...(schema ? { [mediaType]: { schema } } : {}), ...stream } } : {}),
    };
  }
  return responses;
}

/**
 * Marks every object of a JSON Schema that lists its properties and says nothing of others as
 * `additionalProperties: false` (records and loose objects say something, and keep it).
 */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  Object.values(schema).forEach(closeObjects);
}

/** A route's request body schema; a strict body says that it refuses unknown fields (`refusesUnknownFields`). */
function requestSchemaOf(r: AnyRoute): unknown {
  const schema = toJsonSchema(r.body!, 'input');
  if (refusesUnknownFields(r)) closeObjects(schema);
  return schema;
}

/** The OpenAPI description, generated from the mounted routes and the zod schemas that validate them. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routeRegistry) {
    const path = r.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const params: Record<string, unknown>[] = [...r.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (r.query) {
      const query = toJsonSchema(r.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        params.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
      }
    }
    paths[path] ??= {};
    paths[path][r.method] = {
      summary: r.summary,
      tags: [r.tag],
      ...(params.length ? { parameters: params } : {}),
      ...('public' in r || r.widget ? { security: [] } : r.scope ? { 'x-scope': r.scope } : {}),
      ...(r.body ? { requestBody: { required: true, content: { [MEDIA_TYPES[r.bodyType ?? 'json']]: { schema: requestSchemaOf(r) } } } } : {}),
      responses: responsesOf(r),
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'svc API',
      version: '1.0.0',
      description:
        'Request bodies whose schema says `additionalProperties: false` refuse a field they do not declare, at any depth: 400 naming it (`field`, `unknownFields`), nothing done. The gateway dialects and MCP accept and ignore unknown fields (docs/security.md, "Unknown fields"). Text in a JSON body (a value or a key) must be well-formed Unicode: a lone surrogate escape such as `\\ud800` is a 400 naming the field, in the route\'s error shape (docs/security.md, "Bad input sweep").',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
      schemas: Object.fromEntries([...ERROR_COMPONENTS].map(([schema, name]) => [name, toJsonSchema(schema, 'output')])),
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    paths,
  };
}
