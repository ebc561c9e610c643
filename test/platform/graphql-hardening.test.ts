/**
 * GraphQL over HTTP against hostile input (issue 20): the body limit and media type on /graphql and
 * /graphql/stream, parser and variable depth, Armor's document limits. Every refusal is a JSON body
 * with a 4xx status or a coded GraphQL error, never an internal error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS } from '../../src/graphql/limits.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { persona } from '../support/agents.js';

let t: TestApp;
let a: TestTenant;
let agentId: string;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
  agentId = (await api(t.baseUrl, a.key).post('/v1/agents', persona('Ada'))).body.agent.id;
});
afterAll(() => t.close());

async function post(path: string, body: string | Blob, headers: Record<string, string>) {
  const res = await fetch(t.baseUrl + path, { method: 'POST', headers: { authorization: `Bearer ${a.key}`, ...headers }, body });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: text ? JSON.parse(text) : undefined };
}

const json = { 'content-type': 'application/json' };
/** GraphQL over HTTP: request errors are 400s for this media type (legacy application/json clients get 200). */
const gqlJson = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };

describe('the HTTP layer of /graphql', () => {
  it('refuses an 8.5 MB query with 413 and a JSON error body (the JSON body limit applies)', async () => {
    const query = `{ viewer { userId } } # ${'x'.repeat(8.5 * 1024 * 1024)}`;
    for (const path of ['/graphql', '/graphql/stream']) {
      const res = await post(path, JSON.stringify({ query }), json);
      expect(res.status).toBe(413);
      expect(res.type).toContain('application/json');
      expect(res.body.errors[0]).toMatchObject({ message: 'Request body too large', extensions: { code: 'payload_too_large', status: 413 } });
    }
  });

  it('answers 415 with a JSON error body for text/plain or no content type', async () => {
    // A Blob without a type is sent with no content-type header at all.
    for (const [body, headers] of [['{ viewer { userId } }', { 'content-type': 'text/plain' }], [new Blob(['{ viewer { userId } }']), {}]] as const) {
      const res = await post('/graphql', body, headers);
      expect(res.status).toBe(415);
      expect(res.type).toContain('application/json');
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    }
  });

  it('keeps answering ordinary JSON requests, GET queries and introspection', async () => {
    expect((await api(t.baseUrl, a.key).graphql('{ viewer { userId } }')).data.viewer.userId).toBe(a.userId);
    const get = await fetch(`${t.baseUrl}/graphql?query=${encodeURIComponent('{ viewer { userId } }')}`, {
      headers: { authorization: `Bearer ${a.key}`, accept: 'application/json' },
    });
    expect((await get.json()).data.viewer.userId).toBe(a.userId);
    const introspection = await api(t.baseUrl).graphql('{ __schema { queryType { name } types { name fields { name type { name ofType { name ofType { name } } } } } } }');
    expect(introspection.errors).toBeUndefined();
  });
});

describe('parsing and variables', () => {
  it('10k nested braces: a 400-class GraphQL error with a code, not an internal error', async () => {
    const query = `query ${'{ a '.repeat(10_000)}${'}'.repeat(10_000)}`;
    const res = await post('/graphql', JSON.stringify({ query }), gqlJson);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'graphql_too_many_tokens', status: 400 });
    const legacy = await post('/graphql', JSON.stringify({ query }), json);
    expect(legacy.status).toBe(200);
    expect(legacy.body.errors[0].extensions).toMatchObject({ code: 'graphql_too_many_tokens', status: 400 });
  });

  it('a malformed document is a coded parse error', async () => {
    const res = await post('/graphql', JSON.stringify({ query: '{ viewer { ' }), gqlJson);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'graphql_parse_failed' });
  });

  it('GraphQL over GET with variables or extensions that are not JSON, or not an object: 400 in the GraphQL shape', async () => {
    for (const [name, value] of [
      ['variables', '{'],
      ['variables', '[1,2]'],
      ['variables', '"text"'],
      ['extensions', '{"a":'],
      ['extensions', '42'],
    ] as const) {
      for (const auth of [{ authorization: `Bearer ${a.key}` }, {}] as Record<string, string>[]) {
        const res = await fetch(`${t.baseUrl}/graphql?${name}=${encodeURIComponent(value)}&query=${encodeURIComponent('{ viewer { userId } }')}`, {
          headers: { ...auth, accept: 'application/graphql-response+json' },
        });
        expect(res.status, `${name}=${value}`).toBe(400);
        const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
        expect(body.errors[0]!.extensions.code, `${name}=${value}`).toBe('validation_failed');
        expect(body.errors[0]!.message).toMatch(new RegExp(name));
      }
    }
    // The issue's own request: variables that are not JSON and a query that is not GraphQL.
    const issue = await fetch(`${t.baseUrl}/graphql?variables=%7B&query=x`, { headers: { authorization: `Bearer ${a.key}` } });
    expect(issue.status).toBe(400);
    expect(((await issue.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).not.toBe('internal_error');
  });

  it('a 10 000-deep JSON variable in the chat mutation: a 400-class error with a code', async () => {
    // Written as text: JSON.stringify itself overflows on such a value.
    const deep = `${'{"d":'.repeat(10_000)}"leaf"${'}'.repeat(10_000)}`;
    const query = 'mutation($agentId: ID, $input: ChatInput!) { chat(agentId: $agentId, input: $input) { content } }';
    const body = `{"query":${JSON.stringify(query)},"variables":{"agentId":"${agentId}","input":{"message":"hi","context":[{"category":"c","data":${deep}}]}}}`;
    const res = await post('/graphql', body, gqlJson);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'json_too_deep', status: 400 });
  });
});

describe('document limits (GraphQL Armor)', () => {
  it(`refuses more than ${GRAPHQL_LIMITS.aliases} aliases, depth over ${GRAPHQL_LIMITS.depth}, with codes`, async () => {
    const aliases = `{ ${Array.from({ length: GRAPHQL_LIMITS.aliases + 1 }, (_, i) => `a${i}: viewer { userId }`).join(' ')} }`;
    const tooMany = await api(t.baseUrl, a.key).graphql(aliases);
    expect(tooMany.errors![0].extensions).toMatchObject({ code: 'graphql_too_many_aliases', status: 400 });
    expect(tooMany.data).toBeUndefined();

    const deep = `{ knowledgeCollections { sources { collection { sources { collection { sources { collection { sources { collection { sources { id } } } } } } } } } } }`;
    const tooDeep = await api(t.baseUrl, a.key).graphql(deep);
    expect(tooDeep.errors![0].extensions).toMatchObject({ code: 'graphql_too_deep', status: 400 });
  });

  it(`refuses a document costing more than ${GRAPHQL_LIMITS.cost}, and answers the same selection once`, async () => {
    const inner =
      'knowledgeCollections { id sources { id collection { id sources { id name filename status createdAt updatedAt collection { id name description createdAt updatedAt } } } } }';
    const costly = await api(t.baseUrl, a.key).graphql(`{ ${Array.from({ length: 50 }, (_, i) => `a${i}: ${inner}`).join(' ')} }`);
    expect(costly.errors![0].extensions).toMatchObject({ code: 'graphql_too_costly', status: 400 });
    const once = await api(t.baseUrl, a.key).graphql(`{ ${inner} }`);
    expect(once.errors).toBeUndefined();
  });
});
