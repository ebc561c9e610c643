import { lookup } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxFor } from '../../src/modules/tools/secret-box.js';
import type { ResolvedAddress, Resolver } from '../../src/net/index.js';
import { persona } from '../support/agents.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startApiServer } from '../support/tool-api-server.js';

let t: TestApp;
let cloud: TestApp;
let a: TestTenant;
let b: TestTenant;
let cloudTenant: TestTenant;
let server: Awaited<ReturnType<typeof startApiServer>>;
/** Names the cloud app resolves as the test says (a public address at creation, loopback later). */
const cloudDns = new Map<string, string>();

const resolver: Resolver = async (hostname) => {
  const fixed = cloudDns.get(hostname);
  if (fixed) return [{ address: fixed, family: 4 } satisfies ResolvedAddress];
  const found = await lookup(hostname, { all: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

beforeAll(async () => {
  [t, cloud] = await Promise.all([startTestApp(), startTestApp({ env: { SVC_DEPLOYMENT: 'cloud' }, resolve: resolver })]);
  a = await t.tenant();
  b = await t.tenant();
  cloudTenant = await cloud.tenant();
  server = await startApiServer();
});
afterAll(async () => {
  await server.close();
  await Promise.all([t.close(), cloud.close()]);
});

const A = () => api(t.baseUrl, a.key);

const weatherTool = (overrides: Record<string, unknown> = {}) => ({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 2 }, units: { type: 'string', enum: ['metric', 'imperial'] } },
    required: ['city'],
  },
  method: 'GET',
  urlTemplate: `${server.base}/echo/weather/{city}`,
  headers: [
    { name: 'X-Plain', value: 'visible' },
    { name: 'Authorization', value: 'Bearer top-secret-token', secret: true },
  ],
  timeoutMs: 2000,
  ...overrides,
});

let names = 0;
async function create(overrides: Record<string, unknown> = {}, tenant = a): Promise<{ id: string; name: string }> {
  const res = await api(t.baseUrl, tenant.key).post('/v1/tools', weatherTool({ name: `tool_${++names}`, ...overrides }));
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body.tool;
}
const run = (id: string, args: unknown) => A().post(`/v1/tools/${id}/test`, { arguments: args });

describe('tool resource', () => {
  it('201 with the tool; secret header values are write-only and stored sealed', async () => {
    const res = await A().post('/v1/tools', weatherTool());
    expect(res.status).toBe(201);
    expect(res.body.tool).toEqual({
      id: expect.stringMatching(/^tool_/),
      name: 'get_weather',
      description: 'Current weather for a city',
      inputSchema: weatherTool().inputSchema,
      method: 'GET',
      urlTemplate: `${server.base}/echo/weather/{city}`,
      headers: [
        { name: 'X-Plain', secret: false, value: 'visible' },
        { name: 'Authorization', secret: true, value: null },
      ],
      timeoutMs: 2000,
      isActive: true,
      userId: a.userId,
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
    expect(res.text).not.toContain('top-secret-token');
    const id = res.body.tool.id;
    const [row] = await t.app.services.orm.em.fork().execute(`select headers::text as h from workspace_tool where id = ?`, [id]);
    expect(row.h).not.toContain('top-secret-token');
    expect(row.h).toMatch(/"sealed": ?"v1\.[0-9a-f]{16}\./);
    for (const read of [await A().get(`/v1/tools/${id}`), await A().get('/v1/tools')]) {
      expect(read.status).toBe(200);
      expect(read.text).not.toContain('top-secret-token');
    }
  });

  it('defaults: GET, 10 s, active, an empty object schema', async () => {
    const res = await A().post('/v1/tools', { name: 'ping', description: 'Ping', urlTemplate: `${server.base}/echo/ping` });
    expect(res.body.tool).toMatchObject({ method: 'GET', timeoutMs: 10000, isActive: true, headers: [], inputSchema: { type: 'object', properties: {} } });
  });

  it('400 naming the field for invalid input', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: undefined }, /^name is required/],
      [{ name: '9lives' }, /^name must start with a letter/],
      [{ name: 'get_weather' }, /already exists/],
      [{ description: '' }, /^description is required/],
      [{ method: 'TRACE' }, /^method must be one of/],
      [{ timeoutMs: 50 }, /^timeoutMs must be at least 100/],
      [{ timeoutMs: 60000 }, /^timeoutMs must be at most 30000/],
      [{ urlTemplate: undefined }, /^urlTemplate is required/],
      [{ urlTemplate: 'ftp://example.com/x' }, /http or https/],
      [{ urlTemplate: 'http://{host}.example.com/x' }, /not in the host/],
      [{ urlTemplate: `${server.base}/x/{unknown}` }, /\{unknown\} is not a property of inputSchema/],
      [{ urlTemplate: 'http://169.254.169.254/latest' }, /^urlTemplate refused: .*link-local/],
      [{ inputSchema: { type: 'string' } }, /^inputSchema must be a JSON Schema with "type": "object"/],
      [{ inputSchema: [] }, /^inputSchema/],
      [{ inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } }, /^inputSchema is not a usable JSON Schema/],
      [{ headers: [{ name: 'Host', value: 'x' }] }, /headers\.0\.name.*set by the server/],
      [{ headers: [{ name: 'X-A', value: 'a\r\nInjected: 1' }] }, /headers\.0\.value.*line breaks/],
      [{ headers: [{ name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }] }, /given twice/],
      [{ headers: [{ name: 'X-Key', secret: true }] }, /^headers\.0\.value is required/],
      [{ isActive: 'yes' }, /^isActive must be a boolean/],
      // PostgreSQL text and jsonb hold no NUL; Node refuses control characters in header values at call time.
      [{ description: 'a\u0000b' }, /^description must not contain NUL/],
      [{ urlTemplate: `${server.base}/x\u0000` }, /^urlTemplate must not contain NUL/],
      [{ inputSchema: { type: 'object', properties: { 'a\u0000': { type: 'string' } } } }, /^inputSchema must not contain NUL/],
      [{ inputSchema: { type: 'object', description: 'x\u0000', properties: {} } }, /^inputSchema must not contain NUL/],
      [{ headers: [{ name: 'X-A', value: 'a\u0001b' }] }, /headers\.0\.value.*printable/],
      [{ headers: [{ name: 'X-A', value: 'chat 🐈' }] }, /headers\.0\.value.*printable/],
    ];
    for (const [overrides, message] of cases) {
      const res = await A().post('/v1/tools', weatherTool({ name: 'unused_name', ...overrides }));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body.error, JSON.stringify(overrides)).toMatch(message);
    }
  });

  it('update is partial; headers replace the list; a secret sent without value keeps it; other workspaces see 404', async () => {
    const tool = await create();
    const upd = await A().put(`/v1/tools/${tool.id}`, {
      description: 'Weather now',
      isActive: false,
      headers: [{ name: 'Authorization', secret: true }, { name: 'X-New', value: 'n' }],
    });
    expect(upd.status).toBe(200);
    expect(upd.body.tool).toMatchObject({
      description: 'Weather now',
      isActive: false,
      method: 'GET',
      headers: [
        { name: 'Authorization', secret: true, value: null },
        { name: 'X-New', secret: false, value: 'n' },
      ],
    });
    await A().put(`/v1/tools/${tool.id}`, { isActive: true });
    const called = await run(tool.id, { city: 'Lyon' });
    expect(called.body.success).toBe(true);
    expect(server.seen.at(-1)!.headers.authorization).toBe('Bearer top-secret-token');
    expect(server.seen.at(-1)!.headers['x-plain']).toBeUndefined();

    expect((await api(t.baseUrl, b.key).get(`/v1/tools/${tool.id}`)).status).toBe(404);
    expect((await api(t.baseUrl, b.key).put(`/v1/tools/${tool.id}`, { isActive: false })).status).toBe(404);
    const missing = await A().get('/v1/tools/tool_missing');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Tool not found: tool_missing');
    expect((await A().delete(`/v1/tools/${tool.id}`)).status).toBe(204);
    expect((await A().get(`/v1/tools/${tool.id}`)).status).toBe(404);
  });

  it('scope agents; read-only keys read but neither change nor call', async () => {
    const tool = await create();
    const knowledgeOnly = await t.key(a, { scopes: ['knowledge'] });
    const denied = await api(t.baseUrl, knowledgeOnly).get('/v1/tools');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('scope_denied');
    const reader = await t.key(a, { scopes: ['agents'], readonly: true });
    expect((await api(t.baseUrl, reader).get(`/v1/tools/${tool.id}`)).status).toBe(200);
    for (const res of [
      await api(t.baseUrl, reader).post('/v1/tools', weatherTool({ name: 'ro_tool' })),
      await api(t.baseUrl, reader).post(`/v1/tools/${tool.id}/test`, { arguments: { city: 'Lyon' } }),
      await api(t.baseUrl, reader).delete(`/v1/tools/${tool.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('read_only_key');
    }
  });
});

describe('calling a tool (through the SSRF guard)', () => {
  it('fills placeholders, sends other arguments as query (GET) or JSON body (POST), with the secret header', async () => {
    const get = await create();
    const res = await run(get.id, { city: 'Saint Étienne', units: 'metric' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      result: { ok: true, method: 'GET', path: '/echo/weather/Saint%20%C3%89tienne', query: { units: 'metric' }, body: '' },
      durationMs: expect.any(Number),
    });
    const seen = server.seen.at(-1)!;
    expect(seen.headers.authorization).toBe('Bearer top-secret-token');
    expect(seen.headers['x-plain']).toBe('visible');
    expect(seen.headers['user-agent']).toBe('Svc-Tools/1.0');

    const post = await create({ method: 'POST', urlTemplate: `${server.base}/echo/orders/{city}` });
    const posted = await run(post.id, JSON.stringify({ city: 'Paris', units: 'imperial' }));
    expect(posted.body.success).toBe(true);
    expect(JSON.parse(posted.body.result.body)).toEqual({ units: 'imperial' });
    expect(server.seen.at(-1)!.headers['content-type']).toBe('application/json');

    const text = await create({ urlTemplate: `${server.base}/text`, inputSchema: { type: 'object', properties: {} } });
    expect((await run(text.id, {})).body).toMatchObject({ success: true, result: 'plain answer' });
  });

  it('reports bad arguments as a failed call without calling out', async () => {
    const tool = await create();
    const before = server.seen.length;
    for (const [args, message] of [
      [{}, /invalid arguments: city/],
      [{ city: 'L' }, /invalid arguments: city/],
      [{ city: 'Lyon', units: 'kelvin' }, /invalid arguments: units/],
      ['{not json', /not valid JSON/],
      [[1, 2], /must be a JSON object/],
    ] as const) {
      const res = await run(tool.id, args);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect(res.body.result.error).toMatch(message);
    }
    expect(server.seen.length).toBe(before);
  });

  it('a timeout, a 5xx, an oversized answer, a redirect and a closed port are failures, never errors', async () => {
    const hang = await create({ urlTemplate: `${server.base}/hang`, inputSchema: { type: 'object' }, timeoutMs: 200 });
    const timedOut = await run(hang.id, {});
    expect(timedOut.body).toMatchObject({ success: false, result: { error: expect.stringMatching(/timed out after 200 ms/), kind: 'timeout' } });
    expect(timedOut.body.durationMs).toBeLessThan(2000);

    const failing = await create({ urlTemplate: `${server.base}/status/503`, inputSchema: { type: 'object' } });
    expect((await run(failing.id, {})).body).toMatchObject({ success: false, result: { error: 'HTTP 503', status: 503, body: { message: 'status 503' } } });

    const big = await create({ urlTemplate: `${server.base}/big/100000`, inputSchema: { type: 'object' } });
    expect((await run(big.id, {})).body).toMatchObject({ success: false, result: { error: 'response larger than 65536 bytes', status: 200 } });
    const fits = await create({ urlTemplate: `${server.base}/big/65536`, inputSchema: { type: 'object' } });
    expect((await run(fits.id, {})).body.success).toBe(true);

    const redirect = await create({ urlTemplate: `${server.base}/redirect`, inputSchema: { type: 'object' } });
    expect((await run(redirect.id, {})).body).toMatchObject({ success: false, result: { error: 'HTTP 302 (redirects are not followed)' } });

    const closed = await create({ urlTemplate: 'http://127.0.0.1:1/nothing', inputSchema: { type: 'object' } });
    expect((await run(closed.id, {})).body).toMatchObject({ success: false, result: { kind: 'connection' } });
  });

  it('a secret sealed under another server key fails the call with a clear reason', async () => {
    const tool = await create();
    const other = boxFor(Buffer.alloc(32, 9));
    const [row] = await t.app.services.orm.em.fork().execute(`select headers from workspace_tool where id = ?`, [tool.id]);
    const headers = (typeof row.headers === 'string' ? JSON.parse(row.headers) : row.headers).map((h: { secret: boolean }) =>
      h.secret ? { ...h, sealed: other.seal('x', `${tool.id}:authorization`) } : h,
    );
    await t.app.services.orm.em.fork().execute(`update workspace_tool set headers = ? where id = ?`, [JSON.stringify(headers), tool.id]);
    const res = await run(tool.id, { city: 'Lyon' });
    expect(res.body).toMatchObject({ success: false, result: { error: expect.stringMatching(/Authorization cannot be read/) } });
  });
});

describe('cloud deployment', () => {
  it('refuses private targets at creation and at call time (a name that now resolves to loopback)', async () => {
    const refused = await api(cloud.baseUrl, cloudTenant.key).post('/v1/tools', weatherTool());
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^urlTemplate refused: .*loopback/);
    cloudDns.set('api.partner.example', '93.184.216.34');
    const created = await api(cloud.baseUrl, cloudTenant.key).post(
      '/v1/tools',
      weatherTool({ urlTemplate: `http://api.partner.example:${server.port}/echo/{city}`, headers: [] }),
    );
    expect(created.status).toBe(201);
    cloudDns.set('api.partner.example', '127.0.0.1');
    const before = server.seen.length;
    const res = await api(cloud.baseUrl, cloudTenant.key).post(`/v1/tools/${created.body.tool.id}/test`, { arguments: { city: 'Lyon' } });
    expect(res.body).toMatchObject({ success: false, result: { kind: 'refused', error: expect.stringMatching(/loopback/) } });
    expect(server.seen.length).toBe(before);
  });
});

describe('linking tools to agents', () => {
  it('link, list in link order, unlink; the turn sees only active linked tools (or the toolIds subset)', async () => {
    const agent = (await A().post('/v1/agents', persona('Toolsmith'))).body.agent;
    const t1 = await create();
    const t2 = await create();
    const t3 = await create({ isActive: false });
    for (const tool of [t1, t2, t3]) expect((await A().post(`/v1/agents/${agent.id}/tools`, { toolId: tool.id })).status).toBe(200);
    const again = await A().post(`/v1/agents/${agent.id}/tools`, { toolId: t1.id });
    expect(again.body.tools.map((x: { id: string }) => x.id)).toEqual([t1.id, t2.id, t3.id]);
    expect((await A().get(`/v1/agents/${agent.id}/tools`)).body.tools.map((x: { id: string }) => x.id)).toEqual([t1.id, t2.id, t3.id]);

    const ctx = { em: t.app.services.orm.em.fork(), caller: { workspace: { id: a.workspaceId } }, app: t.app.services } as never;
    const offered = await t.app.services.tools!.toolsFor(ctx, { agentId: agent.id });
    expect(offered.map((x) => x.def.name)).toEqual([t1.name, t2.name]);
    expect(offered[0].def).toEqual({ name: t1.name, description: 'Current weather for a city', parameters: weatherTool().inputSchema });
    const subset = await t.app.services.tools!.toolsFor(ctx, { agentId: agent.id, toolIds: [t2.id, t3.id, 'tool_unknown'] });
    expect(subset.map((x) => x.def.name)).toEqual([t2.name]);
    expect(await subset[0].run({ city: 'Nice' })).toMatchObject({ success: true, result: { path: '/echo/weather/Nice' } });
    expect(await subset[0].run('garbage')).toMatchObject({ success: false });

    expect((await A().delete(`/v1/agents/${agent.id}/tools/${t2.id}`)).status).toBe(204);
    expect((await A().delete(`/v1/agents/${agent.id}/tools/${t2.id}`)).status).toBe(404);
    await A().delete(`/v1/tools/${t1.id}`);
    expect((await A().get(`/v1/agents/${agent.id}/tools`)).body.tools.map((x: { id: string }) => x.id)).toEqual([t3.id]);
  });

  it('400 Tool not found for an unknown or foreign tool; 404 for an unknown agent', async () => {
    const agent = (await A().post('/v1/agents', persona('Linker'))).body.agent;
    const foreign = await create({}, b);
    const res = await A().post(`/v1/agents/${agent.id}/tools`, { toolId: foreign.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Tool not found');
    const missing = await A().post(`/v1/agents/${agent.id}/tools`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^toolId is required/);
    const unknown = await A().get('/v1/agents/agt_missing/tools');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Agent not found: agt_missing');
    // An id holding NUL (which PostgreSQL text cannot store) names nothing: never a 500.
    const nul = await A().post(`/v1/agents/${agent.id}/tools`, { toolId: 'a\u0000b' });
    expect([nul.status, nul.body.error]).toEqual([400, 'Tool not found']);
    expect((await A().delete(`/v1/agents/${agent.id}/tools/a%00b`)).status).toBe(404);
    for (const path of ['/v1/tools/a%00b']) {
      expect((await A().get(path)).status).toBe(404);
      expect((await A().put(path, { description: 'x' })).status).toBe(404);
      expect((await A().delete(path)).status).toBe(404);
      expect((await A().post(`${path}/test`, {})).status).toBe(404);
    }
  });
});

describe('GraphQL', () => {
  it('creates tools, lists them and each agent’s tools (batched), with the REST rules', async () => {
    const tenant = await t.tenant();
    const gql = api(t.baseUrl, tenant.key).graphql;
    const created = await gql(
      `mutation($i: ToolInput!) { createTool(input: $i) { id name method headers { name secret value } } }`,
      { i: weatherTool({ name: 'gql_tool' }) },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createTool.headers).toEqual([
      { name: 'X-Plain', secret: false, value: 'visible' },
      { name: 'Authorization', secret: true, value: null },
    ]);
    const toolId = created.data.createTool.id;
    const agents = [];
    for (const n of ['G1', 'G2']) agents.push((await api(t.baseUrl, tenant.key).post('/v1/agents', persona(n))).body.agent);
    await gql(`mutation($a: ID!, $t: String!) { linkTool(agentId: $a, toolId: $t) { id } }`, { a: agents[0].id, t: toolId });
    const listed = await gql(`{ tools { id name } agents { name tools { id } } }`);
    expect(listed.data.tools).toEqual([{ id: toolId, name: 'gql_tool' }]);
    expect(listed.data.agents.map((x: { name: string; tools: { id: string }[] }) => [x.name, x.tools.map((y) => y.id)])).toEqual([
      ['G1', [toolId]],
      ['G2', []],
    ]);
    const tested = await gql(`mutation($id: ID!) { testTool(id: $id, arguments: { city: "Oslo" }) { success result } }`, { id: toolId });
    expect(tested.data.testTool).toMatchObject({ success: true, result: { path: '/echo/weather/Oslo' } });
    const bad = await gql(`mutation { createTool(input: { name: "x y", description: "d", urlTemplate: "http://example.com" }) { id } }`);
    expect(bad.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^name must start with a letter/), extensions: { status: 400 } });
  });
});
