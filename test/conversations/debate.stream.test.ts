/**
 * A debate followed live: the REST stream (chat stream conventions: events, `: ping`, errors after the
 * stream opened as an event, a client that leaves stops the work), the per-key ceiling reached
 * mid-debate, and the GraphQL twins (queries, mutations, the subscription over graphql-sse).
 */
import { createClient, type Client } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { createAgent, persona } from '../support/agents.js';
import { startScriptedChatApp } from '../support/chat.js';
import { fixtures, ingest } from '../support/knowledge.js';
import { exhaustQuestions, ledgerRows } from '../support/metering.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import { parseSse, streamChat } from '../support/sse.js';
import type { TestApp, TestTenant } from '../support/app.js';

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let ada: string;
let bob: string;

const SYNTHESIS = JSON.stringify({ agreements: ['Trains first'], disagreements: [], recommendation: 'Book trains', confidence: 0.9 });

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp({ SVC_STREAM_PING_MS: '40' }));
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada', { role: 'Travel manager' }));
  bob = await createAgent(t, a.key, persona('Bob', { role: 'Sales lead' }));
  const source = await ingest(t, a, fixtures.markdown(), 'travel.md');
  await api(t.baseUrl, a.key).post(`/v1/knowledge/agents/${ada}/links`, { sourceId: source.id });
});
afterAll(async () => {
  await t.close();
  await model.close();
});

const kinds = (events: any[]) => events.map((e) => (e.type === 'turn_start' ? `turn_start:${e.data.agentName}` : e.type));

describe('POST /v1/conversations/stream', () => {
  it('streams each turn (start, citations, tokens, end), the synthesis, then done', async () => {
    model.enqueue(
      { chunks: ['Trains ', 'are ', 'cheaper [1].'] },
      { chunks: ['Flights ', 'save ', 'time.'] },
      { chunks: ['Weakest point: ', 'nobody priced the time.'] },
      { content: SYNTHESIS },
    );
    const res = await streamChat(t, a.key, '/v1/conversations/stream', { topic: 'Trains or flights for trips under four hours?', agentIds: [ada, bob], rounds: 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    const events = res.events as any[];
    expect(kinds(events)).toEqual([
      'start',
      'turn_start:Ada', 'citations', 'token', 'token', 'token', 'turn_end',
      'turn_start:Bob', 'token', 'token', 'token', 'turn_end',
      "turn_start:Devil's Advocate", 'token', 'token', 'turn_end',
      'synthesis', 'done',
    ]);
    const [start] = events;
    expect(start.data).toMatchObject({ topic: 'Trains or flights for trips under four hours?', firstRound: 1, lastRound: 1 });
    expect(start.data.participants.map((p: any) => [p.agentId === ada || p.agentId === bob ? p.name : 'DA', p.isDevilsAdvocate])).toEqual([
      ['Ada', false], ['Bob', false], ['DA', true],
    ]);
    const citations = events.find((e) => e.type === 'citations');
    expect(citations.data.agentId).toBe(ada);
    expect(citations.data.items[0]).toMatchObject({ ref: 1, sourceName: 'travel.md' });
    const ends = events.filter((e) => e.type === 'turn_end').map((e) => e.data);
    expect(ends.map((m) => m.content)).toEqual(['Trains are cheaper [1].', 'Flights save time.', 'Weakest point: nobody priced the time.']);
    const tokensOfFirst = events.filter((e) => e.type === 'token' && e.data.messageId === ends[0].id).map((e) => e.data.delta);
    expect(tokensOfFirst.join('')).toBe(ends[0].content);
    const done = events.at(-1).data;
    expect(done).toMatchObject({ id: start.data.conversationId, status: 'synthesized', rounds: 1 });
    expect(events.at(-2).data).toEqual(done.synthesis);
    expect(done.synthesis).toMatchObject({ verdict: 'consensus', recommendation: 'Book trains', proofId: expect.stringMatching(/^prf_/) });
    const read = await api(t.baseUrl, a.key).get(`/v1/conversations/${done.id}`);
    expect(read.body.conversation).toEqual(done);
  });

  it('sends `: ping` while a speaker is slow', async () => {
    let answer!: () => void;
    model.enqueue({ content: 'Slow.', until: new Promise<void>((r) => (answer = r)) }, { content: 'B.' }, { content: 'C.' }, { content: SYNTHESIS });
    const body = await fetch(`${t.baseUrl}/v1/conversations/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ topic: 'Take your time', agentIds: [ada, bob], rounds: 1 }),
    });
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of body.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.split('\n').filter((line) => line === ': ping').length >= 2) answer();
    }
    const res = parseSse(text);
    expect(res.comments.filter((c) => c === ': ping').length).toBeGreaterThanOrEqual(2);
    expect((res.events as any[]).at(-1).type).toBe('done');
  });

  it('refusals before the stream are JSON: 400 naming the field, 403 read_only_key', async () => {
    const bad = await streamChat(t, a.key, '/v1/conversations/stream', { topic: 'x', agentIds: [ada, bob], rounds: 9 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/rounds/);
    const ro = await t.key(a, { scopes: ['agents', 'readonly'] });
    const refused = await streamChat(t, ro, '/v1/conversations/stream', { topic: 'x', agentIds: [ada, bob] });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('read_only_key');
  });

  it("a key's monthly ceiling reached mid-debate: an error event after the current turn, what was said is kept and metered", async () => {
    const k = await t.tenant();
    const x = await createAgent(t, k.key, persona('Xena'));
    const y = await createAgent(t, k.key, persona('Yves'));
    const limited = await t.key(k, { monthlyQuestionLimit: 5 });
    // 8 100 tokens a turn on a standard model (3x): 4 questions after the first turn, 7 after the second.
    model.enqueue(...['X one.', 'Y one.'].map((content) => ({ content, usage: { prompt: 8000, completion: 100 } })));
    const before = model.requests.length;
    const res = await streamChat(t, limited, '/v1/conversations/stream', { topic: 'Budget', agentIds: [x, y], rounds: 2 });
    expect(res.status).toBe(200);
    const events = res.events as any[];
    expect(kinds(events)).toEqual(['start', 'turn_start:Xena', 'token', 'token', 'turn_end', 'turn_start:Yves', 'token', 'token', 'turn_end', 'error']);
    expect(events.at(-1).data).toMatchObject({ status: 402, code: 'API_KEY_BUDGET_EXCEEDED', conversationId: events[0].data.conversationId });
    expect(model.requests.length - before).toBe(2);
    const conv = (await api(t.baseUrl, k.key).get(`/v1/conversations/${events[0].data.conversationId}`)).body.conversation;
    expect(conv).toMatchObject({ status: 'interrupted', rounds: 1, synthesis: null, proofId: null });
    expect(conv.messages.map((m: any) => [m.round, m.agentId, m.content])).toEqual([[1, x, 'X one.'], [1, y, 'Y one.']]);
    expect(await ledgerRows(t, k.workspaceId)).toEqual({ rows: 1, totalTokens: 16_200, questions: 7 });
    // Spent: the next debate through that key is refused before it starts, nothing consumed.
    const again = await streamChat(t, limited, '/v1/conversations/stream', { topic: 'Budget', agentIds: [x, y] });
    expect(again.status).toBe(402);
    expect(again.body.code).toBe('API_KEY_BUDGET_EXCEEDED');
    expect(await ledgerRows(t, k.workspaceId)).toEqual({ rows: 1, totalTokens: 16_200, questions: 7 });
  });

  it("the workspace's allowance running out mid-debate stops it the same way: 402 QUESTION_LIMIT after the current turn, what was said kept and metered", async () => {
    const k = await t.tenant({ plan: 'pro', seats: 1 });
    const x = await createAgent(t, k.key, persona('Xena'));
    const y = await createAgent(t, k.key, persona('Yves'));
    // 5 of the workspace's 400 questions left; the key has no ceiling.
    await exhaustQuestions(t, k.workspaceId, 395);
    // 8 100 tokens a turn on a standard model (3x): 4 questions after the first turn (5 with the next one:
    // covered), 7 after the second (8 needed: refused).
    model.enqueue(...['X one.', 'Y one.'].map((content) => ({ content, usage: { prompt: 8000, completion: 100 } })));
    const before = model.requests.length;
    const res = await streamChat(t, k.key, '/v1/conversations/stream', { topic: 'Budget', agentIds: [x, y], rounds: 2 });
    expect(res.status).toBe(200);
    const events = res.events as any[];
    expect(kinds(events)).toEqual(['start', 'turn_start:Xena', 'token', 'token', 'turn_end', 'turn_start:Yves', 'token', 'token', 'turn_end', 'error']);
    expect(events.at(-1).data).toMatchObject({ status: 402, code: 'QUESTION_LIMIT', conversationId: events[0].data.conversationId });
    expect(model.requests.length - before).toBe(2);
    const conv = (await api(t.baseUrl, k.key).get(`/v1/conversations/${events[0].data.conversationId}`)).body.conversation;
    expect(conv).toMatchObject({ status: 'interrupted', rounds: 1, synthesis: null, proofId: null });
    expect(conv.messages.map((m: any) => [m.round, m.agentId, m.content])).toEqual([[1, x, 'X one.'], [1, y, 'Y one.']]);
    // What ran is recorded whole (past the allowance, as any answer that cost more than its hold).
    expect(await ledgerRows(t, k.workspaceId)).toEqual({ rows: 1, totalTokens: 16_200, questions: 7 });
    // Every hold of the debate (the admission's and the extensions') was given back with its record.
    expect(await holdsOf(k.workspaceId)).toBe(0);
    // Spent: the next debate is refused before it starts, nothing consumed.
    const again = await streamChat(t, k.key, '/v1/conversations/stream', { topic: 'Budget', agentIds: [x, y] });
    expect(again.status).toBe(402);
    expect(again.body.code).toBe('QUESTION_LIMIT');
    expect(await ledgerRows(t, k.workspaceId)).toEqual({ rows: 1, totalTokens: 16_200, questions: 7 });
    expect(await holdsOf(k.workspaceId)).toBe(0);
  });

  it('a client that leaves stops the debate: no further speaker, what was said kept, what ran metered', async () => {
    const k = await t.tenant();
    const x = await createAgent(t, k.key, persona('Xena'));
    const y = await createAgent(t, k.key, persona('Yves'));
    model.enqueue({ content: 'First turn.', usage: { prompt: 100, completion: 10 } }, { chunks: ['Never ', 'finished '], hang: true });
    const before = model.requests.length;
    const controller = new AbortController();
    const res = await fetch(`${t.baseUrl}/v1/conversations/stream`, {
      method: 'POST',
      signal: controller.signal,
      headers: { authorization: `Bearer ${k.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ topic: 'Leave early', agentIds: [x, y], rounds: 2 }),
    });
    let text = '';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        if (text.includes('"delta":"Never "')) controller.abort();
      }
    } catch {
      // the abort ends the read
    }
    const id = (parseSse(text.slice(0, text.indexOf('\n\n') + 2)).events[0] as any).data.conversationId;
    await expect.poll(async () => (await api(t.baseUrl, k.key).get(`/v1/conversations/${id}`)).body.conversation.status).toBe('interrupted');
    const conv = (await api(t.baseUrl, k.key).get(`/v1/conversations/${id}`)).body.conversation;
    expect(conv.messages.map((m: any) => m.content)).toEqual(['First turn.']);
    await expect.poll(() => ledgerRows(t, k.workspaceId)).toMatchObject({ rows: 1 });
    expect((await ledgerRows(t, k.workspaceId)).totalTokens).toBeGreaterThan(110);
    expect(model.requests.length - before).toBe(2);
  });
});

// ---- GraphQL ----

const CONVERSATION_FIELDS = `id topic status rounds proofId userId createdAt updatedAt
  participants { agentId name role isDevilsAdvocate }
  messages { id kind round agentId agentName isDevilsAdvocate content createdAt
    knowledgeUsed { ref sourceId sourceName section page chunkPreview similarity chunkId collectionId dossierName }
    tokenUsage { promptTokens completionTokens totalTokens } }
  synthesis { messageId round content agreements disagreements { point heldBy } recommendation confidence verdict proofId }`;

const STREAM = `subscription($input: StartConversationInput!) {
  conversationStream(input: $input) {
    __typename
    ... on DebateStartEvent { type conversationId firstRound lastRound participants { name isDevilsAdvocate } }
    ... on DebateTurnStartEvent { type agentName round isDevilsAdvocate }
    ... on DebateTokenEvent { type delta }
    ... on DebateCitationsEvent { type items { ref sourceName } }
    ... on DebateTurnEndEvent { type message { content round } }
    ... on DebateSynthesisEvent { type synthesis { verdict recommendation } }
    ... on DebateDoneEvent { type conversation { id status } }
    ... on DebateErrorEvent { type status error code }
  }
}`;

type Result = { data?: { conversationStream: any } | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };

async function collect(client: Client, variables: Record<string, unknown>): Promise<Result[]> {
  const out: Result[] = [];
  for await (const result of client.iterate({ query: STREAM, variables })) out.push(result as Result);
  return out;
}

describe('GraphQL', () => {
  it('startConversation answers the same conversation as REST reads it; conversations and conversation list and read it', async () => {
    model.enqueue({ content: 'A.' }, { content: 'B.' }, { content: 'C.' }, { content: SYNTHESIS });
    const c = api(t.baseUrl, a.key);
    const res = await c.graphql(`mutation($input: StartConversationInput!) { startConversation(input: $input) { ${CONVERSATION_FIELDS} } }`, {
      input: { topic: 'Trains?', agentIds: [ada, bob], rounds: 1 },
    });
    expect(res.errors).toBeUndefined();
    const conv = res.data.startConversation;
    const rest = (await c.get(`/v1/conversations/${conv.id}`)).body.conversation;
    expect(conv).toEqual(rest);
    const read = await c.graphql(`query($id: ID!) { conversation(id: $id) { ${CONVERSATION_FIELDS} } conversations(limit: 1) { id } }`, { id: conv.id });
    expect(read.data.conversation).toEqual(rest);
    expect(read.data.conversations).toEqual([{ id: conv.id }]);

    model.enqueue({ content: 'A2.' }, { content: 'B2.' }, { content: 'C2.' }, { content: SYNTHESIS });
    const more = await c.graphql(`mutation($id: ID!, $input: ContinueConversationInput!) { continueConversation(id: $id, input: $input) { rounds messages { kind round content } } }`, {
      id: conv.id,
      input: { message: 'And for night trains?' },
    });
    expect(more.data.continueConversation.rounds).toBe(2);
    expect(more.data.continueConversation.messages.filter((m: any) => m.round === 2).map((m: any) => m.kind)).toEqual(['question', 'turn', 'turn', 'turn', 'synthesis']);

    const deleted = await c.graphql(`mutation($id: ID!) { deleteConversation(id: $id) }`, { id: conv.id });
    expect(deleted.data.deleteConversation).toBe(true);
    const gone = await c.graphql(`query($id: ID!) { conversation(id: $id) { id } }`, { id: conv.id });
    expect(gone.errors![0]).toMatchObject({ extensions: { code: 'conversation_not_found', status: 404 } });
  });

  it('the same refusals as REST: the field named, read-only keys read but do not start', async () => {
    const bad = await api(t.baseUrl, a.key).graphql(`mutation { startConversation(input: { topic: "x", rounds: 0 }) { id } }`);
    expect(bad.errors![0]).toMatchObject({ extensions: { code: 'validation_failed', status: 400 } });
    expect(bad.errors![0]!.message).toMatch(/rounds/);
    const ro = await t.key(a, { scopes: ['agents', 'readonly'] });
    const refused = await api(t.baseUrl, ro).graphql(`mutation { startConversation(input: { topic: "x" }) { id } }`);
    expect(refused.errors![0]).toMatchObject({ extensions: { code: 'read_only_key' } });
    const listed = await api(t.baseUrl, ro).graphql(`{ conversations { id } }`);
    expect(listed.errors).toBeUndefined();
  });

  it('a subscriber that leaves stops the debate: the conversation is interrupted with what was said', async () => {
    const k = await t.tenant();
    const x = await createAgent(t, k.key, persona('Xena'));
    const y = await createAgent(t, k.key, persona('Yves'));
    model.enqueue({ content: 'First turn.' }, { chunks: ['Never ', 'finished '], hang: true });
    const before = model.requests.length;
    const client = createClient({ url: `${t.baseUrl}/graphql/stream`, retryAttempts: 0, headers: () => ({ authorization: `Bearer ${k.key}` }) });
    const iterator = client.iterate({ query: STREAM, variables: { input: { topic: 'Leave early', agentIds: [x, y], rounds: 2 } } });
    let id = '';
    for (;;) {
      const { value } = await iterator.next();
      const event = (value as Result).data!.conversationStream;
      if (event.type === 'start') id = event.conversationId;
      if (event.type === 'token' && event.delta === 'Never ') break;
    }
    await iterator.return!();
    client.dispose();
    await expect.poll(async () => (await api(t.baseUrl, k.key).get(`/v1/conversations/${id}`)).body.conversation.status).toBe('interrupted');
    const conv = (await api(t.baseUrl, k.key).get(`/v1/conversations/${id}`)).body.conversation;
    expect(conv.messages.map((m: any) => m.content)).toEqual(['First turn.']);
    await expect.poll(() => ledgerRows(t, k.workspaceId)).toMatchObject({ rows: 1 });
    expect(model.requests.length - before).toBe(2);
  });

  for (const singleConnection of [false, true]) {
    it(`conversationStream over graphql-sse (${singleConnection ? 'single connection' : 'distinct connections'}): the REST stream's events`, async () => {
      model.enqueue({ chunks: ['Trains ', 'win [1].'] }, { chunks: ['Flights.'] }, { chunks: ['Weakest point: cost.'] }, { content: SYNTHESIS });
      const client = createClient({ url: `${t.baseUrl}/graphql/stream`, singleConnection, retryAttempts: 0, headers: () => ({ authorization: `Bearer ${a.key}` }) });
      const results = await collect(client, { input: { topic: 'Trains or flights?', agentIds: [ada, bob], rounds: 1 } });
      const refused = await collect(client, { input: { topic: 'x', agentIds: [ada, bob], rounds: 7 } });
      client.dispose();
      const events = results.map((r) => r.data!.conversationStream);
      expect(events.map((e) => (e.type === 'turn_start' ? `turn_start:${e.agentName}` : e.type))).toEqual([
        'start',
        'turn_start:Ada', 'citations', 'token', 'token', 'turn_end',
        'turn_start:Bob', 'token', 'turn_end',
        "turn_start:Devil's Advocate", 'token', 'turn_end',
        'synthesis', 'done',
      ]);
      expect(events.filter((e) => e.type === 'turn_end').map((e) => e.message.content)).toEqual(['Trains win [1].', 'Flights.', 'Weakest point: cost.']);
      expect(events.at(-1).conversation).toEqual({ id: events[0].conversationId, status: 'synthesized' });
      expect(refused).toHaveLength(1);
      expect(refused[0]!.errors![0]).toMatchObject({ extensions: { code: 'validation_failed', status: 400 } });
    });
  }
});

/** Live question holds of a workspace. */
async function holdsOf(workspaceId: string): Promise<number> {
  const [row] = await t.app.services.orm.em.fork().execute<{ n: unknown }[]>('select count(*) as n from question_hold where workspace_id = ?', [workspaceId]);
  return Number(row?.n ?? 0);
}
