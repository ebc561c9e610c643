/**
 * When a chat turn's answer leaves (`SVC_ANSWER_COMMIT`, docs/decisions.md "When a gateway answer leaves"): by default once
 * its exchange and ledger entry are flushed to disk (`synchronous_commit` on), with `committed` once they are
 * committed (`synchronous_commit` off for that transaction only), as the gateway's answers. What the transaction
 * committed with is read at its commit by a deferred constraint trigger this test adds to the test's database. In
 * both modes the exchange and the ledger entry are committed before the answer leaves: a server process killed with
 * SIGKILL right after its answers loses none of them. PostgreSQL only.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { createAgent, persona } from '../support/agents.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { startServerProcess } from '../support/server-process.js';
import { streamChat } from '../support/sse.js';

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

/** Records, at the commit of every transaction that inserts chat messages, its `synchronous_commit`. */
const WATCH_COMMITS = `
  create table commit_seen (message_id text, synchronous_commit text);
  create function commit_seen_record() returns trigger language plpgsql as $$
    begin
      insert into commit_seen values (new.id, current_setting('synchronous_commit'));
      return null;
    end $$;
  create constraint trigger commit_seen_at_commit after insert on chat_message
    deferrable initially deferred for each row execute function commit_seen_record();`;

/** A plain and a streamed turn; the `synchronous_commit` their messages were committed with, and their ledger entries. */
async function turnsCommitted(t: TestApp, a: TestTenant, agentId: string): Promise<{ settings: string[]; ledger: number }> {
  const plain = await api(t.baseUrl, a.key).post(`/v1/agents/${agentId}/chat`, { message: 'What is the budget?' });
  expect(plain.status).toBe(200);
  const streamed = await streamChat(t, a.key, `/v1/agents/${agentId}/chat/stream`, { message: 'And for travel?' });
  expect(streamed.status).toBe(200);
  return withClient(t.db.url!, async (c) => {
    const seen = await c.query<{ synchronous_commit: string }>('select synchronous_commit from commit_seen');
    const ledger = await c.query<{ n: number }>(`select count(*)::int as n from usage_ledger where workspace_id = $1`, [a.workspaceId]);
    return { settings: seen.rows.map((r) => r.synchronous_commit), ledger: ledger.rows[0]!.n };
  });
}

describe.runIf(onPostgres)('when a chat answer leaves (SVC_ANSWER_COMMIT)', () => {
  for (const [mode, setting] of [
    ['flushed', 'on'],
    ['committed', 'off'],
  ] as const) {
    describe(`${mode}`, () => {
      let t: TestApp;
      let a: TestTenant;
      let agentId: string;
      beforeAll(async () => {
        t = await startTestApp({ env: mode === 'committed' ? { SVC_ANSWER_COMMIT: 'committed' } : {} });
        a = await t.tenant();
        agentId = await createAgent(t, a.key, persona('Ada', { role: 'Financial analyst', mission: 'Answer questions about budgets' }));
        await withClient(t.db.url!, (c) => c.query(WATCH_COMMITS));
      });
      afterAll(async () => t?.close());

      it(`the exchange and its ledger entry commit with synchronous_commit ${setting}, before the answer`, async () => {
        // Two messages per turn, plain and streamed.
        expect(await turnsCommitted(t, a, agentId)).toEqual({ settings: [setting, setting, setting, setting], ledger: 2 });
      });
    });
  }

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

    it('keeps every exchange and ledger entry of the turns it answered', async () => {
      const proc = await startServerProcess(
        {
          DATABASE_URL: db.url!,
          SVC_MODEL_BASE_URL: models.baseUrl,
          SVC_MODEL_API_KEY: 'scripted',
          SVC_MODEL: 'scripted-standard',
          SVC_RATE_AGENT_CHAT: '100000',
          SVC_ANSWER_COMMIT: 'committed',
        },
        { startTimeoutMs: 120_000 },
      );
      try {
        await expect.poll(() => proc.firstKey, { timeout: 30_000 }).not.toBe('');
        const created = await api(proc.baseUrl, proc.firstKey).post('/v1/agents', persona('Ada', { role: 'Analyst', mission: 'Answer quickly' }));
        expect(created.status).toBe(201);
        const agentId = created.body.agent.id as string;
        const answered = await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const r = await api(proc.baseUrl, proc.firstKey).post(`/v1/agents/${agentId}/chat`, { message: `Question ${i}` });
            expect(r.status).toBe(200);
            return r.body.sessionId as string;
          }),
        );
        // Killed the moment the last answer arrived: nothing of the process runs after it.
        await proc.kill();
        await withClient(db.url!, async (c) => {
          const sessions = await c.query<{ id: string; messages: number }>(
            'select s.id, (select count(*)::int from chat_message m where m.session_id = s.id) as messages from chat_session s',
          );
          expect(new Set(sessions.rows.map((r) => r.id))).toEqual(new Set(answered));
          expect(sessions.rows.every((r) => r.messages === 2)).toBe(true);
          const ledger = await c.query<{ n: number }>(`select count(*)::int as n from usage_ledger where route = 'POST /v1/agents/:id/chat'`);
          expect(ledger.rows[0]!.n).toBe(20);
          const holds = await c.query<{ n: number }>('select count(*)::int as n from question_hold');
          expect(holds.rows[0]!.n).toBe(0);
        });
      } finally {
        await proc.kill();
      }
    });
  });
});
