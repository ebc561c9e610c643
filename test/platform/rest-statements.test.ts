/**
 * How many SQL statements a REST request sends before its handler (issue 28: knowledge search's "what is left
 * per query"), counted as test/gateway/statements.test.ts counts a gateway call's: every statement the ORM
 * driver's pg clients send to the test's database, by wrapping pg.Client#query in this process. A REST route's
 * caller may be made from the process's memory of its key's last lookup, and the pipeline then confirms the key
 * in the statement that counts the request's rates (`svc_rate_take`): one statement for the key and the rates,
 * where there were a lookup and one statement per rate. On the embedded database there is no pg client to
 * count: the file is skipped.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/secrets.js';
import { postgresAvailable } from '../support/database.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

const onPostgres = await postgresAvailable();

let t: TestApp;
let a: TestTenant;
let database = '';
const seen: string[] = [];
const named = new Set<string>();
// the ORM's driver has its own copy of pg (node_modules/@mikro-orm/postgresql/node_modules/pg)
const here = createRequire(import.meta.url);
const driverPg = createRequire(here.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;
const original = driverPg.Client.prototype.query;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await startTestApp({ env: { SVC_RATE_KNOWLEDGE_QUERY: '5' } });
  t.clock.set('2026-11-02T10:00:00.000Z');
  a = await t.tenant();
  database = new URL(t.db.url!).pathname.slice(1);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (driverPg.Client.prototype as any).query = function (this: pg.Client, ...args: unknown[]) {
    if (this.database === database) {
      const first = args[0] as string | { text?: string; name?: string };
      seen.push(typeof first === 'string' ? first : (first?.text ?? '?'));
      if (typeof first === 'object' && first?.name && first.text) named.add(first.text);
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (original as any).apply(this, args);
  };
});
// each test in a calendar minute of its own: the route's ceiling (5 a minute per workspace) starts afresh
beforeEach(() => t?.clock.advance(60_000));
afterAll(async () => {
  driverPg.Client.prototype.query = original;
  if (onPostgres) await t.close();
});

/** One request and every statement it sent (all of them before its answer: these routes defer nothing). */
async function counted(fn: () => Promise<Response>): Promise<{ status: number; body: Record<string, unknown>; headers: Headers; statements: string[] }> {
  seen.length = 0;
  const res = await fn();
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, headers: res.headers, statements: [...seen] };
}

/** Changes the database from a connection of its own (as another process would), not through the app. */
async function elsewhere(text: string, params: unknown[]): Promise<void> {
  const client = new driverPg.Client({ connectionString: t.db.url! });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

const query = (key: string, text = 'What about the fee?') =>
  fetch(`${t.baseUrl}/v1/knowledge/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: text, topK: 5 }),
  });
const listAgents = (key: string) => fetch(`${t.baseUrl}/v1/agents`, { headers: { authorization: `Bearer ${key}` } });
const createAgent = (key: string) =>
  fetch(`${t.baseUrl}/v1/agents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Counted', instructions: 'Answer.' }),
  });

const isLookup = (q: string) => /ancestor_revoked/.test(q);
const isRateTake = (q: string) => /svc_rate_take/.test(q);
const isRateCount = (q: string) => /insert into rate_counter/.test(q);

async function rateCount(bucketLike: string): Promise<number> {
  const rows = await t.app.services.orm.em.fork().getConnection().execute<{ n: number }[]>(
    'select coalesce(sum(count), 0)::int as n from rate_counter where bucket like ?',
    [bucketLike],
  );
  return rows[0].n;
}

/** A key of tenant `a`, looked up once by this process (one answered request), so that it is remembered. */
async function remembered(attrs: Parameters<TestApp['key']>[1] = {}): Promise<{ key: string; id: string }> {
  const key = await t.key(a, attrs);
  expect((await listAgents(key)).status).toBe(200);
  const [row] = await t.app.services.orm.em.fork().getConnection().execute<{ id: string }[]>('select id from api_key where secret_hash = ?', [sha256Hex(key)]);
  return { key, id: row.id };
}

describe.skipIf(!onPostgres)('statements before a REST handler', () => {
  it('POST /v1/knowledge/query with a key seen before: the key confirmed and the route ceiling counted in one statement, no lookup', async () => {
    const { key } = await remembered();
    const call = await counted(() => query(key));
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    // was: the key lookup, then the route's rate count, then the search's statements
    expect(call.statements.findIndex(isRateTake), call.statements.join('\n')).toBe(0);
    expect(call.statements.filter(isRateTake)).toHaveLength(1);
    expect(call.statements.filter(isLookup)).toHaveLength(0);
    expect(call.statements.filter(isRateCount)).toHaveLength(0);
    expect(named.has(call.statements[0])).toBe(true);
  });

  it('a key this process never looked up: one lookup, then its rates', async () => {
    const key = await t.key(a);
    const call = await counted(() => query(key));
    expect(call.status).toBe(200);
    expect(call.statements.slice(0, 2).map((q) => (isLookup(q) ? 'lookup' : isRateCount(q) ? 'rate' : q))).toEqual(['lookup', 'rate']);
  });

  it('a key with ratePerMinute on a route with a ceiling: both rates in one statement, from memory or after a lookup', async () => {
    const key = await t.key(a, { ratePerMinute: 100 });
    const first = await counted(() => query(key));
    expect(first.status).toBe(200);
    // a lookup, then both buckets in one statement (was one statement per bucket)
    expect(first.statements.filter(isLookup)).toHaveLength(1);
    expect(first.statements.filter(isRateTake)).toHaveLength(1);
    expect(first.statements.filter(isRateCount)).toHaveLength(0);
    const second = await counted(() => query(key));
    expect(second.status).toBe(200);
    expect(second.statements.findIndex(isRateTake)).toBe(0);
    expect(second.statements.filter(isLookup)).toHaveLength(0);
  });

  it('a route without a ceiling, for a key without ratePerMinute: the remembered key is confirmed by one lookup', async () => {
    const { key } = await remembered();
    const call = await counted(() => listAgents(key));
    expect(call.status).toBe(200);
    expect(call.statements.findIndex(isLookup)).toBe(0);
    expect(call.statements.filter(isLookup)).toHaveLength(1);
    expect(call.statements.filter(isRateTake)).toHaveLength(0);
  });
});

describe.skipIf(!onPostgres)('a REST caller made from memory is confirmed before anything counts or runs', () => {
  it('a key revoked from another connection between two requests: 401 at the next, nothing counted', async () => {
    const { key, id } = await remembered();
    expect((await query(key)).status).toBe(200);
    const before = await rateCount(`route:POST /v1/knowledge/query:ws:${a.workspaceId}`);
    await elsewhere('update api_key set revoked_at = now() where id = $1', [id]);
    const call = await counted(() => query(key));
    expect(call.status).toBe(401);
    expect(call.body).toEqual({ error: 'Invalid or revoked API key' });
    // the statement that would have counted refused the key (nothing counted), then a lookup decided the request
    expect(call.statements.findIndex(isRateTake)).toBe(0);
    expect(call.statements.filter(isLookup)).toHaveLength(1);
    expect(await rateCount(`route:POST /v1/knowledge/query:ws:${a.workspaceId}`)).toBe(before);
  });

  it('a key whose parent is revoked (its own row unchanged) is refused at the next request', async () => {
    const parent = await remembered();
    const created = await fetch(`${t.baseUrl}/developer/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${parent.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'child', ratePerMinute: 1000 }),
    });
    expect(created.status).toBe(201);
    const child = ((await created.json()) as { key: { secret: string } }).key.secret;
    expect((await listAgents(child)).status).toBe(200);
    expect((await listAgents(child)).status).toBe(200);
    await elsewhere('update api_key set revoked_at = now() where id = $1', [parent.id]);
    const call = await counted(() => listAgents(child));
    expect(call.status).toBe(401);
    expect(call.statements.findIndex(isRateTake)).toBe(0);
  });

  it('a key made read-only from another connection gets 403 read_only_key at its next write', async () => {
    const { key, id } = await remembered({ ratePerMinute: 1000 });
    await elsewhere('update api_key set readonly = true where id = $1', [id]);
    const call = await counted(() => createAgent(key));
    expect(call.status).toBe(403);
    expect(call.body.code).toBe('read_only_key');
    expect(call.statements.findIndex(isRateTake)).toBe(0);
    expect(call.statements.filter(isLookup)).toHaveLength(1);
  });

  it('a workspace suspended from another connection is refused at the next request, and served again once restored', async () => {
    const { key } = await remembered();
    await elsewhere('update workspace set suspended = true where id = $1', [a.workspaceId]);
    try {
      const call = await counted(() => query(key));
      expect(call.status).toBe(403);
      expect(call.body.code).toBe('client_suspended');
    } finally {
      await elsewhere('update workspace set suspended = false where id = $1', [a.workspaceId]);
    }
    expect((await query(key)).status).toBe(200);
  });

  it('the ceiling is exact from memory: past it, the same 429 body and retry-after, and the key rate given back', async () => {
    t.clock.set('2026-11-02T12:07:17.250Z');
    const b = await t.tenant();
    const key = await t.key(b, { ratePerMinute: 100 });
    expect((await listAgents(key)).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 8 }, () => counted(() => query(key))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.body).toEqual({ message: 'Too many requests', route: 'POST /v1/knowledge/query', limitPerMinute: 5 });
      expect(r.headers.get('retry-after')).toBe('43');
    }
    const [{ id }] = await t.app.services.orm.em.fork().getConnection().execute<{ id: string }[]>('select id from api_key where secret_hash = ?', [sha256Hex(key)]);
    // the key's own rate counted the listing and the five admitted queries only
    expect(await rateCount(`key:${id}`)).toBe(6);
  });
});
