import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printSdl } from '../../src/graphql/schema.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('meta routes', () => {
  it('GET /health needs no key and reports the database', async () => {
    const res = await api(t.baseUrl).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: { ok: true } });
  });

  it('hashes no ETag over JSON answers (the flow graph sets its own version as ETag)', async () => {
    const res = await api(t.baseUrl).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeNull();
  });

  it('GET /openapi.json describes the routes at version 1.0.0 from the zod schemas', async () => {
    const res = await api(t.baseUrl).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.info.version).toBe('1.0.0');
    const post = res.body.paths['/v1/agents'].post;
    const schema = post.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'role', 'personality', 'mission', 'decisionStyle', 'systemPrompt']));
    expect(res.body.paths['/v1/agents/{id}'].put.parameters[0].name).toBe('id');
    expect(Object.keys(res.body.paths['/v1/agents/{id}'])).toEqual(expect.arrayContaining(['put', 'delete']));
  });

  it('GET /openapi.json covers every route the server serves, each family, with request bodies', async () => {
    const doc = (await api(t.baseUrl).get('/openapi.json')).body;
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) for (const m of Object.keys(ops)) documented.add(`${m} ${path}`);
    // What express actually routes (every router mounted by mountRest), whether or not it went through mount().
    type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
    const served = new Set<string>();
    const walk = (stack: Layer[]) => {
      for (const layer of stack) {
        if (layer.route) for (const m of Object.keys(layer.route.methods)) served.add(`${m} ${layer.route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
        else if (layer.handle?.stack) walk(layer.handle.stack);
      }
    };
    walk((t.app.http as unknown as { router: { stack: Layer[] } }).router.stack);
    expect(served.size).toBeGreaterThan(40);
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    const tags = new Set(Object.values<Record<string, { tags: string[] }>>(doc.paths).flatMap((ops) => Object.values(ops).flatMap((o) => o.tags)));
    expect([...tags]).toEqual(expect.arrayContaining(['meta', 'agents', 'chat', 'webhooks', 'knowledge', 'verify', 'developer']));
    for (const path of ['/v1/chat/completions', '/v1/messages', '/v1/agents/{id}/chat', '/v1/webhooks', '/v1/knowledge/query', '/v1/tools', '/developer/api-keys']) {
      expect(doc.paths[path].post.requestBody.content['application/json'].schema.type, path).toBe('object');
    }
    expect(doc.paths['/developer/api-keys/{id}'].patch.requestBody.content['application/json'].schema.properties).toHaveProperty('monthlyQuestionLimit');
    const upload = doc.paths['/v1/knowledge-sources/upload'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.required).toEqual(['file']);
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' });
  });

  it('unknown routes are a JSON 404, after the key check under the keyed families', async () => {
    const res = await api(t.baseUrl, (await t.tenant()).key).get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(typeof res.body.error).toBe('string');
    for (const path of ['/v1/nothing-here', '/v1/registre', '/developer/nothing', '/engine/flows']) {
      const anonymous = await api(t.baseUrl).get(path);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.body.error).toMatch(/missing api key/i);
      expect((await api(t.baseUrl, 'svc_wrong').post(path, {})).status, path).toBe(401);
    }
    expect((await api(t.baseUrl).get('/elsewhere')).status).toBe(404);
  });

  it('serves GraphiQL', async () => {
    const res = await fetch(`${t.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('GraphiQL');
  });
});

describe('schema.graphql', () => {
  it('is up to date with the Pothos schema (run `npm run schema`)', () => {
    expect(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8')).toBe(printSdl());
  });
});
