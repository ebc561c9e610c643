/**
 * How many SQL statements a chat turn sends (issue 28: a turn's reads and writes are one statement
 * each). Every statement the app's pg clients send to the test's database is counted by wrapping
 * pg.Client#query in this process (the app runs in it); the counts asserted are today's, so a change
 * that adds a round trip to the turn fails here. Before issue 28's merge: 12 for a new session, 14 for a
 * continued one; 6 until the ledger entry went into the exchange's statement and the rate count and the key's
 * confirmation into the admission's (third pass); 3 until the admission rode in the turn's read (seventh pass).
 * On the embedded database (no PostgreSQL) there is no pg client to count: the file is skipped.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import { EntityManager } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent } from '../../src/modules/agents/index.js';
import { SessionMessage } from '../../src/modules/chat/chat.entity.js';
import { sha256Hex } from '../../src/lib/secrets.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { createAgent, persona } from '../support/agents.js';
import { postgresAvailable } from '../support/database.js';
import { eventsOf, streamChat } from '../support/sse.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';

const onPostgres = await postgresAvailable();

let t: TestApp;
let a: TestTenant;
let ada: string;
let databases: string[] = [];
const seen: string[] = [];
/** The statements sent as named prepared statements (planned once per connection). */
const named = new Set<string>();
/** Called with each statement's text once its answer has arrived (the streamed test below listens). */
let answered: (text: string) => void = () => {};
/** Consulted before each statement is sent: a statement it returns an error for fails instead of being sent. */
let refuse: (text: string) => Error | undefined = () => undefined;
/** Consulted before each statement is sent: a statement it returns a promise for is sent once that settles. */
let hold: (text: string) => Promise<void> | undefined = () => undefined;
// the ORM's driver has its own copy of pg (node_modules/@mikro-orm/postgresql/node_modules/pg)
const here = createRequire(import.meta.url);
const driverPg = createRequire(here.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;
const original = driverPg.Client.prototype.query;

// A second app whose default model is tool-capable (an OpenAI-compatible scripted server): its turns offer
// the workspace's tools, so the agent's tool links are read too.
let model: ScriptedModelServer;
let tt: TestApp;
let b: TestTenant;
let bob: string;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await startTestApp();
  model = await startScriptedModelServer();
  tt = await startTestApp({ env: { SVC_MODEL_BASE_URL: model.baseUrl, SVC_MODEL_API_KEY: 'test', SVC_MODEL: 'scripted-model' } });
  databases = [t, tt].map((x) => new URL(x.db.url!).pathname.slice(1));
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada', { role: 'Financial analyst', mission: 'Answer questions about budgets' }));
  b = await tt.tenant();
  bob = await createAgent(tt, b.key, persona('Bob', { role: 'Travel agent', mission: 'Answer questions about trips' }));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (driverPg.Client.prototype as any).query = function (this: pg.Client, ...args: unknown[]) {
    if (databases.includes(this.database ?? '')) {
      const first = args[0] as string | { text?: string };
      const text = typeof first === 'string' ? first : (first?.text ?? '?');
      seen.push(text);
      if (typeof first === 'object' && (first as { name?: string }).name) named.add(text);
      const refusal = refuse(text);
      if (refusal) return Promise.reject(refusal);
      const held = hold(text);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      if (held) return held.then(() => (original as any).apply(this, args));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const out = (original as any).apply(this, args);
      if (out && typeof out.then === 'function') (out as Promise<unknown>).then(() => answered(text), () => {});
      return out;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (original as any).apply(this, args);
  };
});
afterAll(async () => {
  driverPg.Client.prototype.query = original;
  if (onPostgres) await Promise.all([t.close(), tt.close(), model.close()]);
});

async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  seen.length = 0;
  const result = await fn();
  // everything of the turn is written before its answer is sent: wait a little for any stray statement
  await new Promise((r) => setTimeout(r, 300));
  return { result, statements: [...seen] };
}

const chat = (body: unknown) => api(t.baseUrl, a.key).post(`/v1/agents/${ada}/chat`, body);

describe.skipIf(!onPostgres)('statements per chat turn (local model, REST, plain)', () => {
  it('a first turn and a continued turn each send the counted statements', async () => {
    const first = await counted(() => chat({ message: 'What is the budget for next year?' }));
    expect(first.result.status).toBe(200);
    const sessionId = first.result.body.sessionId as string;
    const next = await counted(() => chat({ message: 'And the year after?', sessionId }));
    expect(next.result.status).toBe(200);
    // The turn's one read (agents, session, history, memories, knowledge links) carrying svc_rate_admit (the
    // rates counted with the admission, which also confirms the caller the process made from its memory of the
    // key's last lookup), then the one write (session, messages with proof and stages, memories) carrying
    // svc_record. Were 6: the key lookup and the rate count each a statement before the read, and svc_record
    // beside the write (two commits, each waiting on the other's WAL flush); 3 until the admission rode in the read.
    expect(first.statements.length, first.statements.join('\n')).toBe(2);
    expect(next.statements.length, next.statements.join('\n')).toBe(2);
    for (const turn of [first, next]) {
      const [read, ...others] = turn.statements.filter((q) => q.includes('svc_rate_admit'));
      expect(others).toEqual([]);
      expect(read).toMatch(/from agent_memory/);
    }
    expect(first.statements.filter((q) => q.includes('with recursive ancestors'))).toEqual([]);
    expect(first.statements.filter((q) => /^(begin|commit)/.test(q))).toEqual([]);
    for (const turn of [first, next]) {
      const [write, ...others] = turn.statements.filter((q) => q.includes('svc_record'));
      expect(others).toEqual([]);
      expect(write).toMatch(/insert into chat_message/);
      // the turn's read and its write are prepared once per connection, not parsed and planned on every turn
      const [read] = turn.statements.filter((q) => q.includes('json_agg'));
      expect([read, write].map((q) => named.has(q!))).toEqual([true, true]);
    }
    const [ledger] = await t.app.services.orm.em
      .fork()
      .execute<{ n: unknown }[]>(`select count(*) as n from usage_ledger where workspace_id = ? and route = 'POST /v1/agents/:id/chat'`, [a.workspaceId]);
    expect(Number(ledger!.n)).toBe(2);
  });

  it('a turn forks no EntityManager: not the request\'s nor the admission\'s, which it never uses, nor one for its read, which maps no entity (issue 28)', async () => {
    expect((await chat({ message: 'What is the budget?' })).status).toBe(200);
    const fork = vi.spyOn(EntityManager.prototype, 'fork');
    try {
      expect((await chat({ message: 'What is the budget for travel?' })).status).toBe(200);
      const streamed = await streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'And for the office?' });
      expect(eventsOf(streamed.events, 'done')).toHaveLength(1);
      // Were 3: the request's EntityManager (read by the spread of its context), the admission's and the read's;
      // then 1 (the read's) until the read returned plain values only.
      expect(fork).not.toHaveBeenCalled();
    } finally {
      fork.mockRestore();
    }
  });

  it('a turn maps none of the workspace\'s agents into an ORM entity: the roster is read as personas (issue 28)', async () => {
    const c = await t.tenant();
    const eve = await createAgent(t, c.key, persona('Eve', { role: 'Auditor', mission: 'Check the accounts' }));
    for (const name of ['Finn', 'Gus', 'Hal']) await createAgent(t, c.key, persona(name, { role: 'Clerk', mission: `Help ${name}'s clients` }));
    const map = vi.spyOn(EntityManager.prototype, 'map');
    try {
      const res = await streamChat(t, c.key, `/v1/agents/${eve}/chat/stream`, { message: 'Please ask Gus about the accounts.' });
      expect(res.status).toBe(200);
      // Was one entity per agent of the workspace (4 here): only the roster's fields are needed.
      expect(map.mock.calls.filter(([entity]) => entity === Agent)).toEqual([]);
      // The roster is still there: Gus, named in the message, was consulted.
      const [done] = eventsOf(res.events, 'done');
      expect((done!.data.consultations as { agentName: string }[]).map((x) => x.agentName)).toEqual(['Gus']);
    } finally {
      map.mockRestore();
    }
  });

  it('while an admission of the same workspace and minute is being written, a turn\'s admission waits for the next group write and its read goes alone', async () => {
    const first = await counted(() => chat({ message: 'What is the budget?' }));
    expect(first.result.status).toBe(200);
    const ledgerRows = async () =>
      Number((await t.app.services.orm.em.fork().execute<{ n: unknown }[]>('select count(*) as n from usage_ledger where workspace_id = ?', [a.workspaceId]))[0]!.n);
    const before = await ledgerRows();
    // The first turn's read, carrying its admission, is held until the second turn's read has been sent.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    hold = (text) => {
      if (holding && text.includes('svc_rate_admit') && text.includes('from agent_memory')) {
        holding = false;
        return gate;
      }
      return undefined;
    };
    seen.length = 0;
    try {
      const one = chat({ message: 'What is the budget for May?' });
      await expect.poll(() => seen.filter((q) => q.includes('svc_rate_admit')).length).toBe(1);
      const two = chat({ message: 'What is the budget for June?' });
      const reads = () => seen.filter((q) => q.includes('from agent_memory'));
      await expect.poll(() => reads().length).toBe(2);
      // the second read was sent without the admission: its admission is queued behind the first's write
      expect(reads()[1]).not.toMatch(/svc_rate_admit/);
      expect(seen.filter((q) => q.includes('svc_rate_admit'))).toHaveLength(1);
      release();
      const [r1, r2] = await Promise.all([one, two]);
      expect([r1.status, r2.status]).toEqual([200, 200]);
      // then written by the group's own statement
      const alone = seen.filter((q) => q.startsWith('select svc_rate_admit('));
      expect(alone).toHaveLength(1);
    } finally {
      hold = () => undefined;
      release();
    }
    expect(await ledgerRows()).toBe(before + 2);
  });

  it('a continued turn maps none of its history into ORM entities: the messages are read as plain values (issue 28)', async () => {
    const first = await chat({ message: 'My budget code is ZX-41.' });
    expect(first.status).toBe(200);
    const sessionId = first.body.sessionId as string;
    expect((await chat({ message: 'Noted?', sessionId })).status).toBe(200);
    const map = vi.spyOn(EntityManager.prototype, 'map');
    try {
      const next = await chat({ message: 'What was my budget code?', sessionId });
      expect(next.status).toBe(200);
      // Was one SessionMessage per message of the history (4 here).
      expect(map.mock.calls.filter(([entity]) => entity === SessionMessage)).toEqual([]);
    } finally {
      map.mockRestore();
    }
  });

  it('a turn whose write fails is still metered, once, by a statement of its own', async () => {
    const ledgerRows = async () => {
      const [row] = await t.app.services.orm.em
        .fork()
        .execute<{ n: unknown }[]>(`select count(*) as n from usage_ledger where workspace_id = ?`, [a.workspaceId]);
      return Number(row!.n);
    };
    const before = await ledgerRows();
    refuse = (text) => (text.includes('insert into chat_message') ? new Error('the write failed') : undefined);
    try {
      const failed = await counted(() => chat({ message: 'What is the budget for the office?' }));
      expect(failed.result.status).toBe(500);
      expect(failed.statements.filter((q) => q.includes('svc_record'))).toHaveLength(2);
    } finally {
      refuse = () => undefined;
    }
    expect(await ledgerRows()).toBe(before + 1);
  });
});

describe.skipIf(!onPostgres)('statements per auto-pick turn (local model, REST, plain)', () => {
  it('the workspace\'s agents are read as personas in a statement carrying the admission: 3 statements, no Agent mapped', async () => {
    const auto = (body: unknown) => api(t.baseUrl, a.key).post('/v1/agents/chat', body);
    expect((await auto({ message: 'What is the budget?' })).status).toBe(200);
    const map = vi.spyOn(EntityManager.prototype, 'map');
    try {
      const turn = await counted(() => auto({ message: 'What is the budget for next year?' }));
      expect(turn.result.status).toBe(200);
      expect(turn.result.body.agentId).toBe(ada);
      // The roster with svc_rate_admit, the turn's read (the session, history, memories), the write with svc_record.
      // Were 4: the agents listed through the ORM (each mapped into an entity), then svc_rate_admit alone.
      expect(turn.statements.length, turn.statements.join('\n')).toBe(3);
      const [roster, ...others] = turn.statements.filter((q) => q.includes('svc_rate_admit'));
      expect(others).toEqual([]);
      expect(roster).toMatch(/from agent a where/);
      expect(map.mock.calls.filter(([entity]) => entity === Agent)).toEqual([]);
    } finally {
      map.mockRestore();
    }
  });
});

describe.skipIf(!onPostgres)('a plain turn\'s caller made from memory (local model, REST)', () => {
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

  it('a key revoked from another connection between two turns is refused at the next, before its agent or body is: 401, nothing recorded', async () => {
    const key = await t.key(a);
    const turn = (agentId: string, body: unknown) => api(t.baseUrl, key).post(`/v1/agents/${agentId}/chat`, body);
    expect((await turn(ada, { message: 'What is the budget?' })).status).toBe(200);
    const [row] = await t.app.services.orm.em.fork().execute<{ id: string }[]>('select id from api_key where secret_hash = ?', [sha256Hex(key)]);
    await elsewhere('update api_key set revoked_at = now() where id = $1', [row!.id]);
    const ledger = async () =>
      Number((await t.app.services.orm.em.fork().execute<{ n: unknown }[]>('select count(*) as n from usage_ledger where workspace_id = ?', [a.workspaceId]))[0]!.n);
    const before = await ledger();
    const refused = await Promise.all([turn('agt_unknown', { message: 'Hello' }), turn(ada, { message: '' }), turn(ada, { message: 'Hello', sessionId: 'ses_x' })]);
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401]);
    expect((await turn(ada, { message: 'What is the budget?' })).status).toBe(401);
    expect(await ledger()).toBe(before);
  });

  it('a streamed turn\'s key revoked from another connection between two turns is a JSON 401 before the stream, whatever else it would refuse; nothing recorded', async () => {
    const key = await t.key(a);
    const turn = (agentId: string, body: unknown) => streamChat(t, key, `/v1/agents/${agentId}/chat/stream`, body);
    expect((await turn(ada, { message: 'What is the budget?' })).status).toBe(200);
    const [row] = await t.app.services.orm.em.fork().execute<{ id: string }[]>('select id from api_key where secret_hash = ?', [sha256Hex(key)]);
    await elsewhere('update api_key set revoked_at = now() where id = $1', [row!.id]);
    const ledger = async () =>
      Number((await t.app.services.orm.em.fork().execute<{ n: unknown }[]>('select count(*) as n from usage_ledger where workspace_id = ?', [a.workspaceId]))[0]!.n);
    const before = await ledger();
    const refused = await Promise.all([turn('agt_unknown', { message: 'Hello' }), turn(ada, { message: '' }), turn(ada, { message: 'Hello', sessionId: 'ses_x' })]);
    expect(refused.map((r) => [r.status, r.events.length])).toEqual([[401, 0], [401, 0], [401, 0]]);
    expect(await ledger()).toBe(before);
  });
});

describe.skipIf(!onPostgres)('statements per chat turn (local model, REST, streamed)', () => {
  it('an idle chain: the exchange, its ledger entry and its certificate are one statement, and the stored answer names the certificate', async () => {
    // The key's first request looks it up; from then on its caller is made from memory and confirmed by the admission.
    expect((await streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'Hello' })).status).toBe(200);
    const res = await counted(() => streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'What is the budget for the trip?' }));
    const [done] = eventsOf(res.result.events, 'done');
    const proofId = done!.data.proofId as string;
    expect(proofId).toMatch(/^prf_/);
    // The read carrying svc_rate_admit (the rates and the key's confirmation), before the stream opens; then one
    // write: the certificate's insert with the exchange and svc_record in the same statement (one commit). Five
    // before the fourth pass; three until the admission rode in the read (issue 28, seventh pass); three until the
    // exchange rode in the certificate's insert (tenth pass: the write and the insert were two statements, two commits).
    expect(res.statements, res.statements.join('\n')).toHaveLength(2);
    const [read, write] = res.statements;
    expect(read).toMatch(/svc_rate_admit[\s\S]*from agent_memory|from agent_memory[\s\S]*svc_rate_admit/);
    // the admission too is a named prepared statement (fourth pass), and so is the write
    expect([named.has(read!), named.has(write!)]).toEqual([true, true]);
    expect(write).toMatch(/^with chain as \(insert into proof_certificate/);
    expect(write).toContain('insert into chat_message');
    expect(write).toContain('svc_record');
    expect(res.statements.filter((q) => q.includes('with recursive ancestors'))).toEqual([]);
    const stored = await t.app.services.orm.em
      .fork()
      .execute<{ proof_id: string | null }[]>(`select proof_id from chat_message where session_id = ? and role = 'assistant'`, [done!.data.sessionId]);
    expect(stored).toEqual([{ proof_id: proofId }]);
    expect((await api(t.baseUrl, a.key).get(`/v1/proofs/${proofId}`)).status).toBe(200);
  });

  it('a chain busy with another append: the exchange is written alone, beside its certificate queued for the next append, not after it', async () => {
    expect((await streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'Hello again' })).status).toBe(200);
    // Another certificate of the workspace is being appended, held until the turn's exchange has been written:
    // were the exchange waiting for the chain, the turn would never end.
    let written!: () => void;
    const exchangeWritten = new Promise<void>((resolve) => (written = resolve));
    answered = (text) => {
      if (text.includes('insert into chat_message') && !text.includes('proof_certificate')) written();
    };
    let holding = true;
    hold = (text) => {
      if (!holding || !text.startsWith('insert into proof_certificate')) return undefined;
      holding = false;
      return exchangeWritten;
    };
    const chain = t.app.services.proofChain;
    const other = chain.submit(a.workspaceId, {
      id: 'prf_statements_busy_chain',
      route: 'test',
      modelAddress: 'test',
      model: 'test',
      conversationId: null,
      requestHash: 'a'.repeat(64),
      answerHash: 'b'.repeat(64),
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      apiKeyId: null,
      requestId: null,
    });
    try {
      const res = await counted(() => streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'What is the budget for the hotel?' }));
      await other;
      const [done] = eventsOf(res.result.events, 'done');
      const proofId = done!.data.proofId as string;
      expect(proofId).toMatch(/^prf_/);
      // The read, the exchange with svc_record, and the certificate appended by the chain's next batch.
      const writes = res.statements.filter((q) => q.includes('insert into chat_message'));
      expect(writes).toHaveLength(1);
      expect(writes[0]).not.toContain('proof_certificate');
      expect(writes[0]).toContain('svc_record');
      expect(res.statements.filter((q) => q.startsWith('insert into proof_certificate'))).toHaveLength(2);
      expect((await api(t.baseUrl, a.key).get(`/v1/proofs/${proofId}`)).status).toBe(200);
      const stored = await t.app.services.orm.em
        .fork()
        .execute<{ proof_id: string | null }[]>(`select proof_id from chat_message where session_id = ? and role = 'assistant'`, [done!.data.sessionId]);
      expect(stored).toEqual([{ proof_id: proofId }]);
    } finally {
      answered = () => {};
      hold = () => undefined;
    }
  });
});

describe.skipIf(!onPostgres)('statements per chat turn (tool-capable model, REST, plain)', () => {
  const chatBob = (body: unknown) => api(tt.baseUrl, b.key).post(`/v1/agents/${bob}/chat`, body);

  it('the tool links are read with the turn: no statement without a linked tool, one for the linked tools', async () => {
    const bare = await counted(() => chatBob({ message: 'Where should I go in May?' }));
    expect(bare.result.status).toBe(200);
    expect(bare.statements.length, bare.statements.join('\n')).toBe(2);
    expect(model.requests.at(-1)?.tools).toBeUndefined();

    const tool = await api(tt.baseUrl, b.key).post('/v1/tools', {
      name: 'get_weather',
      description: 'Current weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      method: 'GET',
      urlTemplate: 'http://127.0.0.1:9/weather/{city}',
      timeoutMs: 1000,
    });
    expect(tool.status).toBe(201);
    expect((await api(tt.baseUrl, b.key).post(`/v1/agents/${bob}/tools`, { toolId: tool.body.tool.id })).status).toBe(200);
    const linked = await counted(() => chatBob({ message: 'Where should I go in June?' }));
    expect(linked.result.status).toBe(200);
    // the linked tools themselves, by the ids the turn's read returned
    expect(linked.statements.length, linked.statements.join('\n')).toBe(3);
    expect(linked.statements.filter((q) => q.includes('agent_tool_link'))).toHaveLength(1);
    const offered = model.requests.at(-1)?.tools as { function: { name: string } }[];
    expect(offered.map((x) => x.function.name)).toEqual(['get_weather']);

    // a request naming no linked tool offers none, and reads no tool
    const none = await counted(() => chatBob({ message: 'And in July?', tools: { toolIds: ['tool_unlinked'] } }));
    expect(none.result.status).toBe(200);
    expect(none.statements.length, none.statements.join('\n')).toBe(2);
    expect(model.requests.at(-1)?.tools).toBeUndefined();
  });
});
