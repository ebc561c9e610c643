import { z } from 'zod';
import { routeRegistry } from './route.js';

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' });

const MEDIA_TYPES = { json: 'application/json', multipart: 'multipart/form-data' } as const;

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
      responses[status] = {
        description: resp.description,
        ...(resp.schema ? { content: { 'application/json': { schema: toJsonSchema(resp.schema, 'output') } } } : {}),
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
