import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printSdl } from '../../src/graphql/schema.js';
import { api, startTestApp, type TestApp } from '../support/app.js';

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

  it('unknown routes are a JSON 404', async () => {
    const res = await api(t.baseUrl).get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(typeof res.body.error).toBe('string');
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
