import { z } from 'zod';
import { routeRegistry } from './route.js';

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' });

const MEDIA_TYPES = { json: 'application/json', multipart: 'multipart/form-data' } as const;

/**
 * The native error body (SPEC, Errors): `error` says what went wrong, `code` where the catalogue has one
 * on the wire, and the entry's details beside them. A route's 4xx/5xx response without a schema of its
 * own is documented with it, so route files only describe when each status happens.
 */
export const NativeErrorSchema = z.object({ error: z.string(), code: z.string().optional() }).loose();

/** The OpenAPI description, generated from the mounted routes and the zod schemas that validate them. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routeRegistry) {
    const path = r.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const params = [...r.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const responses: Record<string, unknown> = {};
    for (const [status, resp] of Object.entries(r.responses)) {
      const schema = resp.schema ?? (Number(status) >= 400 ? NativeErrorSchema : undefined);
      responses[status] = {
        description: resp.description,
        ...(schema ? { content: { 'application/json': { schema: toJsonSchema(schema, 'output') } } } : {}),
      };
    }
    paths[path] ??= {};
    paths[path][r.method] = {
      summary: r.summary,
      tags: [r.tag],
      ...(params.length ? { parameters: params } : {}),
      ...('public' in r ? { security: [] } : r.scope ? { 'x-scope': r.scope } : {}),
      ...(r.body ? { requestBody: { required: true, content: { [MEDIA_TYPES[r.bodyType ?? 'json']]: { schema: toJsonSchema(r.body, 'input') } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'svc API', version: '1.0.0' },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    paths,
  };
}
