/**
 * How many SQL statements a gateway call sends (issue 28: "fewer sequential steps"), counted as
 * test/chat/statements.test.ts counts a chat turn's: every statement the ORM driver's pg clients send to the
 * test's database, by wrapping pg.Client#query in this process (the app runs in it). The counts asserted are
 * today's, so a change that adds a round trip fails here and the change that merges them lowers them. The
 * metering statements read the ledger's running totals, not the ledger (test/usage/ledger-totals.test.ts).
 * On the embedded database (no PostgreSQL) there is no pg client to count: the file is skipped.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTenant } from '../support/app.js';
import { sha256Hex } from '../../src/lib/secrets.js';
import { postgresAvailable } from '../support/database.js';
import { openaiClient, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';

const onPostgres = await postgresAvailable();

let h: GatewayHarness;
let a: TestTenant;
let database = '';
const seen: string[] = [];
/** The statements of `seen` sent as named prepared statements (parsed and planned once per connection). */
const named = new Set<string>();
// the ORM's driver has its own copy of pg (node_modules/@mikro-orm/postgresql/node_modules/pg)
const here = createRequire(import.meta.url);
const driverPg = createRequire(here.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;
const original = driverPg.Client.prototype.query;

beforeAll(async () => {
  if (!onPostgres) return;
  ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
  database = new URL(h.t.db.url!).pathname.slice(1);
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
afterAll(async () => {
  driverPg.Client.prototype.query = original;
  if (onPostgres) await h.close();
});

/** The statements of one call: from its start to the certificate's append, which may follow the response. */
async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  seen.length = 0;
  const result = await fn();
  const deadline = Date.now() + 20_000;
  while (!seen.some((q) => /proof_certificate/.test(q) && /insert/i.test(q)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 300));
  return { result, statements: [...seen] };
}

/** The statements of a call refused before any model runs: all of them are sent before its answer. */
async function refusedCounted(fn: () => Promise<Response>): Promise<{ res: Response; body: Record<string, unknown>; statements: string[] }> {
  seen.length = 0;
  const res = await fn();
  const body = (await res.json()) as Record<string, unknown>;
  return { res, body, statements: [...seen] };
}

/** Changes the database from a connection of its own (as another process would), not through the app. */
async function elsewhere(text: string, params: unknown[]): Promise<void> {
  const client = new driverPg.Client({ connectionString: h.t.db.url! });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

const chat = (key: string, body: unknown = { model: 'svc-auto', messages: [{ role: 'user', content: 'Answer?' }] }) =>
  fetch(`${h.t.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const isLookup = (q: string) => /ancestor_revoked/.test(q);
const isRateAdmit = (q: string) => /svc_rate_admit/.test(q);

describe.skipIf(!onPostgres)('statements per gateway call (plain, one connection)', () => {
  it('a plain call sends the counted statements', async () => {
    await openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'warm up' }] });
    h.models.enqueue({ content: 'Forty-two.', usage: { prompt: 12, completion: 3 } });
    const call = await counted(() => openaiClient(h.t, a.key).chat.completions.create({ model: 'svc-auto', messages: [{ role: 'user', content: 'Answer?' }] }));
    expect(call.result.choices[0].message.content).toBe('Forty-two.');
    // svc_rate_admit (the key confirmed unchanged and unrevoked, the gateway's route ceiling counted, the
    // admission), then the certificate's append with svc_record in the same statement; the caller was made
    // from the process's memory of the key's last lookup (was 5: key lookup, rate count, svc_admit,
    // svc_record, append; then 4 and 3 as those merged; now the key lookup is folded into the admission)
    expect(call.statements.length, call.statements.join('\n')).toBe(2);
    expect(call.statements.filter(isRateAdmit)).toHaveLength(1);
    expect(call.statements.filter(isLookup)).toHaveLength(0);
    const [write] = call.statements.filter((q) => /svc_record/.test(q));
    expect(write).toMatch(/^with chain as \(insert into proof_certificate/);
    // Both are named prepared statements, their text the same whatever the batch's size (issue 28, eighth pass).
    expect(named.has(write), write).toBe(true);
    expect(named.has(call.statements.find(isRateAdmit)!)).toBe(true);
  });

  it('an admission batch confirms each remembered key once, whatever the number of its calls (issue 28, eighth pass)', async () => {
    const client = new driverPg.Client({ connectionString: h.t.db.url! });
    await client.connect();
    try {
      const hash = sha256Hex(a.key);
      const { rows: [{ fingerprint }] } = await client.query<{ fingerprint: string }>(
        `select md5(concat_ws('|', k::text, u::text, w::text)) as fingerprint from api_key k join workspace w on w.id = k.workspace_id
           left join app_user u on u.id = k.user_id and u.workspace_id = k.workspace_id where k.secret_hash = $1`,
        [hash],
      );
      await client.query('begin');
      await client.query("set local track_functions = 'all'");
      const holds = ['hold_x1', 'hold_x2', 'hold_x3', 'hold_x4'];
      const { rows: [{ outcome }] } = await client.query<{ outcome: string[] }>(
        `select svc_rate_admit('{}'::text[], 1, '{}'::int[], $1, now(), now() - interval '1 day', now() + interval '1 day', 1000000,
                               '{1,1,1,1}'::int[], $2::text[], now() + interval '1 minute', $3::text[], $4::text[]) as outcome`,
        [a.workspaceId, holds, [hash, hash, null, hash], [fingerprint, fingerprint, null, fingerprint]],
      );
      // every call admitted (none refused as a changed key), and the key checked once for its three calls
      expect(outcome.map((o) => o !== null && Number(o) > 0)).toEqual([true, true, true, true]);
      const { rows } = await client.query<{ calls: string }>("select calls from pg_stat_xact_user_functions where funcname = 'svc_key_confirms'");
      expect(rows.map((r) => Number(r.calls))).toEqual([1]);
      // a fingerprint that no longer matches is refused for every call of the batch, the others admitted
      const { rows: [{ outcome: stale }] } = await client.query<{ outcome: (string | null)[] }>(
        `select svc_rate_admit('{}'::text[], 1, '{}'::int[], $1, now(), now() - interval '1 day', now() + interval '1 day', 1000000,
                               '{1,1,1}'::int[], $2::text[], now() + interval '1 minute', $3::text[], $4::text[]) as outcome`,
        [a.workspaceId, ['hold_y1', 'hold_y2', 'hold_y3'], [hash, null, hash], ['0'.repeat(32), null, '0'.repeat(32)]],
      );
      expect(stale.map((o) => o !== null)).toEqual([false, true, false]);
    } finally {
      await client.query('rollback').catch(() => undefined);
      await client.end();
    }
  });
});

describe.skipIf(!onPostgres)('a key made from memory is confirmed by its admission (issue 28, sixth pass)', () => {
  /** A key of tenant `a` that this process has looked up (and remembers) after one answered call. */
  async function remembered(attrs: Parameters<typeof h.t.key>[1] = {}): Promise<{ key: string; id: string }> {
    const key = await h.t.key(a, attrs);
    expect((await chat(key)).status).toBe(200);
    const [row] = await h.t.app.services.orm.em.fork().getConnection().execute<{ id: string }[]>('select id from api_key where secret_hash = ?', [sha256Hex(key)]);
    return { key, id: row.id };
  }

  it('a key revoked from another connection between two calls is refused at the next: the admission finds it, a lookup answers 401', async () => {
    const { key, id } = await remembered();
    await elsewhere('update api_key set revoked_at = now() where id = $1', [id]);
    const call = await refusedCounted(() => chat(key));
    expect(call.res.status).toBe(401);
    expect(call.body.error).toMatch(/invalid or revoked/i);
    // the caller came from memory: its admission's statement refused it (nothing counted), then the request
    // started again with a lookup
    expect(call.statements.findIndex(isRateAdmit)).toBe(0);
    expect(call.statements.filter(isLookup)).toHaveLength(1);
    expect(call.statements.filter(isRateAdmit)).toHaveLength(1);
    const counts = await h.t.app.services.orm.em.fork().getConnection().execute<{ n: number }[]>(
      'select count(*)::int as n from question_hold where workspace_id = ?',
      [a.workspaceId],
    );
    expect(counts[0].n).toBe(0);
  });

  it('a key whose parent is revoked (its own row unchanged) is refused at the next call', async () => {
    const parent = await remembered();
    const created = await fetch(`${h.t.baseUrl}/developer/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${parent.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'child' }),
    });
    expect(created.status).toBe(201);
    const child = ((await created.json()) as { key: { secret: string } }).key.secret;
    expect((await chat(child)).status).toBe(200);
    expect((await chat(child)).status).toBe(200);
    await elsewhere('update api_key set revoked_at = now() where id = $1', [parent.id]);
    const call = await refusedCounted(() => chat(child));
    expect(call.res.status).toBe(401);
    expect(call.statements.findIndex(isRateAdmit)).toBe(0);
  });

  it('a key changed from another connection (now read-only) gets the changed key\'s refusal at the next call', async () => {
    const { key, id } = await remembered();
    await elsewhere('update api_key set readonly = true where id = $1', [id]);
    const call = await refusedCounted(() => chat(key));
    expect(call.res.status).toBe(403);
    expect(call.body.code).toBe('read_only_key');
    expect(call.statements.findIndex(isRateAdmit)).toBe(0);
    expect(call.statements.filter(isLookup)).toHaveLength(1);
  });

  it('a workspace suspended from another connection is refused at the next call, and works again at once when restored', async () => {
    const { key } = await remembered();
    await elsewhere('update workspace set suspended = true where id = $1', [a.workspaceId]);
    try {
      const call = await refusedCounted(() => chat(key));
      expect(call.res.status).toBe(403);
      expect(call.body.code).toBe('client_suspended');
    } finally {
      await elsewhere('update workspace set suspended = false where id = $1', [a.workspaceId]);
    }
    expect((await chat(key)).status).toBe(200);
  });

  it('a refusal that comes before the admission (400 body, 404 agent) confirms the key with a lookup first: a revoked key gets its 401', async () => {
    const { key, id } = await remembered();
    // unchanged key: the lookup confirms it, and the refusal is the request's own
    const bad = await refusedCounted(() => chat(key, { model: 'svc-auto' }));
    expect(bad.res.status).toBe(400);
    expect(bad.statements.filter(isLookup)).toHaveLength(1);
    await elsewhere('update api_key set revoked_at = now() where id = $1', [id]);
    for (const body of [{ model: 'svc-auto' }, { model: 'agent:nobody', messages: [{ role: 'user', content: 'x' }] }]) {
      const call = await refusedCounted(() => chat(key, body));
      expect(call.res.status).toBe(401);
      expect(call.statements.filter(isRateAdmit)).toHaveLength(0);
    }
  });
});
