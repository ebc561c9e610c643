/**
 * When a gateway answer leaves (`SVC_ANSWER_COMMIT`, docs/decisions.md "When a gateway answer leaves"): by
 * default once its certificate and ledger entry are flushed to disk (the transaction commits with
 * `synchronous_commit` on), with `committed` once they are committed (`synchronous_commit` off for that
 * transaction only). What the transaction committed with is read at its commit by a deferred constraint
 * trigger this test adds to the test's database (it runs inside the committing transaction, after the
 * statement). In both modes the certificate and the ledger entry are committed before the answer leaves: a
 * server process killed with SIGKILL right after its answers loses none of them. PostgreSQL only.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';
import type { TestTenant } from '../support/app.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { startServerProcess } from '../support/server-process.js';

const onPostgres = await postgresAvailable();

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Records, at the commit of every transaction that inserts certificates, its `synchronous_commit`. */
const WATCH_COMMITS = `
  create table commit_seen (proof_id text, synchronous_commit text);
  create function commit_seen_record() returns trigger language plpgsql as $$
    begin
      insert into commit_seen values (new.id, current_setting('synchronous_commit'));
      return null;
    end $$;
  create constraint trigger commit_seen_at_commit after insert on proof_certificate
    deferrable initially deferred for each row execute function commit_seen_record();`;

const chat = (h: GatewayHarness, key: string, stream = false) =>
  fetch(`${h.t.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Answer?' }], ...(stream ? { stream: true } : {}) }),
  });

/** The `synchronous_commit` each call's certificate was committed with, and its ledger entry's presence. */
async function callsCommitted(h: GatewayHarness, key: string): Promise<{ settings: string[]; ledger: number }> {
  const ids: string[] = [];
  for (const stream of [false, true]) {
    const res = await chat(h, key, stream);
    await res.text();
    expect(res.status).toBe(200);
    ids.push(res.headers.get('x-svc-proof')!);
  }
  return withClient(h.t.db.url!, async (c) => {
    const seen = await c.query<{ synchronous_commit: string }>('select synchronous_commit from commit_seen where proof_id = any($1) order by proof_id', [ids]);
    const ledger = await c.query<{ n: number }>(`select count(*)::int as n from usage_ledger where route = 'POST /v1/chat/completions'`);
    return { settings: seen.rows.map((r) => r.synchronous_commit), ledger: ledger.rows[0].n };
  });
}

describe.runIf(onPostgres)('when a gateway answer leaves (SVC_ANSWER_COMMIT)', () => {
  describe('by default: flushed', () => {
    let h: GatewayHarness;
    let a: TestTenant;
    beforeAll(async () => {
      ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000' }));
      await withClient(h.t.db.url!, (c) => c.query(WATCH_COMMITS));
    });
    afterAll(async () => h?.close());

    it('the certificate and ledger entry commit with synchronous_commit on, before the answer', async () => {
      expect(await callsCommitted(h, a.key)).toEqual({ settings: ['on', 'on'], ledger: 2 });
    });
  });

  describe('committed', () => {
    let h: GatewayHarness;
    let a: TestTenant;
    beforeAll(async () => {
      ({ h, a } = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000', SVC_ANSWER_COMMIT: 'committed' }));
      await withClient(h.t.db.url!, (c) => c.query(WATCH_COMMITS));
    });
    afterAll(async () => h?.close());

    it('the certificate and ledger entry commit with synchronous_commit off, before the answer', async () => {
      expect(await callsCommitted(h, a.key)).toEqual({ settings: ['off', 'off'], ledger: 2 });
    });
  });

  it('any other value stops the start', () => {
    expect(() => loadConfig({ SVC_ANSWER_COMMIT: 'async' })).toThrow(/SVC_ANSWER_COMMIT/);
    expect(loadConfig({}).answerCommit).toBe('flushed');
  });

  // A server process takes long to start on a loaded machine, hence the long timeouts.
  describe('a server process killed with SIGKILL right after its answers (committed)', { timeout: 240_000 }, () => {
    let models: ScriptedModelServer;
    let db: TestDatabase;
    beforeAll(async () => {
      models = await startScriptedModelServer();
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await db?.drop();
      await models?.close();
    });

    it('keeps every certificate and ledger entry of the calls it answered', async () => {
      const proc = await startServerProcess({
        DATABASE_URL: db.url!,
        SVC_MODEL_BASE_URL: models.baseUrl,
        SVC_MODEL_API_KEY: 'scripted',
        SVC_MODEL: 'scripted-standard',
        SVC_RATE_GATEWAY: '100000',
        SVC_ANSWER_COMMIT: 'committed',
      }, { startTimeoutMs: 120_000 });
      try {
        await expect.poll(() => proc.firstKey, { timeout: 30_000 }).not.toBe('');
        const answered = await Promise.all(
          Array.from({ length: 30 }, async (_, i) => {
            const r = await fetch(`${proc.baseUrl}/v1/chat/completions`, {
              method: 'POST',
              headers: { authorization: `Bearer ${proc.firstKey}`, 'content-type': 'application/json' },
              body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: `Question ${i}` }] }),
            });
            await r.text();
            expect(r.status).toBe(200);
            return r.headers.get('x-svc-proof')!;
          }),
        );
        // Killed the moment the last answer arrived: nothing of the process runs after it.
        await proc.kill();
        await withClient(db.url!, async (c) => {
          const certs = await c.query<{ id: string; seq: number; hash: string; prev_hash: string | null }>('select id, seq, hash, prev_hash from proof_certificate order by seq');
          expect(new Set(certs.rows.map((r) => r.id))).toEqual(new Set(answered));
          certs.rows.forEach((link, i) => {
            expect(link.seq).toBe(i + 1);
            expect(link.prev_hash).toBe(i === 0 ? null : certs.rows[i - 1].hash);
          });
          const ledger = await c.query<{ n: number }>(`select count(*)::int as n from usage_ledger where route = 'POST /v1/chat/completions'`);
          expect(ledger.rows[0].n).toBe(30);
          const holds = await c.query<{ n: number }>('select count(*)::int as n from question_hold');
          expect(holds.rows[0].n).toBe(0);
        });
      } finally {
        await proc.kill();
      }
    });
  });
});
