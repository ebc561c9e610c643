/**
 * Every limited operation is limited identically on REST and GraphQL (one request pipeline): the same
 * number passes, the next is refused, with retry-after (REST) / extensions.retryAfter (GraphQL). GraphQL
 * counts one request per root field, and a field twinned to a REST route counts in that route's bucket.
 * The clock is the app's ManualClock: it stands still inside each test, and moves to a new minute.
 */
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routeRegistry } from '../../rest/route.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { persona } from '../support/agents.js';

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

interface Row {
  route: string;
  ceiling: number;
  rest: Side['call'];
  graphql: Side['call'];
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
  },
];

/** Limited REST routes without a GraphQL twin (nothing to compare them with). */
const REST_ONLY = ['POST /v1/chat/completions', 'POST /v1/responses', 'POST /v1/messages', 'POST /v1/knowledge-sources/upload'];

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
    });
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
