import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { openApiProblem } from '../support/openapi-validation.js';

let t: TestApp;
let doc: {
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }>>; components: { schemas: Record<string, any> } };

beforeAll(async () => {
  t = await startTestApp();
  doc = (await api(t.baseUrl).get('/openapi.json')).body;
});
afterAll(() => t.close());

const schemaOf = (path: string, method: string, status: number) => doc.paths[path][method].responses[String(status)]?.content?.['application/json']?.schema;

describe('/openapi.json tells the truth', () => {
  it('one shared error schema per wire shape; the native one has error, code and field', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['NativeError', 'OpenAIError', 'AnthropicError', 'RouteRateLimited']));
    expect(doc.components.schemas.NativeError).toMatchObject({ required: ['error'], properties: { error: {}, code: {}, field: {} } });
    expect(schemaOf('/v1/agents/{id}', 'put', 400)).toEqual({ $ref: '#/components/schemas/NativeError' });
    expect(schemaOf('/v1/chat/completions', 'post', 400)).toEqual({ $ref: '#/components/schemas/OpenAIError' });
    expect(schemaOf('/v1/messages', 'post', 404)).toEqual({ $ref: '#/components/schemas/AnthropicError' });
  });

  it('every keyed route documents the auth-stage errors in the native shape, whatever its dialect', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (op.security) continue; // public: no key, no auth stage
        for (const status of [401, 403, 429, 500]) expect(op.responses[String(status)], `${method} ${path} ${status}`).toBeDefined();
        expect(JSON.stringify(op.responses['401'].content), `${method} ${path}`).toContain('NativeError');
      }
    }
    // Metered routes: the key budget (native) beside the allowance refusal in the route's shape.
    expect(schemaOf('/v1/chat/completions', 'post', 402)).toEqual({ anyOf: [{ $ref: '#/components/schemas/OpenAIError' }, { $ref: '#/components/schemas/NativeError' }] });
    expect(JSON.stringify(schemaOf('/v1/messages', 'post', 429))).toContain('AnthropicError');
    expect(JSON.stringify(schemaOf('/v1/responses', 'post', 429))).toContain('RouteRateLimited');
    expect(doc.paths['/v1/models'].get.responses['402']).toBeUndefined();
    expect(Object.keys(doc.paths['/v1/responses'].post.responses['200'].content ?? {})).toEqual(['application/json', 'text/event-stream']);
  });

  it('every error answer documents x-should-retry; GET /v1/models/{id} (models.retrieve) is described with its 404 model_not_found', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const headers = (response as { headers?: Record<string, { schema: unknown }> }).headers;
          if (Number(status) >= 400) expect(headers?.['x-should-retry']?.schema, `${method} ${path} ${status}`).toEqual({ type: 'string', enum: ['true', 'false'] });
          else expect(headers?.['x-should-retry'], `${method} ${path} ${status}`).toBeUndefined();
        }
      }
    }
    const retrieve = doc.paths['/v1/models/{id}'].get;
    expect(JSON.stringify(retrieve.responses['200'].content)).toContain('display_name');
    expect(schemaOf('/v1/models/{id}', 'get', 404)).toEqual({ $ref: '#/components/schemas/OpenAIError' });
  });

  it('GET /v1/models documents its real answer (checked by the suite-wide validation of api())', async () => {
    const tenant = await t.tenant();
    const res = await api(t.baseUrl, tenant.key).get('/v1/models');
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('has_more', false);
  });

  it('the suite-wide check names an undocumented status and a body that does not match', async () => {
    const json = 'application/json';
    expect(await openApiProblem(t.baseUrl, 'GET', '/v1/models', 418, json, () => ({}))).toMatch(/does not document/);
    expect(await openApiProblem(t.baseUrl, 'GET', '/v1/models', 200, json, () => ({ object: 'list' }))).toMatch(/does not match its documented schema/);
    expect(await openApiProblem(t.baseUrl, 'PUT', '/v1/agents/agt_1', 400, json, () => ({ error: 'x', field: 3 }))).toMatch(/field/);
    expect(await openApiProblem(t.baseUrl, 'PUT', '/v1/agents/agt_1', 400, json, () => ({ error: 'name is required', field: 'name' }))).toBeUndefined();
    expect(await openApiProblem(t.baseUrl, 'POST', '/v1/chat/completions', 200, 'text/event-stream', () => undefined)).toBeUndefined();
    expect(await openApiProblem(t.baseUrl, 'GET', '/graphql', 200, json, () => ({}))).toBeUndefined();
  });
});
