import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, withinJsonDepth } from '../../src/lib/json-depth.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let a: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
});
afterAll(() => t?.close());

/** `{ type: 'object', properties: { p: { ...depth levels } } }` built as text, so no recursion on our side either. */
const deepObjectText = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const deepSchemaText = (levels: number) => `{"type":"object","properties":{"p":${deepObjectText(levels)}}}`;
const toolText = (inputSchema: string, name = 'deep_tool') =>
  `{"name":"${name}","description":"d","urlTemplate":"http://127.0.0.1:9/x","inputSchema":${inputSchema}}`;

describe('free-form JSON is capped in depth at parse time (400 naming the field, never a RangeError 500)', () => {
  it('the check itself: scalars are depth 0; exactly the cap passes; iterative at any depth', () => {
    expect(withinJsonDepth(1)).toBe(true);
    expect(withinJsonDepth({}, 1)).toBe(true);
    expect(withinJsonDepth({ a: [] }, 1)).toBe(false);
    expect(withinJsonDepth(JSON.parse(deepObjectText(MAX_JSON_DEPTH)))).toBe(true);
    expect(withinJsonDepth(JSON.parse(deepObjectText(MAX_JSON_DEPTH + 1)))).toBe(false);
    expect(withinJsonDepth(JSON.parse(deepObjectText(200_000)))).toBe(false);
  });

  it('POST and PUT /v1/tools: an inputSchema 10 000 deep is a 400 naming inputSchema', async () => {
    const k = api(t.baseUrl, a.key);
    const post = await k.post('/v1/tools', toolText(deepSchemaText(10_000)));
    expect(post.status).toBe(400);
    expect(post.body).toEqual({ error: `inputSchema must not be nested more than ${MAX_JSON_DEPTH} levels deep`, field: 'inputSchema' });
    const ok = await k.post('/v1/tools', toolText(deepSchemaText(MAX_JSON_DEPTH - 3), 'shallow_tool'));
    expect(ok.status).toBe(201);
    const put = await k.put(`/v1/tools/${ok.body.tool.id}`, `{"inputSchema":${deepSchemaText(10_000)}}`);
    expect([put.status, put.body.field]).toEqual([400, 'inputSchema']);
    const run = await k.post(`/v1/tools/${ok.body.tool.id}/test`, `{"arguments":${deepObjectText(10_000)}}`);
    expect([run.status, run.body.field]).toEqual([400, 'arguments']);
  });

  it('GraphQL createTool with a 10 000-deep inputSchema variable: refused as a 400 by the JSON scalar, before the service', async () => {
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: `{"query":"mutation($input: ToolInput!) { createTool(input: $input) { id } }","variables":{"input":${toolText(deepSchemaText(10_000), 'gql_deep')}}}`,
    });
    const body = await res.json();
    // GraphQL's own wording names the variable and its path (kept since the bad input sweep, 752be64); the cap's
    // sentence ends it.
    expect(body.errors?.[0]?.message).toMatch(/^Variable "\$input" got invalid value .* at "input\.inputSchema"; /);
    expect(body.errors?.[0]?.message).toMatch(new RegExp(`; JSON values may nest at most ${MAX_JSON_DEPTH} levels$`));
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'json_too_deep', status: 400 });
  });

  it('a 10 000-deep JSON body never makes a 500 (POST /v1/tools, POST /v1/agents)', async () => {
    const k = api(t.baseUrl, a.key);
    for (const path of ['/v1/tools', '/v1/agents']) {
      for (const body of [deepObjectText(10_000), `{"name":${deepObjectText(10_000)}}`, `{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`]) {
        const res = await k.post(path, body);
        expect(res.status, `${path} ${body.slice(0, 20)}`).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }
    }
  });
});
