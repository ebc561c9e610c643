import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { createAgent, persona } from '../support/agents.js';

/**
 * Flows over REST (issue 15): CRUD, graph versioning with ETag / If-Match / expectedVersion and 409
 * version_conflict, typed bodies (a wrongly typed field is a 400, never coerced), validation problems,
 * export / import round trip, the published JSON Schema, scope `engine`.
 */
let t: TestApp;
let tenant: TestTenant;
let c: ReturnType<typeof api>;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.tenant();
  c = api(t.baseUrl, tenant.key);
});
afterAll(async () => t?.close());

const approvalGraph = (url: string) => ({
  nodes: [
    { key: 'start', type: 'trigger.manual' },
    { key: 'ok', type: 'approval', config: { question: 'Send it?' } },
    { key: 'send', type: 'http.request', config: { method: 'POST', url, body: '{"hello":"{{input.name}}"}' } },
  ],
  edges: [
    { from: 'start', to: 'ok' },
    { from: 'ok', to: 'send' },
  ],
});

describe('flows CRUD', () => {
  it('creates, lists, reads, renames, enables and deletes a flow', async () => {
    const created = await c.post('/engine/flows', { name: 'Daily digest' });
    expect(created.status).toBe(201);
    expect(created.body.flow).toMatchObject({ name: 'Daily digest', enabled: false, version: 1, graph: { nodes: [], edges: [] } });
    expect(created.body.webhookSecret).toMatch(/^fwh_/);
    const id = created.body.flow.id;

    const list = await c.get('/engine/flows');
    expect(list.body.flows.map((f: { id: string }) => f.id)).toContain(id);

    const read = await c.get(`/engine/flows/${id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(JSON.stringify(read.body)).not.toContain('fwh_');

    const patched = await c.patch(`/engine/flows/${id}`, { name: 'Weekly digest', enabled: true });
    expect(patched.status).toBe(200);
    expect(patched.body.flow).toMatchObject({ name: 'Weekly digest', enabled: true, version: 1 });

    expect((await c.delete(`/engine/flows/${id}`)).status).toBe(204);
    expect((await c.get(`/engine/flows/${id}`)).status).toBe(404);
    expect((await c.delete(`/engine/flows/${id}`)).status).toBe(404);
  });

  it('refuses wrongly typed fields with 400 naming the field, never coercing', async () => {
    const cases: [string, unknown, string][] = [
      ['POST /engine/flows', { name: 42 }, 'name'],
      ['POST /engine/flows', { name: 'x', graph: { nodes: 'a', edges: [] } }, 'graph.nodes'],
      ['POST /engine/flows', { name: 'x', graph: { nodes: [{ key: 1, type: 'trigger.manual' }], edges: [] } }, 'graph.nodes.0.key'],
      ['POST /engine/flows', {}, 'name'],
    ];
    for (const [, body, field] of cases) {
      const res = await c.post('/engine/flows', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const id = (await c.post('/engine/flows', { name: 'Typed' })).body.flow.id;
    for (const [body, field] of [
      [{ enabled: 'true' }, 'enabled'],
      [{ enabled: 1 }, 'enabled'],
      [{ name: ['a'] }, 'name'],
      [{ schedule: '0 9 * * *' }, 'schedule'],
      [{ unattendedOutbound: 'yes' }, 'unattendedOutbound'],
    ] as const) {
      const res = await c.patch(`/engine/flows/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const put = await c.put(`/engine/flows/${id}/graph`, { nodes: [], edges: [], expectedVersion: '1' });
    expect(put.status).toBe(400);
    expect(put.body.field).toBe('expectedVersion');
    const run = await c.post(`/engine/flows/${id}/run`, { input: 'x' });
    expect(run.status).toBe(400);
    expect(run.body.field).toBe('input');
    expect((await c.get(`/engine/flows/${id}`)).body.flow).toMatchObject({ enabled: false, version: 1, name: 'Typed' });
  });

  it('keeps flows to scope engine and to their workspace', async () => {
    const id = (await c.post('/engine/flows', { name: 'Scoped' })).body.flow.id;
    const agentsOnly = api(t.baseUrl, await t.key(tenant, { scopes: ['agents'] }));
    const denied = await agentsOnly.get('/engine/flows');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('scope_denied');
    const engine = api(t.baseUrl, await t.key(tenant, { scopes: ['engine'] }));
    expect((await engine.get(`/engine/flows/${id}`)).status).toBe(200);
    const readonly = api(t.baseUrl, await t.key(tenant, { scopes: ['engine', 'readonly'] }));
    expect((await readonly.post('/engine/flows', { name: 'no' })).body.code).toBe('read_only_key');
    const other = await t.tenant({ name: 'Other' });
    expect((await api(t.baseUrl, other.key).get(`/engine/flows/${id}`)).status).toBe(404);
  });
});

describe('graph versioning', () => {
  it('answers the version as ETag, honours If-Match (quoted or bare) and expectedVersion, 409 with currentVersion', async () => {
    const id = (await c.post('/engine/flows', { name: 'Versioned' })).body.flow.id;
    const graph = { nodes: [{ key: 'start', type: 'trigger.manual' }, { key: 't', type: 'transform', config: { template: 'hi' } }], edges: [{ from: 'start', to: 't' }] };

    const first = await c.put(`/engine/flows/${id}/graph`, graph, { 'if-match': '"1"' });
    expect(first.status).toBe(200);
    expect(first.body.flow.version).toBe(2);
    expect(first.headers.get('etag')).toBe('"2"');

    const bare = await c.put(`/engine/flows/${id}/graph`, graph, { 'if-match': '2' });
    expect(bare.status).toBe(200);
    expect(bare.headers.get('etag')).toBe('"3"');

    const stale = await c.put(`/engine/flows/${id}/graph`, graph, { 'if-match': '"2"' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_conflict', currentVersion: 3 });

    const staleBody = await c.put(`/engine/flows/${id}/graph`, { ...graph, expectedVersion: 1 });
    expect(staleBody.status).toBe(409);
    expect(staleBody.body.currentVersion).toBe(3);

    const ok = await c.put(`/engine/flows/${id}/graph`, { ...graph, expectedVersion: 3 });
    expect(ok.status).toBe(200);
    expect(ok.body.flow.version).toBe(4);

    const unconditional = await c.put(`/engine/flows/${id}/graph`, graph);
    expect(unconditional.body.flow.version).toBe(5);

    const badHeader = await c.put(`/engine/flows/${id}/graph`, graph, { 'if-match': 'soon' });
    expect(badHeader.status).toBe(400);
    expect(badHeader.body.field).toBe('If-Match');
  });

  it('refuses an invalid graph with every problem and keeps the stored one', async () => {
    const id = (await c.post('/engine/flows', { name: 'Guarded' })).body.flow.id;
    const res = await c.put(`/engine/flows/${id}/graph`, {
      nodes: [
        { key: 'start', type: 'trigger.manual' },
        { key: 'send', type: 'http.request', config: { method: 'POST', url: 'http://127.0.0.1:9/x' } },
      ],
      edges: [{ from: 'start', to: 'send' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_graph');
    expect(res.body.problems).toEqual([expect.objectContaining({ code: 'outbound_without_approval', nodeKey: 'send' })]);
    expect((await c.get(`/engine/flows/${id}`)).body.flow.version).toBe(1);

    const good = await c.put(`/engine/flows/${id}/graph`, approvalGraph('http://127.0.0.1:9/x'));
    expect(good.status).toBe(200);
  });
});

describe('flows as code', () => {
  it('validates every problem at once and writes nothing', async () => {
    const before = (await c.get('/engine/flows')).body.flows.length;
    const res = await c.post('/engine/flows/validate', {
      graph: {
        nodes: [
          { key: 'start', type: 'trigger.schedule', config: { cron: 'every day' } },
          { key: 'tz', type: 'trigger.schedule', config: { cron: '0 9 * * *', timezone: 'Mars/Base' } },
          { key: 'a', type: 'transform', config: { template: 'a' } },
          { key: 'b', type: 'transform', config: { template: 'b' } },
          { key: 'x', type: 'teleport' },
          { key: 'mail', type: 'mail.send', config: { to: 'a@example.com', subject: 's', body: 'b' } },
          { key: 'ask', type: 'agent.ask', config: { agentId: 'agt_nobody' } },
        ],
        edges: [
          { from: 'start', to: 'a' },
          { from: 'a', to: 'b' },
          { from: 'b', to: 'a' },
          { from: 'start', to: 'ghost' },
          { from: 'start', to: 'mail' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    const codes = res.body.problems.map((p: { code: string }) => p.code).sort();
    expect(codes).toEqual(
      expect.arrayContaining(['bad_cron', 'bad_cron', 'unknown_node_type', 'cycle', 'dangling_edge', 'invalid_config', 'several_schedules']),
    );
    expect(res.body.problems.find((p: { code: string }) => p.code === 'unknown_node_type').nodeKey).toBe('x');
    expect((await c.get('/engine/flows')).body.flows.length).toBe(before);

    const noCycle = await c.post('/engine/flows/validate', { graph: { nodes: [{ key: 's', type: 'trigger.manual' }, { key: 'mail', type: 'mail.send', config: { to: 'a@example.com', subject: 's', body: 'b' } }], edges: [{ from: 's', to: 'mail' }] } });
    expect(noCycle.body.problems).toEqual([expect.objectContaining({ code: 'outbound_without_approval', nodeKey: 'mail' })]);

    const valid = await c.post('/engine/flows/validate', { graph: approvalGraph('http://127.0.0.1:9/x') });
    expect(valid.body).toEqual({ valid: true, problems: [] });

    const wrongFormat = await c.post('/engine/flows/validate', { format: 'other/v9', name: 'x', graph: { nodes: [], edges: [] } });
    expect(wrongFormat.body.problems).toEqual([expect.objectContaining({ code: 'unknown_format' })]);

    const typed = await c.post('/engine/flows/validate', { graph: { nodes: [{ key: 's', type: 5 }], edges: [] } });
    expect(typed.status).toBe(400);
    expect(typed.body.field).toBe('graph.nodes.0.type');
  });

  it('exports a portable document and imports it back (round trip), with a fresh secret and disabled', async () => {
    const agentId = await createAgent(t, tenant.key, persona('Scribe'));
    const created = await c.post('/engine/flows', {
      name: 'Portable',
      graph: {
        nodes: [
          { key: 'start', type: 'trigger.schedule', config: { cron: '0 9 * * 1', timezone: 'Europe/Paris' } },
          { key: 'ask', type: 'agent.ask', config: { agentId, prompt: 'Summarise {{input.topic}}' } },
          { key: 'ok', type: 'approval', config: { question: 'Send?' } },
          { key: 'send', type: 'http.request', config: { method: 'POST', url: 'https://example.com/hook', body: '{{steps.ask.answer}}' } },
        ],
        edges: [
          { from: 'start', to: 'ask' },
          { from: 'ask', to: 'ok' },
          { from: 'ok', to: 'send' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.flow.id;
    await c.patch(`/engine/flows/${id}`, { enabled: true });

    const exported = await c.get(`/engine/flows/${id}/export`);
    expect(exported.status).toBe(200);
    const doc = exported.body;
    expect(doc.format).toBe('service.flow/v1');
    expect(doc.graph.nodes[1].config).toEqual({ agent: 'Scribe', prompt: 'Summarise {{input.topic}}' });
    const text = JSON.stringify(doc);
    for (const absent of [tenant.workspaceId, agentId, 'fwh_', 'unattended', 'enabled']) expect(text).not.toContain(absent);

    expect((await c.post('/engine/flows/validate', doc)).body).toEqual({ valid: true, problems: [] });

    const imported = await c.post('/engine/flows/import', doc);
    expect(imported.status).toBe(201);
    expect(imported.body.webhookSecret).toMatch(/^fwh_/);
    expect(imported.body.webhookSecret).not.toBe(created.body.webhookSecret);
    expect(imported.body.flow).toMatchObject({ name: 'Portable', enabled: false, version: 1 });
    expect(imported.body.flow.id).not.toBe(id);
    expect(imported.body.flow.graph.nodes[1].config.agentId).toBe(agentId);

    const again = await c.get(`/engine/flows/${imported.body.flow.id}/export`);
    expect(again.body).toEqual(doc);

    // In another workspace the agent's name resolves to nothing: a problem, not a guess.
    const other = api(t.baseUrl, (await t.tenant({ name: 'Elsewhere' })).key);
    const problems = (await other.post('/engine/flows/validate', doc)).body.problems;
    expect(problems).toEqual([expect.objectContaining({ code: 'unknown_connection', nodeKey: 'ask' })]);
    const refused = await other.post('/engine/flows/import', doc);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_graph');

    const badFormat = await c.post('/engine/flows/import', { ...doc, format: 'service.flow/v0' });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.field).toBe('format');
  });

  it('publishes the JSON Schema of the format, the same as docs/flow.schema.json', async () => {
    const res = await fetch(`${t.baseUrl}/engine/flows/schema.json`);
    expect(res.status).toBe(200);
    const schema = await res.json();
    expect(schema.title).toBe('service.flow/v1');
    const committed = JSON.parse(readFileSync(new URL('../../docs/flow.schema.json', import.meta.url), 'utf8'));
    expect(schema).toEqual(committed);
  });
});
