import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowWork } from '../../src/modules/flows/engine.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { ingest } from '../support/knowledge.js';

const TOOLS = ['service_ask', 'knowledge_search', 'service_verify', 'poste_run', 'flow_list', 'flow_run', 'run_status', 'approvals_list'];
/** The scope each tool needs (issue 16). */
const SCOPE_OF: Record<string, string> = {
  service_ask: 'light',
  knowledge_search: 'knowledge',
  service_verify: 'proof',
  poste_run: 'agents',
  flow_list: 'engine',
  flow_run: 'engine',
  run_status: 'engine',
  approvals_list: 'engine',
};
/** Arguments the tool accepts, for calls whose point is the scope check. */
const ARGS: Record<string, Record<string, unknown>> = {
  service_ask: { question: 'What is the refund delay?' },
  knowledge_search: { query: 'refund' },
  service_verify: { text: 'Refunds are granted within 30 days.', passages: [{ source: 'policy', content: 'Refunds are granted within 30 days of purchase.' }] },
  poste_run: { key: 'contract-review', dossierId: 'kcol_x' },
  flow_list: {},
  flow_run: { flowId: 'flow_x' },
  run_status: { runId: 'run_x' },
  approvals_list: {},
};

let t: TestApp;
let a: TestTenant;
let refundsId: string;
const open: Client[] = [];

/** The official SDK client over streamable HTTP, the key in the Authorization header. */
async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  open.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = ARGS[name]!) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Record<string, any> };
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_RATE_KNOWLEDGE_QUERY: '1000' } });
  a = await t.tenant();
  refundsId = (await ingest(t, a, Buffer.from('# Refund policy\n\nRefunds are granted within 30 days of purchase.', 'utf8'), 'refunds.md')).id;
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => {});
  await t?.close();
});

describe('POST /mcp with the official client', () => {
  it('lists every tool to every key, whatever its scopes', async () => {
    for (const scopes of [[], ['webhooks'], ['light'], ['engine', 'readonly']]) {
      const client = await connect(await t.key(a, { scopes }));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
      for (const tool of tools) {
        expect(tool.description).toContain(`Needs scope ${SCOPE_OF[tool.name]}`);
        expect(tool.inputSchema.type).toBe('object');
      }
    }
  });

  it('no tool decides an approval: approvals are only listed', async () => {
    const { tools } = await (await connect(a.key)).listTools();
    expect(tools.filter((tool) => /decid|approve|reject|claim/i.test(tool.name))).toEqual([]);
    expect(tools.find((tool) => tool.name === 'approvals_list')?.description).toContain('never through MCP');
  });

  it('knowledge_search answers what POST /v1/knowledge/query answers', async () => {
    const client = await connect(await t.key(a, { scopes: ['knowledge'] }));
    const res = await call(client, 'knowledge_search', { query: 'refund delay', topK: 3 });
    expect(res.isError).toBeFalsy();
    const rest = await api(t.baseUrl, a.key).post('/v1/knowledge/query', { query: 'refund delay', topK: 3 });
    expect(res.structuredContent).toEqual(rest.body);
    expect(res.structuredContent!.results[0]).toMatchObject({ ref: 1, sourceId: refundsId, sourceName: 'refunds.md' });
    expect(JSON.parse(textOf(res))).toEqual(rest.body);
  });

  it('service_verify returns the report and counts one control, as POST /v1/verify does', async () => {
    const tenant = await t.tenant();
    const client = await connect(await t.key(tenant, { scopes: ['proof'] }));
    const res = await call(client, 'service_verify');
    expect(res.isError).toBeFalsy();
    const report = res.structuredContent!.report;
    expect(report.id).toMatch(/^vrf_/);
    expect(report.certificateId).toEqual(expect.any(String));
    expect(report.counts.supported).toBe(1);
    expect((await api(t.baseUrl, tenant.key).get('/v1/verify/usage')).body.controls).toBe(1);
    const read = await api(t.baseUrl, tenant.key).get(`/v1/verify/${report.id}`);
    expect(read.body.report.id).toBe(report.id);
  });

  it('each tool refuses a key without its scope with a tool error naming the scope', async () => {
    const client = await connect(await t.key(a, { scopes: ['webhooks'] }));
    for (const name of TOOLS) {
      const res = await call(client, name);
      expect(res.isError, name).toBe(true);
      expect(textOf(res), name).toBe(`scope_denied: API key lacks the required scope: ${SCOPE_OF[name]}`);
      expect(res.structuredContent, name).toEqual({ error: `API key lacks the required scope: ${SCOPE_OF[name]}`, code: 'scope_denied', scope: SCOPE_OF[name] });
    }
    // A key holding the scope of one tool only reaches that one.
    const knowledgeOnly = await connect(await t.key(a, { scopes: ['knowledge'] }));
    expect((await call(knowledgeOnly, 'knowledge_search')).isError).toBeFalsy();
    expect(textOf(await call(knowledgeOnly, 'service_verify'))).toContain('required scope: proof');
  });

  it('a read-only key may search but not verify (a verification writes a report)', async () => {
    const client = await connect(await t.key(a, { scopes: ['knowledge', 'proof', 'readonly'] }));
    expect((await call(client, 'knowledge_search')).isError).toBeFalsy();
    const res = await call(client, 'service_verify');
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ code: 'read_only_key' });
  });

  it('bad arguments are a tool error naming the field, as the REST route words it', async () => {
    const client = await connect(a.key);
    const empty = await call(client, 'knowledge_search', { query: '   ' });
    expect(empty.isError).toBe(true);
    expect(empty.structuredContent).toMatchObject({ error: 'query is required', field: 'query' });
    const topK = await call(client, 'knowledge_search', { query: 'refund', topK: 50 });
    expect(topK.structuredContent).toMatchObject({ error: 'topK must be at most 20', field: 'topK' });
    const verify = await call(client, 'service_verify', { text: '' });
    expect(verify.structuredContent).toMatchObject({ code: 'text_required' });
  });

  it('arguments of the wrong type, missing or unknown are tool errors with a code and the field, worded as REST words them; each tool', async () => {
    const client = await connect(a.key);
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['service_ask', {}, 'question', 'question is required'],
      ['service_ask', { question: 5 }, 'question', 'question must be a string'],
      ['knowledge_search', {}, 'query', 'query is required'],
      ['knowledge_search', { query: 'refund', topK: '5' }, 'topK', 'topK must be a positive whole number'],
      ['knowledge_search', { query: 'refund', top_k: 5 }, 'top_k', 'top_k is not a field of this request'],
      ['service_verify', { text: 'x', passages: [{ source: 'policy', content: 'y', page: 2 }] }, 'passages.0.page', 'passages.0.page is not a field of this request'],
      ['poste_run', { dossierId: 'kcol_x' }, 'key', 'key is required'],
      ['flow_run', {}, 'flowId', 'flowId is required'],
      ['flow_run', { flowId: 7 }, 'flowId', 'flowId must be a string'],
      ['flow_run', { flowId: 'flow_x', input: 'go' }, 'input', 'input must be an object'],
      ['run_status', {}, 'runId', 'runId is required'],
      ['approvals_list', { status: 'pending' }, 'status', 'status must be open or all'],
      ['flow_list', { limit: 5 }, 'limit', 'limit is not a field of this request'],
    ];
    for (const [name, args, field, error] of cases) {
      const res = await call(client, name, args);
      const label = `${name} ${JSON.stringify(args)}`;
      expect(res.isError, label).toBe(true);
      expect(res.structuredContent, label).toMatchObject({ code: 'validation_failed', field, error });
      expect(textOf(res), label).toBe(`validation_failed: ${error}`);
    }
    // The key is judged before the arguments, as on REST: a key without the scope gets its refusal whatever it sent.
    const webhooksOnly = await connect(await t.key(a, { scopes: ['webhooks'] }));
    expect((await call(webhooksOnly, 'knowledge_search', { top_k: 5 })).structuredContent).toMatchObject({ code: 'scope_denied' });
  });

  it('a tool no tool has is the protocol\'s invalid-params error, thrown by the client as an McpError', async () => {
    const client = await connect(a.key);
    await expect(client.callTool({ name: 'service_delete_everything', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Unknown tool: service_delete_everything (tools/list names the tools)',
    });
  });

  it("a tool call counts against its REST twin's ceiling", async () => {
    const limited = await startTestApp({ env: { SVC_RATE_KNOWLEDGE_QUERY: '2' } });
    try {
      const tenant = await limited.tenant();
      const client = new Client({ name: 'svc-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${limited.baseUrl}/mcp`), { requestInit: { headers: { 'x-api-key': tenant.key } } }));
      open.push(client);
      expect((await call(client, 'knowledge_search')).isError).toBeFalsy();
      expect((await api(limited.baseUrl, tenant.key).post('/v1/knowledge/query', { query: 'refund' })).status).toBe(200);
      const third = await call(client, 'knowledge_search');
      expect(third.isError).toBe(true);
      expect(third.structuredContent).toMatchObject({ code: 'route_rate_limited' });
    } finally {
      await limited.close();
    }
  });
});

describe('the flow tools', () => {
  it('list flows, start a run, follow it, list its approval; the approval stays open for a person', async () => {
    const tenant = await t.tenant();
    const rest = api(t.baseUrl, tenant.key);
    const created = await rest.post('/engine/flows', {
      name: 'Review',
      graph: {
        nodes: [
          { key: 'start', type: 'trigger.manual' },
          { key: 'draft', type: 'transform', config: { template: 'Hello {{input.name}}' } },
          { key: 'ok', type: 'approval', config: { question: 'Keep "{{steps.draft.text}}"?' } },
          { key: 'done', type: 'transform', config: { template: 'kept' } },
        ],
        edges: [
          { from: 'start', to: 'draft' },
          { from: 'draft', to: 'ok' },
          { from: 'ok', to: 'done' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const flowId = created.body.flow.id;
    const client = await connect(await t.key(tenant, { scopes: ['engine'] }));

    const flows = await call(client, 'flow_list');
    expect(flows.isError).toBeFalsy();
    expect(flows.structuredContent).toEqual((await rest.get('/engine/flows')).body);

    const started = await call(client, 'flow_run', { flowId, input: { name: 'Ada' } });
    expect(started.isError).toBeFalsy();
    const runId = started.structuredContent!.run.id;
    expect(started.structuredContent!.run).toMatchObject({ flowId, status: 'queued', trigger: 'manual' });

    await runFlowWork(t.app.services);
    const status = await call(client, 'run_status', { runId });
    expect(status.structuredContent).toEqual((await rest.get(`/engine/runs/${runId}`)).body);
    expect(status.structuredContent!.run.status).toBe('waiting_approval');

    const approvals = await call(client, 'approvals_list', { status: 'open' });
    expect(approvals.structuredContent).toEqual((await rest.get('/engine/approvals?status=open')).body);
    expect(approvals.structuredContent!.approvals).toEqual([expect.objectContaining({ runId, nodeKey: 'ok', status: 'open', question: 'Keep "Hello Ada"?' })]);

    // Unknown ids are tool errors worded as the REST 404s.
    expect((await call(client, 'run_status', { runId: 'run_unknown' })).structuredContent).toMatchObject({ code: 'not_found' });
    expect((await call(client, 'flow_run', { flowId: 'flow_unknown' })).structuredContent).toMatchObject({ code: 'not_found' });
    // A read-only engine key lists but cannot start a run.
    const reader = await connect(await t.key(tenant, { scopes: ['engine', 'readonly'] }));
    expect((await call(reader, 'flow_list')).isError).toBeFalsy();
    expect((await call(reader, 'flow_run', { flowId })).structuredContent).toMatchObject({ code: 'read_only_key' });
    expect((await rest.get(`/engine/runs/${runId}`)).body.run.status).toBe('waiting_approval');
  });
});

describe('authentication and methods', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const accept = { accept: 'application/json, text/event-stream' };

  it('401 in the native shape before MCP runs: no key, a bad key', async () => {
    const none = await api(t.baseUrl).post('/mcp', initialize, accept);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: expect.any(String) });
    const bad = await api(t.baseUrl, 'sk_bad').post('/mcp', initialize, accept);
    expect(bad.status).toBe(401);
    const client = new Client({ name: 'svc-test', version: '1.0.0' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), { requestInit: { headers: { authorization: 'Bearer sk_bad' } } })),
    ).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Invalid or revoked API key') });
  });

  it('a plain JSON-RPC POST works without the SDK; GET and DELETE are 405 (stateless)', async () => {
    const res = await api(t.baseUrl, a.key).post('/mcp', initialize, accept);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'svc' }, capabilities: { tools: {} } } });
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const list = await api(t.baseUrl, a.key).post('/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, accept);
    expect(list.body.result.tools).toHaveLength(TOOLS.length);
    for (const method of ['get', 'delete'] as const) {
      const res = await api(t.baseUrl, a.key)[method]('/mcp');
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ error: 'Method not allowed: this endpoint accepts POST only', code: 'method_not_allowed' });
      expect(res.headers.get('allow')).toBe('POST');
      expect((await api(t.baseUrl)[method]('/mcp')).status).toBe(401);
    }
  });
});
