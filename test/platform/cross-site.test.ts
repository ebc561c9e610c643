/**
 * Cross-site requests with a person's session (issue 25, docs/security.md): over GET, /graphql and
 * /graphql/stream run queries only (a subscription that starts a chat turn or a debate, or a mutation,
 * is 405); every request authenticated by the session cookie is checked against the trusted origins
 * whatever its method, and with neither Origin nor Referer only a query passes; CORS answers the
 * console's own origin and SVC_CORS_ORIGINS only.
 */
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createAgent, persona } from '../support/agents.js';
import { browser, startPeopleApp, type Browser, type PeopleApp } from '../people/support.js';

const TRUSTED_ELSEWHERE = 'https://console.partner.example';
const EVIL = 'https://evil.example';
const PASSWORD = 'correct horse battery';

let t: PeopleApp;
let ws: { workspaceId: string; userId: string; key: string };
let person: Browser;
let cookie: string;
let agentId: string;

const CHAT = 'subscription($a: ID, $i: ChatInput!) { chatStream(agentId: $a, input: $i) { __typename } }';
const START = 'subscription($i: StartConversationInput!) { conversationStream(input: $i) { __typename } }';
const CONTINUE = 'subscription($id: ID!, $i: ContinueConversationInput!) { continueConversationStream(id: $id, input: $i) { __typename } }';
const MUTATION = 'mutation { createAgent(input: { name: "X", role: "r", personality: "p", mission: "m", decisionStyle: "d", systemPrompt: "s" }) { id } }';
const QUERY = '{ viewer { userId } }';

async function count(sql: string): Promise<number> {
  const [row] = await t.app.services.orm.em.fork().execute<{ n: unknown }[]>(sql, [ws.workspaceId]);
  return Number(row?.n);
}

/** What a started chat turn or debate leaves behind: sessions, conversations, metered questions. */
const traces = async () => ({
  sessions: await count('select count(*) as n from chat_session where workspace_id = ?'),
  conversations: await count('select count(*) as n from conversation where workspace_id = ?'),
  ledger: await count('select count(*) as n from usage_ledger where workspace_id = ?'),
  agents: await count('select count(*) as n from agent where workspace_id = ?'),
});

const url = (path: string, query: string, variables?: unknown) =>
  `${t.baseUrl}${path}?query=${encodeURIComponent(query)}${variables ? `&variables=${encodeURIComponent(JSON.stringify(variables))}` : ''}`;

/** A GET with the person's cookie, as a cross-site top-level navigation or script would send it. */
async function getWithCookie(target: string, headers: Record<string, string> = {}) {
  const res = await fetch(target, { headers: { cookie, accept: 'text/event-stream', ...headers } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  t = await startPeopleApp({ env: { SVC_CORS_ORIGINS: `${TRUSTED_ELSEWHERE}, http://localhost:5173` }, smtp: false });
  ws = await t.workspace();
  await t.person(ws.workspaceId, { email: 'victim@example.test', password: PASSWORD, role: 'admin' });
  person = browser(t.baseUrl, { ip: '10.25.0.1' });
  expect((await person.signIn('victim@example.test', PASSWORD)).status).toBe(200);
  cookie = `svc_session=${await person.sessionToken()}`;
  agentId = await createAgent({ baseUrl: t.baseUrl } as never, ws.key, persona('Ada'));
}, 240_000);
afterAll(() => t?.close());

describe('GET runs queries only, on /graphql and /graphql/stream', () => {
  const starters = () =>
    [
      ['chatStream', CHAT, { a: agentId, i: { message: 'Spend their allowance' } }],
      ['conversationStream', START, { i: { topic: 'Spend it', agentIds: [agentId], rounds: 1 } }],
      ['continueConversationStream', CONTINUE, { id: 'conv_any', i: { message: 'Again' } }],
    ] as const;

  it('refuses a subscription that starts work with 405, from another origin or with no origin at all, and nothing runs', async () => {
    const before = await traces();
    for (const [name, query, variables] of starters()) {
      for (const path of ['/graphql/stream', '/graphql']) {
        for (const headers of [{ origin: EVIL }, { referer: `${EVIL}/page` }, {}, { origin: t.baseUrl }] as Record<string, string>[]) {
          const res = await getWithCookie(url(path, query, variables), headers);
          expect(res.status, `${name} over GET ${path} ${JSON.stringify(headers)}`).toBe(405);
          expect(res.headers.get('allow')).toBe('POST');
          expect(res.body.errors[0].extensions).toMatchObject({ code: 'method_not_allowed', status: 405 });
          expect(res.body.errors[0].message).toMatch(/GET is for queries/);
        }
      }
    }
    // The same with an API key: GET is for queries whoever calls.
    const keyed = await fetch(url('/graphql/stream', CHAT, { a: agentId, i: { message: 'x' } }), {
      headers: { authorization: `Bearer ${ws.key}`, accept: 'text/event-stream' },
    });
    expect(keyed.status).toBe(405);
    await keyed.text();
    expect(await traces()).toEqual(before);
  });

  it('refuses a mutation over GET with 405 and runs a query over GET', async () => {
    const before = await traces();
    const mutation = await getWithCookie(url('/graphql', MUTATION), { accept: 'application/json', referer: `${t.baseUrl}/console` });
    expect(mutation.status).toBe(405);
    expect(mutation.body.errors[0].extensions.code).toBe('method_not_allowed');
    const named = await getWithCookie(`${url('/graphql', `query Q ${QUERY} ${MUTATION.replace('mutation', 'mutation M')}`)}&operationName=M`, {
      accept: 'application/json',
    });
    expect(named.status).toBe(405);
    expect(await traces()).toEqual(before);
    const query = await getWithCookie(url('/graphql', QUERY), { accept: 'application/json' });
    expect(query.status).toBe(200);
    expect(query.body.data.viewer.userId).toEqual(expect.any(String));
  });
});

describe('the Origin check applies to every cookie request, whatever its method', () => {
  it('refuses a query from another origin (Origin, or Referer without Origin) over GET and POST', async () => {
    for (const headers of [{ origin: EVIL }, { referer: `${EVIL}/x` }, { origin: 'null' }] as Record<string, string>[]) {
      const get = await getWithCookie(url('/graphql', QUERY), { accept: 'application/json', ...headers });
      expect(get.body.errors?.[0]?.extensions, JSON.stringify(headers)).toMatchObject({ code: 'csrf_rejected', status: 403 });
      expect(get.body.data).toBeNull();
      const post = await person.graphql(QUERY, undefined, { origin: '', ...headers });
      expect(post.body.errors?.[0]?.extensions).toMatchObject({ code: 'csrf_rejected', status: 403 });
    }
    const me = await person.get('/auth/me', { origin: EVIL });
    expect(me.status).toBe(403);
    expect(me.body.code).toBe('csrf_rejected');
    expect((await person.get('/auth/me')).status).toBe(200);
  });

  it('with neither Origin nor Referer, passes a query and refuses a mutation and a subscription', async () => {
    const before = await traces();
    const query = await person.graphql(QUERY, undefined, { origin: '' });
    expect(query.body.data.viewer.userId).toEqual(expect.any(String));
    const mutation = await person.graphql(MUTATION, undefined, { origin: '' });
    expect(mutation.body.errors?.[0]?.extensions).toMatchObject({ code: 'csrf_rejected' });

    // A subscription over POST (graphql-sse distinct connections) with the cookie and no Origin.
    const client = createClient({ url: `${t.baseUrl}/graphql/stream`, retryAttempts: 0, headers: () => ({ cookie }) });
    const results: any[] = [];
    for await (const r of client.iterate({ query: CHAT, variables: { a: agentId, i: { message: 'no origin' } } })) results.push(r);
    client.dispose();
    expect(results.at(-1).errors[0].extensions).toMatchObject({ code: 'csrf_rejected' });
    expect(await traces()).toEqual(before);
  });

  it('accepts the service origin and the SVC_CORS_ORIGINS origins, and API keys whatever the origin', async () => {
    for (const origin of [t.baseUrl, TRUSTED_ELSEWHERE]) {
      const res = await person.graphql(QUERY, undefined, { origin });
      expect(res.body.data.viewer.userId, origin).toEqual(expect.any(String));
    }
    const viaKey = await fetch(url('/graphql', QUERY), { headers: { authorization: `Bearer ${ws.key}`, origin: EVIL, accept: 'application/json' } });
    expect((await viaKey.json()).data.viewer).toBeDefined();
  });
});

describe('CORS on /graphql and /graphql/stream', () => {
  async function corsOf(path: string, origin: string, method = 'POST') {
    const res =
      method === 'OPTIONS'
        ? await fetch(t.baseUrl + path, { method, headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
        : await fetch(t.baseUrl + path, {
            method: 'POST',
            headers: { cookie, origin, 'content-type': 'application/json' },
            body: JSON.stringify({ query: '{ viewer { workspace { name } } }' }),
          });
    await res.text();
    return {
      status: res.status,
      allowOrigin: res.headers.get('access-control-allow-origin'),
      credentials: res.headers.get('access-control-allow-credentials'),
      methods: res.headers.get('access-control-allow-methods'),
      vary: res.headers.get('vary'),
    };
  }

  it('never reflects another origin, with or without credentials, on answers and preflights', async () => {
    for (const path of ['/graphql', '/graphql/stream']) {
      for (const method of ['POST', 'OPTIONS']) {
        const evil = await corsOf(path, EVIL, method);
        expect(evil.allowOrigin, `${method} ${path}`).toBeNull();
        expect(evil.credentials).toBeNull();
        expect(evil.methods).toBeNull();
        expect(evil.vary).toMatch(/Origin/);
      }
    }
  });

  it("answers the console's own origin and the listed origins, with credentials", async () => {
    for (const origin of [t.baseUrl, TRUSTED_ELSEWHERE, 'http://localhost:5173']) {
      for (const path of ['/graphql', '/graphql/stream']) {
        const pre = await corsOf(path, origin, 'OPTIONS');
        expect(pre.status).toBe(204);
        expect(pre.allowOrigin).toBe(origin);
        expect(pre.credentials).toBe('true');
        expect(pre.methods).toContain('POST');
        const res = await corsOf('/graphql', origin);
        expect(res.allowOrigin).toBe(origin);
        expect(res.credentials).toBe('true');
      }
    }
  });
});

describe('SVC_CORS_ORIGINS', () => {
  it('takes exact origins and refuses a wildcard, a path or something that is no origin at start', () => {
    expect(loadConfig({ SVC_CORS_ORIGINS: 'https://a.example, http://localhost:5173 https://b.example:8443/' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
      'https://b.example:8443',
    ]);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    for (const bad of ['*', 'https://*.example', 'https://a.example/console', 'a.example', 'ftp://a.example']) {
      expect(() => loadConfig({ SVC_CORS_ORIGINS: bad }), bad).toThrow(/SVC_CORS_ORIGINS/);
    }
  });
});
