/**
 * Every limited operation is limited identically on REST, GraphQL and MCP (one request pipeline): the
 * same number passes, the next is refused, with retry-after (REST) / extensions.retryAfter (GraphQL) /
 * the code in the tool error (MCP). GraphQL counts one request per root field, and a field or tool
 * twinned to a REST route counts in that route's bucket; MCP's protocol messages count against the key's
 * rate like any request. A widget visitor's chat has the agent-chat ceiling of REST chat, per widget.
 * The clock is the app's ManualClock: it stands still inside each test, and moves to a new minute.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routeRegistry } from '../../rest/route.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { persona } from '../support/agents.js';
import { fixtures, ingest } from '../support/knowledge.js';

let t: TestApp;
let minute = 0;

beforeAll(async () => {
  t = await startTestApp(); // default ceilings: agent chat 30 per client, knowledge query 60 per workspace
});
afterAll(() => t.close());
// Each test in a fresh calendar minute, 17.25 s into it: retry-after is 43 s.
beforeEach(() => t.clock.set(new Date(Date.UTC(2026, 10, 2, 10, minute++, 17, 250))));
const RETRY_AFTER = 43;

/** One request of an operation: answered, or refused by a limit (429 on REST, status 429 on GraphQL). */
interface Outcome {
  refused: boolean;
  retryAfter?: number;
  /** Answered in full: 200 (the REST stream ends with `done`), or GraphQL data without errors. */
  answered?: boolean;
}

interface Side {
  call(tenant: TestTenant, agentId: string): Promise<Outcome>;
}

const rest =
  (path: (agentId: string) => string, body: unknown): Side['call'] =>
  async (tenant, agentId) => {
    const res = await api(t.baseUrl, tenant.key).post(path(agentId), body);
    if (res.status === 429) return { refused: true, retryAfter: Number(res.headers.get('retry-after')) };
    return { refused: false, answered: res.status === 200 && (typeof res.body !== 'string' || res.body.includes('"type":"done"')) };
  };

function fromGraphQL(errors: { extensions: Record<string, unknown> }[] | undefined): Outcome {
  const limit = errors?.find((e) => e.extensions.status === 429);
  return limit ? { refused: true, retryAfter: limit.extensions.retryAfter as number } : { refused: false, answered: !errors?.length };
}

const gql =
  (query: string, variables: (agentId: string) => Record<string, unknown>): Side['call'] =>
  async (tenant, agentId) =>
    fromGraphQL((await api(t.baseUrl, tenant.key).graphql(query, variables(agentId))).errors);

const subscription =
  (query: string, variables: (agentId: string) => Record<string, unknown>): Side['call'] =>
  async (tenant, agentId) => {
    const client = createClient({ url: `${t.baseUrl}/graphql/stream`, retryAttempts: 0, headers: () => ({ authorization: `Bearer ${tenant.key}` }) });
    try {
      const errors: { extensions: Record<string, unknown> }[] = [];
      for await (const r of client.iterate({ query, variables: variables(agentId) })) errors.push(...((r.errors ?? []) as never[]));
      return fromGraphQL(errors);
    } finally {
      client.dispose();
    }
  };

// Real turns on the built-in local model.
const TURN = { message: 'What is the budget?' };
const CHAT = 'mutation($agentId: ID, $input: ChatInput!) { chat(agentId: $agentId, input: $input) { content } }';
const STREAM = 'subscription($agentId: ID, $input: ChatInput!) { chatStream(agentId: $agentId, input: $input) { __typename } }';
const SEARCH = 'query($input: KnowledgeQueryInput!) { knowledgeSearch(input: $input) { ref } }';
const VERIFY = { text: 'The fee is 5 EUR.', passages: [{ source: 'memo', content: 'The fee is 5 EUR.' }] };

/** The official MCP client over streamable HTTP, connected with the tenant's key. */
async function mcpClient(key: string): Promise<Client> {
  const client = new Client({ name: 'limits-parity', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

/** One connected client per key (connecting is two requests of its own); closed after the tests. */
const mcpClients = new Map<string, Promise<Client>>();
afterAll(async () => {
  for (const client of mcpClients.values()) await (await client).close();
});

/** One MCP tool call: a refusal by a limit is a tool error naming the code (MCP has no retry-after). */
const mcp =
  (tool: string, args: Record<string, unknown>): Side['call'] =>
  async (tenant) => {
    if (!mcpClients.has(tenant.key)) mcpClients.set(tenant.key, mcpClient(tenant.key));
    const client = await mcpClients.get(tenant.key)!;
    const r = (await client.callTool({ name: tool, arguments: args })) as CallToolResult & { structuredContent?: { code?: string } };
    const code = r.structuredContent?.code;
    if (r.isError && (code === 'rate_limited' || code === 'route_rate_limited')) return { refused: true };
    return { refused: false, answered: !r.isError };
  };

interface Row {
  route: string;
  ceiling: number;
  rest: Side['call'];
  graphql: Side['call'];
  /** The MCP tool twinned to the route, where there is one. */
  mcp?: Side['call'];
}

const TABLE: Row[] = [
  {
    route: 'POST /v1/agents/:id/chat',
    ceiling: 30,
    rest: rest((id) => `/v1/agents/${id}/chat`, TURN),
    graphql: gql(CHAT, (agentId) => ({ agentId, input: TURN })),
  },
  { route: 'POST /v1/agents/chat', ceiling: 30, rest: rest(() => '/v1/agents/chat', TURN), graphql: gql(CHAT, () => ({ input: TURN })) },
  {
    route: 'POST /v1/agents/:id/chat/stream',
    ceiling: 30,
    rest: rest((id) => `/v1/agents/${id}/chat/stream`, TURN),
    graphql: subscription(STREAM, (agentId) => ({ agentId, input: TURN })),
  },
  {
    route: 'POST /v1/agents/chat/stream',
    ceiling: 30,
    rest: rest(() => '/v1/agents/chat/stream', TURN),
    graphql: subscription(STREAM, () => ({ input: TURN })),
  },
  {
    route: 'POST /v1/knowledge/query',
    ceiling: 60,
    rest: rest(() => '/v1/knowledge/query', { query: 'refund policy' }),
    graphql: gql(SEARCH, () => ({ input: { query: 'refund policy' } })),
    mcp: mcp('knowledge_search', { query: 'refund policy' }),
  },
  {
    route: 'POST /v1/verify',
    ceiling: 60,
    // A report is created: 201.
    rest: async (tenant) => {
      const res = await api(t.baseUrl, tenant.key).post('/v1/verify', VERIFY);
      return res.status === 429 ? { refused: true, retryAfter: Number(res.headers.get('retry-after')) } : { refused: false, answered: res.status === 201 };
    },
    graphql: gql('mutation($input: VerifyInput!) { verify(input: $input) { id } }', () => ({ input: VERIFY })),
    mcp: mcp('service_verify', VERIFY),
  },
];

/** Limited REST routes without a GraphQL twin (nothing to compare them with). */
const REST_ONLY = [
  'POST /v1/chat/completions',
  'POST /v1/responses',
  'POST /v1/messages',
  'POST /v1/knowledge-sources/upload',
  // Public ways in, limited per client address or per flow (test/flows/hooks.test.ts, test/partner/device-limits.test.ts).
  'POST /engine/hooks/:flowId',
  'POST /partner/devices/code',
  'POST /partner/devices/token',
  // A widget visitor's chat: below.
  'POST /widget/:publicId/chat',
];

async function freshTenant(): Promise<{ tenant: TestTenant; agentId: string }> {
  const tenant = await t.tenant();
  const agentId = (await api(t.baseUrl, tenant.key).post('/v1/agents', persona('Ada'))).body.agent.id as string;
  return { tenant, agentId };
}

/** Sends `n` requests one after the other; returns how many passed the limits and the first refusal. */
async function run(call: Side['call'], n: number): Promise<{ answered: number; refusal?: Outcome }> {
  const { tenant, agentId } = await freshTenant();
  let answered = 0;
  let refusal: Outcome | undefined;
  for (let i = 0; i < n; i++) {
    const outcome = await call(tenant, agentId);
    if (outcome.refused) refusal ??= outcome;
    else if (outcome.answered) answered++;
  }
  return { answered, refusal };
}

describe('limits parity table: REST and GraphQL', () => {
  it('covers every limited REST route: twinned in the table or listed as REST-only', () => {
    const limited = routeRegistry.filter((r) => 'rateLimit' in r && r.rateLimit).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect([...limited].sort()).toEqual([...TABLE.map((r) => r.route), ...REST_ONLY].sort());
  });

  for (const row of TABLE) {
    it(`${row.route}: ${row.ceiling} pass on each API, the next is refused with retry-after`, async () => {
      for (const side of [row.rest, row.graphql]) {
        t.clock.set(new Date(Date.UTC(2026, 10, 2, 10, minute++, 17, 250)));
        const { answered, refusal } = await run(side, row.ceiling + 1);
        expect(answered).toBe(row.ceiling);
        expect(refusal).toEqual({ refused: true, retryAfter: RETRY_AFTER });
      }
      if (row.mcp) {
        t.clock.set(new Date(Date.UTC(2026, 10, 2, 10, minute++, 17, 250)));
        const { answered, refusal } = await run(row.mcp, row.ceiling + 1);
        expect(answered).toBe(row.ceiling);
        expect(refusal).toEqual({ refused: true });
      }
    }, 180_000);
  }

  it('a twin counts in its REST route’s bucket: 20 REST + 10 GraphQL chats fill the ceiling of 30', async () => {
    const { tenant, agentId } = await freshTenant();
    const restCall = TABLE[0]!.rest;
    const gqlCall = TABLE[0]!.graphql;
    for (let i = 0; i < 20; i++) expect((await restCall(tenant, agentId)).refused).toBe(false);
    for (let i = 0; i < 10; i++) expect((await gqlCall(tenant, agentId)).refused).toBe(false);
    expect((await restCall(tenant, agentId)).refused).toBe(true);
    expect((await gqlCall(tenant, agentId)).refused).toBe(true);
    t.clock.advance(60_000);
    expect((await gqlCall(tenant, agentId)).refused).toBe(false);
  });
});

describe('GraphQL counts per root field', () => {
  it('50 aliased createKnowledgeCollection on a key limited to 10 per minute create exactly 10', async () => {
    const { tenant } = await freshTenant();
    const key = await t.key(tenant, { ratePerMinute: 10 });
    const writes = Array.from({ length: 50 }, (_, i) => `c${i}: createKnowledgeCollection(input: { name: "c${i}" }) { id }`).join('\n');
    const res = await api(t.baseUrl, key).graphql(`mutation { ${writes} }`);
    expect(res.errors![0]).toMatchObject({ message: 'Rate limit exceeded', extensions: { code: 'rate_limited', status: 429, retryAfter: RETRY_AFTER } });
    const list = await api(t.baseUrl, tenant.key).get('/v1/knowledge-collections');
    expect(list.body.collections).toHaveLength(10);
    // REST: the same key is spent for this minute too.
    const restRefusal = await api(t.baseUrl, key).post('/v1/knowledge-collections', { name: 'rest' });
    expect([restRefusal.status, restRefusal.body.code, restRefusal.headers.get('retry-after')]).toEqual([429, 'rate_limited', String(RETRY_AFTER)]);
  });

  it('35 chat mutations with a ceiling of 30: 30 real turns answer, 5 are refused', async () => {
    const { tenant, agentId } = await freshTenant();
    const c = api(t.baseUrl, tenant.key);
    const outcomes = [];
    for (let i = 0; i < 35; i++) outcomes.push(await c.graphql(CHAT, { agentId, input: { message: `What is the budget? (${i})` } }));
    const answered = outcomes.filter((r) => !r.errors && typeof r.data?.chat?.content === 'string');
    const refused = outcomes.filter((r) => r.errors?.[0]?.extensions.status === 429);
    expect([answered.length, refused.length]).toEqual([30, 5]);
    expect(refused[0]!.errors![0]!.extensions).toMatchObject({ code: 'route_rate_limited', route: 'POST /v1/agents/:id/chat', limitPerMinute: 30, retryAfter: RETRY_AFTER });
  });

  it('40 aliased chat turns in one request are refused whole, before any turn runs', async () => {
    const { tenant, agentId } = await freshTenant();
    const turns = Array.from({ length: 40 }, (_, i) => `t${i}: chat(agentId: "${agentId}", input: { message: "hi" }) { content }`).join('\n');
    const res = await api(t.baseUrl, tenant.key).graphql(`mutation { ${turns} }`);
    expect(res.data).toBeUndefined();
    expect(res.errors![0]!.extensions).toMatchObject({ code: 'limited_field_repeated', status: 400, field: 'chat' });
    const sessions = await api(t.baseUrl, tenant.key).graphql('{ chatSessions { id } }');
    expect(sessions.data.chatSessions).toEqual([]);
    // Nothing was counted: the whole ceiling is still there.
    const outcomes = [];
    for (let i = 0; i < 31; i++) outcomes.push(await TABLE[0]!.graphql(tenant, agentId));
    expect(outcomes.map((o) => o.refused)).toEqual([...Array(30).fill(false), true]);
  });

  it('65 knowledgeSearch queries with a ceiling of 60: 60 answer, 5 are refused with retryAfter', async () => {
    const { tenant } = await freshTenant();
    const c = api(t.baseUrl, tenant.key);
    const outcomes = [];
    for (let i = 0; i < 65; i++) outcomes.push(await c.graphql(SEARCH, { input: { query: `refund policy ${i}` } }));
    expect(outcomes.filter((r) => !r.errors && Array.isArray(r.data.knowledgeSearch))).toHaveLength(60);
    const refused = outcomes.filter((r) => r.errors);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.errors![0]!.extensions).toMatchObject({ status: 429, route: 'POST /v1/knowledge/query', retryAfter: RETRY_AFTER });
  });
});

describe('MCP and the widget are ways in like the others', () => {
  it("MCP's initialize, notifications, tools/list and ping count against the key's rate, with REST and GraphQL", async () => {
    const { tenant } = await freshTenant();
    const key = await t.key(tenant, { ratePerMinute: 6 });
    const client = await mcpClient(key); // initialize, then notifications/initialized: 2
    try {
      await client.listTools(); // 3
      await client.ping(); // 4
      expect((await api(t.baseUrl, key).get('/v1/agents')).status).toBe(200); // 5
      expect((await api(t.baseUrl, key).graphql('{ agents { id } }')).errors).toBeUndefined(); // 6
      await expect(client.ping()).rejects.toThrow(/rate_limited/);
      const rest = await api(t.baseUrl, key).get('/v1/agents');
      expect([rest.status, rest.body.code, rest.headers.get('retry-after')]).toEqual([429, 'rate_limited', String(RETRY_AFTER)]);
      const raw = await fetch(`${t.baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect([raw.status, (await raw.json()).code, raw.headers.get('retry-after')]).toEqual([429, 'rate_limited', String(RETRY_AFTER)]);
      t.clock.advance(60_000);
      await client.ping();
    } finally {
      await client.close();
    }
  });

  it("a widget's visitors share the agent-chat ceiling of REST chat, per widget: 30 answer, the next is refused with retry-after", async () => {
    const { tenant, agentId } = await freshTenant();
    const c = api(t.baseUrl, tenant.key);
    const collection = (await c.post('/v1/knowledge-collections', { name: 'Budget' })).body.collection;
    await ingest(t, tenant, fixtures.text('The budget is 40 000 EUR for the year.'), 'budget.txt', { collectionId: collection.id });
    expect((await c.post(`/v1/knowledge/agents/${agentId}/links`, { collectionId: collection.id })).status).toBe(200);
    const origin = 'http://shop.test';
    const widgetOf = async () => {
      const res = await c.post('/engine/widgets', { name: 'Help', family: 'agent', agentId, allowedOrigins: [origin], monthlyQuestionLimit: 1000, ipRatePerMinute: 100 });
      expect(res.status, res.text).toBe(201);
      return res.body.widget.publicId as string;
    };
    const ask = (publicId: string, visitor: number) =>
      fetch(`${t.baseUrl}/widget/${publicId}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': `198.51.100.${visitor}` },
        body: JSON.stringify({ message: 'What is the budget?' }),
      });
    const publicId = await widgetOf();
    for (let i = 0; i < 30; i++) {
      const res = await ask(publicId, (i % 5) + 1); // five visitors: the ceiling is the widget's, not each visitor's
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('"type":"done"');
    }
    const refused = await ask(publicId, 99);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(RETRY_AFTER));
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
    expect(await refused.json()).toEqual({ message: expect.any(String), route: 'POST /widget/:publicId/chat', limitPerMinute: 30 });
    // Another widget of the same workspace has its own count.
    expect((await ask(await widgetOf(), 1)).status).toBe(200);
  });
});
