/**
 * GraphQL: the `chat` mutation (same rules as the plain routes), the `chatStream` subscription over
 * graphql-sse in both connection modes (same events as the REST stream), and the session reads.
 */
import { createClient, type Client } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import { createAgent, persona } from '../support/agents.js';
import { eventsOf, streamChat } from '../support/sse.js';
import { startScriptedChatApp } from '../support/chat.js';
import { type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let ada: string;

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp());
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada'));
});
afterAll(async () => {
  await t.close();
  await model.close();
});

const RESULT_FIELDS = `agentId agentName agentRole content sessionId contentParsed thoughts extracted { category value }
  memoriesSaved { key value type provenance salience } tokenUsage { promptTokens completionTokens totalTokens }
  knowledgeUsed { ref sourceId } toolCalls { toolName success durationMs }
  proofId masked consultations { agentName trigger } mood { emotion valence arousal intensity } contextUsed`;

const CHAT = `mutation($agentId: ID, $input: ChatInput!) { chat(agentId: $agentId, input: $input) { ${RESULT_FIELDS} } }`;

const STREAM = `subscription($agentId: ID, $input: ChatInput!) {
  chatStream(agentId: $agentId, input: $input) {
    __typename
    ... on ChatStageEvent { type name phase ms }
    ... on ChatTokenEvent { type delta }
    ... on ChatMoodEvent { type mood { agentId name emotion } }
    ... on ChatDoneEvent { type result { ${RESULT_FIELDS} } }
    ... on ChatErrorEvent { type status error code details }
  }
}`;

describe('chat mutation', () => {
  it('runs the plain turn: same result as REST, stream-only fields null', async () => {
    model.enqueue({ content: '{"total": 7}' });
    const res = await api(t.baseUrl, a.key).graphql(CHAT, {
      agentId: ada,
      input: { message: 'Total?', responseFormat: { type: 'json', fields: { total: 'a number' } }, options: { temperature: 0 } },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.chat).toMatchObject({
      agentId: ada,
      agentName: 'Ada',
      content: '{"total": 7}',
      contentParsed: { total: 7 },
      thoughts: null,
      extracted: null,
      memoriesSaved: [],
      knowledgeUsed: [],
      toolCalls: [],
      proofId: null,
      masked: null,
      consultations: null,
      mood: null,
      contextUsed: null,
    });
    expect(model.requests.at(-1)!.temperature).toBe(0);
  });

  it('auto-picks without agentId', async () => {
    const res = await api(t.baseUrl, a.key).graphql(CHAT, { input: { message: 'Hello' } });
    expect(res.data.chat.agentId).toBe(ada);
  });

  it('rejects like REST: same message, code carrying the status', async () => {
    const empty = await api(t.baseUrl, a.key).graphql(CHAT, { agentId: ada, input: { message: '' } });
    expect(empty.errors![0]).toMatchObject({ message: 'message is required', extensions: { code: 'validation_failed', status: 400 } });
    const big = await api(t.baseUrl, a.key).graphql(CHAT, { agentId: ada, input: { message: 'x', options: { maxTokens: 4001 } } });
    expect(big.errors![0]!.message).toContain('options.maxTokens');
    const unknown = await api(t.baseUrl, a.key).graphql(CHAT, { agentId: 'agt_x', input: { message: 'x' } });
    expect(unknown.errors![0]).toMatchObject({ message: 'Agent not found: agt_x', extensions: { status: 404 } });
    const ro = await t.key(a, { readonly: true });
    const denied = await api(t.baseUrl, ro).graphql(CHAT, { agentId: ada, input: { message: 'x' } });
    expect(denied.errors![0]!.extensions).toMatchObject({ code: 'read_only_key', status: 403 });
  });
});

/** GraphQL nulls stand for fields REST leaves out. */
const withoutNulls = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));

/** A turn using reflection, JSON mode, extraction and memory: three model calls, scripted identically for each run. */
const RICH_INPUT = {
  message: 'Remember that our budget is 50k euros. What total should we plan?',
  consult: { enabled: false },
  options: { reflection: true },
  responseFormat: { type: 'json', fields: { total: 'the amount' } },
  extraction: { categories: ['budget'] },
};
const enqueueRichTurn = () =>
  model.enqueue(
    { content: 'The user states a budget.', usage: { prompt: 20, completion: 5 } },
    { chunks: ['{"total": ', '50000}'], usage: { prompt: 40, completion: 6 } },
    { content: '{"facts":[{"category":"budget","value":"50k euros"}]}', usage: { prompt: 15, completion: 9 } },
  );

describe('GraphQL and REST give the same results', () => {
  const PLAIN_FIELDS = `agentId agentName agentRole content sessionId contentParsed thoughts extracted { category value }
    memoriesSaved { key value type provenance salience } tokenUsage { promptTokens completionTokens totalTokens }
    knowledgeUsed { ref sourceId sourceName section page chunkPreview similarity chunkId collectionId dossierName }
    toolCalls { toolName success durationMs }`;

  it('the chat mutation answers what POST /v1/agents/:id/chat answers', async () => {
    const w = await t.tenant();
    const agent = await createAgent(t, w.key, persona('Vera'));
    enqueueRichTurn();
    const rest = await api(t.baseUrl, w.key).post(`/v1/agents/${agent}/chat`, RICH_INPUT);
    expect(rest.status).toBe(200);
    // Another user of the workspace: memories are per user, so the second run recalls nothing either.
    const other = await t.user(w.workspaceId);
    enqueueRichTurn();
    const gql = await api(t.baseUrl, other.key).graphql(
      `mutation($agentId: ID, $input: ChatInput!) { chat(agentId: $agentId, input: $input) { ${PLAIN_FIELDS} } }`,
      { agentId: agent, input: RICH_INPUT },
    );
    expect(gql.errors).toBeUndefined();
    expect(rest.body).toMatchObject({ thoughts: 'The user states a budget.', contentParsed: { total: 50000 }, extracted: [{ category: 'budget', value: '50k euros' }] });
    expect(rest.body.memoriesSaved).toHaveLength(1);
    expect(withoutNulls(gql.data.chat)).toEqual({ ...rest.body, sessionId: gql.data.chat.sessionId });
  });

  it('the chatStream done event carries what the REST stream’s done event carries', async () => {
    const w = await t.tenant();
    const agent = await createAgent(t, w.key, persona('Vera'));
    enqueueRichTurn();
    const rest = await streamChat(t, w.key, `/v1/agents/${agent}/chat/stream`, RICH_INPUT);
    const restDone = eventsOf(rest.events, 'done')[0]!.data;
    const other = await t.user(w.workspaceId);
    enqueueRichTurn();
    const c = createClient({ url: `${t.baseUrl}/graphql/stream`, retryAttempts: 0, headers: () => ({ authorization: `Bearer ${other.key}` }) });
    const results: Result[] = [];
    for await (const r of c.iterate({ query: STREAM, variables: { agentId: agent, input: RICH_INPUT } })) results.push(r as Result);
    c.dispose();
    const events = results.map((r) => r.data!.chatStream);
    const kinds = (list: { type: string; name?: string; phase?: string }[]) => list.map((e) => (e.type === 'stage' ? `${e.name}:${e.phase}` : e.type));
    expect(kinds(events)).toEqual(kinds(rest.events.map((e) => (e.type === 'stage' ? { type: 'stage', ...e.data } : { type: e.type }))));
    const gqlDone = events.at(-1).result;
    const { sessionId: _s, proofId: _p, ...restRest } = restDone;
    const { sessionId: _gs, proofId: gqlProof, consultations, mood, ...gqlRest } = withoutNulls(gqlDone);
    expect(gqlProof).toMatch(/^prf_/);
    expect(consultations).toEqual([]);
    expect(mood).toEqual({ emotion: restDone.mood.emotion, valence: restDone.mood.valence, arousal: restDone.mood.arousal, intensity: restDone.mood.intensity });
    const { consultations: _c, mood: _m, ...restPlain } = restRest;
    expect(gqlRest).toEqual(restPlain);
  });
});

describe('sessions for the console', () => {
  it('lists the caller’s sessions with their messages and agent; another user sees none of them', async () => {
    const u = await t.user(a.workspaceId);
    const other = await createAgent(t, u.key, persona('Otto'));
    const s1 = await api(t.baseUrl, u.key).post(`/v1/agents/${ada}/chat`, { message: 'First session', consult: { enabled: false } });
    await api(t.baseUrl, u.key).post(`/v1/agents/${ada}/chat`, { message: 'Follow-up', sessionId: s1.body.sessionId, consult: { enabled: false } });
    t.clock.advance(1000);
    const s2 = await api(t.baseUrl, u.key).post(`/v1/agents/${other}/chat`, { message: 'Second session', consult: { enabled: false } });

    const res = await api(t.baseUrl, u.key).graphql(`{
      chatSessions { id title messageCount agentId agent { name } messages { position role content agentName model tokenUsage { totalTokens } mood { emotion } } }
    }`);
    expect(res.errors).toBeUndefined();
    const sessions = res.data.chatSessions;
    expect(sessions.map((s: { id: string }) => s.id)).toEqual([s2.body.sessionId, s1.body.sessionId]);
    expect(sessions[0]).toMatchObject({ title: 'Second session', messageCount: 2, agentId: other, agent: { name: 'Otto' } });
    expect(sessions[1].messages.map((m: { position: number; role: string }) => `${m.position}:${m.role}`)).toEqual([
      '1:user',
      '2:assistant',
      '3:user',
      '4:assistant',
    ]);
    expect(sessions[1].messages[1]).toMatchObject({ agentName: 'Ada', model: 'scripted-model', tokenUsage: { totalTokens: expect.any(Number) }, mood: { emotion: expect.any(String) } });
    expect(sessions[1].messages[0]).toMatchObject({ content: 'First session', tokenUsage: null, mood: null });

    const mine = await api(t.baseUrl, a.key).graphql(`{ chatSessions { id } }`);
    expect(mine.data.chatSessions.map((s: { id: string }) => s.id)).not.toContain(s1.body.sessionId);
    const stolen = await api(t.baseUrl, a.key).graphql(`query($id: ID!) { chatSession(id: $id) { id } }`, { id: s1.body.sessionId });
    expect(stolen.errors![0]).toMatchObject({ message: `Session not found: ${s1.body.sessionId}`, extensions: { status: 404 } });

    // A deleted agent leaves its sessions readable, with no agent.
    await api(t.baseUrl, u.key).delete(`/v1/agents/${other}`);
    const after = await api(t.baseUrl, u.key).graphql(`query($id: ID!) { chatSession(id: $id) { agentId agent { name } messageCount } }`, {
      id: s2.body.sessionId,
    });
    expect(after.data.chatSession).toEqual({ agentId: other, agent: null, messageCount: 2 });

    const limited = await api(t.baseUrl, u.key).graphql(`{ chatSessions(limit: 1) { id } }`);
    expect(limited.data.chatSessions).toHaveLength(1);
    const bad = await api(t.baseUrl, u.key).graphql(`{ chatSessions(limit: 0) { id } }`);
    expect(bad.errors![0]!.extensions).toMatchObject({ status: 400 });
  });
});

async function streamLedgerRows(): Promise<number> {
  const [row] = await t.app.services.orm.em
    .fork()
    .execute<{ n: unknown }[]>(`select count(*) as n from usage_ledger where workspace_id = ? and route = 'graphql chatStream'`, [a.workspaceId]);
  return Number(row?.n);
}

type Result = { data?: { chatStream: any }; errors?: { message: string; extensions?: Record<string, unknown> }[] };

async function collect(client: Client, variables: Record<string, unknown>): Promise<Result[]> {
  const out: Result[] = [];
  for await (const result of client.iterate({ query: STREAM, variables })) out.push(result as Result);
  return out;
}

for (const singleConnection of [false, true]) {
  describe(`chatStream subscription over graphql-sse (${singleConnection ? 'single connection' : 'distinct connections'} mode)`, () => {
    const client = () =>
      createClient({
        url: `${t.baseUrl}/graphql/stream`,
        singleConnection,
        retryAttempts: 0,
        // A function: the client writes its stream token into a headers object it is given.
        headers: () => ({ authorization: `Bearer ${a.key}` }),
      });

    it('emits the same events as the REST stream, typed by the union', async () => {
      model.enqueue({ chunks: ['Hello ', 'from ', 'Ada.'] });
      const c = client();
      const results = await collect(c, { agentId: ada, input: { message: 'Say hello' } });
      c.dispose();
      const events = results.map((r) => r.data!.chatStream);
      const names = events.map((e) => (e.__typename === 'ChatStageEvent' ? `${e.name}:${e.phase}` : e.__typename));
      expect(names).toEqual([
        'prepare:start',
        'prepare:end',
        'retrieval:start',
        'retrieval:end',
        'generation:start',
        'ChatTokenEvent',
        'ChatTokenEvent',
        'ChatTokenEvent',
        'generation:end',
        'save:start',
        'save:end',
        'ChatMoodEvent',
        'ChatDoneEvent',
      ]);
      expect(events.filter((e) => e.type === 'token').map((e) => e.delta)).toEqual(['Hello ', 'from ', 'Ada.']);
      const done = events.at(-1).result;
      expect(done).toMatchObject({ agentId: ada, content: 'Hello from Ada.', masked: false, consultations: [], proofId: expect.stringMatching(/^prf_/) });
      expect(done.mood).toMatchObject({ emotion: expect.any(String) });
    });

    it('fixed agent: an unknown agent arrives as a ChatErrorEvent; a bad input is a GraphQL error before the stream', async () => {
      const c = client();
      const unknown = await collect(c, { agentId: 'agt_nope', input: { message: 'hi' } });
      expect(unknown.map((r) => r.data!.chatStream.__typename)).toEqual(['ChatStageEvent', 'ChatErrorEvent']);
      expect(unknown.at(-1)!.data!.chatStream).toEqual({
        __typename: 'ChatErrorEvent',
        type: 'error',
        status: 404,
        error: 'Agent not found: agt_nope',
        code: null,
        details: null,
      });
      // The same client (and, in single connection mode, the same stream) carries the next operation.
      const empty = await collect(c, { agentId: ada, input: { message: '' } });
      c.dispose();
      expect(empty).toHaveLength(1);
      expect(empty[0]!.errors![0]).toMatchObject({ message: 'message is required', extensions: { code: 'validation_failed', status: 400 } });
      expect(empty[0]!.data).toBeNull();
    });

    it('fixed agent: past the key\'s rate a bad input is a 429 GraphQL error before the stream (its rates are counted with its admission)', async () => {
      const key = await t.key(a, { ratePerMinute: 1 });
      const limited = createClient({ url: `${t.baseUrl}/graphql/stream`, singleConnection, retryAttempts: 0, headers: () => ({ authorization: `Bearer ${key}` }) });
      const first = await collect(limited, { agentId: ada, input: { message: '' } });
      const second = await collect(limited, { agentId: ada, input: { message: '' } });
      limited.dispose();
      expect(first[0]!.errors![0]).toMatchObject({ extensions: { status: 400 } });
      expect(second).toHaveLength(1);
      expect(second[0]!.errors![0]).toMatchObject({ extensions: { status: 429 } });
      t.clock.advance(60_000);
    });

    it('auto-pick: no agent in the workspace is a GraphQL error before the stream, like the REST JSON 404', async () => {
      const empty = await t.tenant();
      const c = createClient({ url: `${t.baseUrl}/graphql/stream`, singleConnection, retryAttempts: 0, headers: () => ({ authorization: `Bearer ${empty.key}` }) });
      const results = await collect(c, { input: { message: 'hi' } });
      c.dispose();
      expect(results).toHaveLength(1);
      expect(results[0]!.errors![0]).toMatchObject({ message: 'No agents available in this workspace', extensions: { status: 404 } });
    });

    it('a subscriber that leaves (Stop) aborts the turn: the question and what had streamed are kept, marked stopped; what ran is metered', async () => {
      const before = await api(t.baseUrl, a.key).graphql(`{ chatSessions(limit: 100) { id } }`);
      const rowsBefore = await streamLedgerRows();
      model.enqueue({ chunks: ['Never ', 'finished '], hang: true });
      const c = client();
      const iterator = c.iterate({ query: STREAM, variables: { agentId: ada, input: { message: 'Hang please' } } });
      for (;;) {
        const { value } = await iterator.next();
        if ((value as Result).data!.chatStream.type === 'token') break;
      }
      await iterator.return!();
      c.dispose();
      // The hanging model call was aborted: the turn ended server-side and metered its interrupted call.
      await expect.poll(() => streamLedgerRows(), { timeout: 15_000, interval: 20 }).not.toBe(rowsBefore);
      expect(await streamLedgerRows()).toBe(rowsBefore + 1);
      // The exchange is kept in a new session, as far as it had streamed.
      const sessions = async () => (await api(t.baseUrl, a.key).graphql(`{ chatSessions(limit: 100) { id title messageCount } }`)).data.chatSessions;
      await expect.poll(async () => (await sessions()).length, { timeout: 15_000, interval: 20 }).toBe(before.data.chatSessions.length + 1);
      const stopped = (await sessions()).find((s: { title: string }) => s.title === 'Hang please');
      expect(stopped).toMatchObject({ messageCount: 2 });
      const read = await api(t.baseUrl, a.key).graphql(
        `query($id: ID!) { chatSession(id: $id) { messages { position role content stopped agentName proofId mood { emotion } stages { name } } } }`,
        { id: stopped.id },
      );
      const [question, answer] = read.data.chatSession.messages;
      expect(question).toMatchObject({ position: 1, role: 'user', content: 'Hang please', stopped: false });
      expect(answer).toMatchObject({ position: 2, role: 'assistant', stopped: true, agentName: 'Ada', proofId: null, mood: null });
      expect(answer.content.startsWith('Never')).toBe(true);
      expect('Never finished '.startsWith(answer.content)).toBe(true);
      expect(answer.stages.map((s: { name: string }) => s.name)).toContain('prepare');

      // The session continues; the model reads the stopped exchange as it was shown.
      model.enqueue({ content: 'Here it is in full.' });
      const requestsBefore = model.requests.length;
      const c2 = client();
      const next = await collect(c2, { agentId: ada, input: { message: 'Go on', sessionId: stopped.id } });
      c2.dispose();
      expect(next.at(-1)!.data!.chatStream.type).toBe('done');
      const sent = JSON.stringify(model.requests.slice(requestsBefore));
      expect(sent).toContain('Hang please');
      expect(sent).toContain(answer.content.trim());
      expect((await sessions()).find((s: { id: string }) => s.id === stopped.id).messageCount).toBe(4);
    });
  });
}
