/**
 * Streamed chat routes (Server-Sent Events) over the real OpenAI-compatible provider and the
 * scripted model server: event order, pre-stream rules, in-band errors, keep-alive, disconnect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import { createAgent, makePoste, persona } from '../support/agents.js';
import { eventsOf, parseSse, streamChat } from '../support/sse.js';
import { exhaustQuestions, ledgerRows } from '../support/metering.js';
import { startScriptedChatApp } from '../support/chat.js';
import { type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let ada: string;

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp({ SVC_STREAM_PING_MS: '40' }));
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada'));
});
afterAll(async () => {
  await t.close();
  await model.close();
});

const fixed = (id: string) => `/v1/agents/${id}/chat/stream`;
const AUTO = '/v1/agents/chat/stream';

describe('a streamed turn', () => {
  it('opens a text/event-stream and reports stages, tokens, mood and done in order', async () => {
    model.enqueue({ chunks: ['Revenue ', 'grew ', '12%.'], usage: { prompt: 50, completion: 6 } });
    const res = await streamChat(t, a.key, fixed(ada), { message: 'How did revenue evolve?' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');

    const kinds = res.events.map((e) => (e.type === 'stage' ? `${e.data.name}:${e.data.phase}` : e.type));
    expect(kinds).toEqual([
      'prepare:start',
      'prepare:end',
      'retrieval:start',
      'retrieval:end',
      'generation:start',
      'token',
      'token',
      'token',
      'generation:end',
      'save:start',
      'save:end',
      'mood',
      'done',
    ]);
    for (const stage of eventsOf(res.events, 'stage')) {
      if (stage.data.phase === 'end') expect(Number.isInteger(stage.data.ms)).toBe(true);
    }
    const tokens = eventsOf(res.events, 'token').map((e) => e.data.delta);
    expect(tokens).toEqual(['Revenue ', 'grew ', '12%.']);
    const [mood] = eventsOf(res.events, 'mood');
    expect(mood!.data).toMatchObject({ agentId: ada, name: 'Ada', emotion: expect.any(String) });
    for (const k of ['valence', 'arousal', 'intensity'] as const) expect(typeof mood!.data[k]).toBe('number');

    const [done] = eventsOf(res.events, 'done');
    expect(done!.data).toMatchObject({
      agentId: ada,
      agentName: 'Ada',
      agentRole: 'Financial analyst',
      content: 'Revenue grew 12%.',
      sessionId: expect.stringMatching(/^ses_/),
      memoriesSaved: [],
      tokenUsage: { promptTokens: 50, completionTokens: 6, totalTokens: 56 },
      knowledgeUsed: [],
      toolCalls: [],
      consultations: [],
      mood: mood!.data,
      masked: false,
      contextUsed: { blocks: [], historyMessages: 0, memoriesRecalled: 0, passages: 0 },
      proofId: expect.stringMatching(/^prf_/),
    });
    // The proof certificate exists in the workspace's chain.
    const [row] = await t.app.services.orm.em
      .fork()
      .execute<{ n: unknown }[]>('select count(*) as n from proof_certificate where id = ? and workspace_id = ?', [done!.data.proofId, a.workspaceId]);
    expect(Number(row?.n)).toBe(1);
  });

  it('reports context used, masking and the exchange saved in the session', async () => {
    model.enqueue({ content: 'Written to [EMAIL_1].' });
    const res = await streamChat(t, a.key, fixed(ada), {
      message: 'Mail me at ann@example.com',
      context: [
        { category: 'crm', data: 'Pro plan' },
        { category: 'alert', label: 'Incident', data: 'Down', priority: 'high' },
      ],
    });
    const [done] = eventsOf(res.events, 'done');
    expect(done!.data.content).toBe('Written to ann@example.com.');
    expect(eventsOf(res.events, 'token').map((e) => e.data.delta).join('')).toBe('Written to ann@example.com.');
    expect(done!.data.masked).toBe(true);
    expect(done!.data.contextUsed.blocks).toEqual([
      { category: 'alert', label: 'Incident', priority: 'high' },
      { category: 'crm', label: null, priority: 'medium' },
    ]);
    const session = await api(t.baseUrl, a.key).graphql(`query($id: ID!) { chatSession(id: $id) { messages { role content } } }`, {
      id: done!.data.sessionId,
    });
    expect(session.data.chatSession.messages).toEqual([
      { role: 'user', content: 'Mail me at ann@example.com' },
      { role: 'assistant', content: 'Written to ann@example.com.' },
    ]);

    // What made the answer is kept with it: its certificate, citations, tokens and the stages of its turn.
    const made = await api(t.baseUrl, a.key).graphql(
      `query($id: ID!) { chatSession(id: $id) { messages { role proofId knowledgeUsed { ref sourceName } tokenUsage { totalTokens } stages { name ms } } } }`,
      { id: done!.data.sessionId },
    );
    const [user, answer] = made.data.chatSession.messages;
    expect(user).toEqual({ role: 'user', proofId: null, knowledgeUsed: null, tokenUsage: null, stages: null });
    expect(answer.proofId).toBe(done!.data.proofId);
    expect(answer.proofId).toMatch(/^prf_/);
    expect(answer.knowledgeUsed).toEqual(done!.data.knowledgeUsed.map((k: { ref: number; sourceName: string }) => ({ ref: k.ref, sourceName: k.sourceName })));
    expect(answer.tokenUsage).toEqual({ totalTokens: done!.data.tokenUsage.totalTokens });
    const ended = eventsOf(res.events, 'stage').filter((e) => e.data.phase === 'end').map((e) => e.data.name);
    expect(answer.stages.map((st: { name: string }) => st.name)).toEqual(ended.slice(0, answer.stages.length));
    expect(answer.stages.map((st: { name: string }) => st.name)).toContain('save');
    for (const st of answer.stages) expect(Number.isInteger(st.ms) && st.ms >= 0).toBe(true);
  });

  it('sends a `: ping` comment at the configured interval while the model is slow', async () => {
    // The model answers once the client has seen two pings (the server's ping timer is real: 40 ms here).
    let answer!: () => void;
    model.enqueue({ content: 'Slow answer', until: new Promise<void>((r) => (answer = r)) });
    const body = await fetch(t.baseUrl + fixed(ada), {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Take your time' }),
    });
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of body.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.split('\n').filter((line) => line === ': ping').length >= 2) answer(); // complete lines only: the chunk may end mid-frame
    }
    const res = parseSse(text);
    expect(res.comments.filter((c) => c === ': ping').length).toBeGreaterThanOrEqual(2);
    expect(eventsOf(res.events, 'done')).toHaveLength(1);
  });
});

describe('pre-stream rules', () => {
  it('an empty message or a malformed body is a 400 before the stream, on both stream routes', async () => {
    for (const path of [fixed(ada), AUTO]) {
      const empty = await streamChat(t, a.key, path, { message: '' });
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ error: 'message is required' });
      const malformed = await streamChat(t, a.key, path, '{"message":');
      expect(malformed.status).toBe(400);
      const bad = await streamChat(t, a.key, path, { message: 'hi', options: { maxTokens: 5000 } });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('options.maxTokens');
    }
  });

  it('fixed agent: unknown agent and unknown session arrive as error events', async () => {
    const unknownAgent = await streamChat(t, a.key, fixed('agt_nope'), { message: 'hi' });
    expect(unknownAgent.status).toBe(200);
    expect(unknownAgent.events.at(-1)).toEqual({ type: 'error', data: { status: 404, error: 'Agent not found: agt_nope' } });
    const unknownSession = await streamChat(t, a.key, fixed(ada), { message: 'hi', sessionId: 'ses_nope' });
    expect(unknownSession.status).toBe(200);
    expect(unknownSession.events.at(-1)).toEqual({ type: 'error', data: { status: 404, error: 'Session not found: ses_nope' } });
    expect(eventsOf(unknownSession.events, 'done')).toHaveLength(0);
  });

  it('fixed agent: a poste arrives as an error event 500 Agent chat failed, before any model runs', async () => {
    const desk = await createAgent(t, a.key, persona('Desk'));
    await makePoste(t, a.key, desk);
    const before = model.requests.length;
    const res = await streamChat(t, a.key, fixed(desk), { message: 'hi' });
    expect(res.status).toBe(200);
    expect(res.events.at(-1)).toEqual({ type: 'error', data: { status: 500, error: 'Agent chat failed' } });
    expect(eventsOf(res.events, 'token')).toHaveLength(0);
    expect(model.requests.length).toBe(before);
    await api(t.baseUrl, a.key).delete(`/v1/agents/${desk}`);
  });

  it('fixed agent: an exhausted allowance arrives as an error event; nothing consumed', async () => {
    const trial = await t.tenant({ plan: 'trial' });
    const agent = await createAgent(t, trial.key, persona('Tia'));
    await exhaustQuestions(t, trial.workspaceId, 30);
    const before = model.requests.length;
    const res = await streamChat(t, trial.key, fixed(agent), { message: 'hi' });
    expect(res.status).toBe(200);
    expect(res.events.at(-1)).toEqual({
      type: 'error',
      data: { status: 402, error: 'Insufficient tokens', code: 'QUESTION_LIMIT', required: 1, available: 0 },
    });
    expect(model.requests.length).toBe(before);
    expect((await ledgerRows(t, trial.workspaceId)).rows).toBe(0);
  });

  it('a body the proof certificate cannot hash is a JSON 400 before the stream, and no model runs', async () => {
    const agent = await createAgent(t, a.key, persona('Hashless'));
    const before = model.requests.length;
    const res = await streamChat(t, a.key, fixed(agent), '{"message":"hi","context":[{"category":"figures","data":{"n":1e400}}]}');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/canonical JSON/);
    expect(model.requests.length).toBe(before);
  });

  it('a spent key budget is a key check: JSON 402 API_KEY_BUDGET_EXCEEDED before the stream opens', async () => {
    const agent = await createAgent(t, a.key, persona('Budget'));
    const key = await t.key(a, { monthlyQuestionLimit: 1 });
    const first = await streamChat(t, key, fixed(agent), { message: 'one' });
    expect(first.events.at(-1)?.type).toBe('done');
    for (const route of [fixed(agent), AUTO]) {
      const res = await streamChat(t, key, route, { message: 'two' });
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({ code: 'API_KEY_BUDGET_EXCEEDED', error: expect.any(String) });
    }
  });

  it('auto-pick: no agent in the workspace is a JSON 404 before the stream', async () => {
    const empty = await t.tenant();
    const res = await streamChat(t, empty.key, AUTO, { message: 'hi' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: 'No agents available in this workspace' });
    const plain = await api(t.baseUrl, empty.key).post('/v1/agents/chat', { message: 'hi' });
    expect(plain.status).toBe(404);
    expect(plain.body).toEqual({ error: 'No agents available in this workspace' });
  });

  it('auto-pick: a planning failure is a JSON 500 before the stream; the cause is not leaked', async () => {
    const w = await t.tenant();
    await createAgent(t, w.key, persona('One'));
    await createAgent(t, w.key, persona('Two'));
    model.enqueue({ status: 400 });
    const res = await streamChat(t, w.key, AUTO, { message: 'Who should answer?' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Agent planning failed' });
  });

  it('auto-pick: the planner runs before the stream and its stage is reported first; the done event names the pick', async () => {
    const w = await t.tenant();
    await createAgent(t, w.key, persona('Olga'));
    const lex = await createAgent(t, w.key, persona('Lex', { role: 'Lawyer', mission: 'Contracts' }));
    model.enqueue({ content: JSON.stringify({ agentId: lex }) }, { content: 'Clause 4 is void.' });
    const res = await streamChat(t, w.key, AUTO, { message: 'Is clause 4 valid?' });
    expect(res.status).toBe(200);
    expect(res.events.slice(0, 2)).toEqual([
      { type: 'stage', data: { name: 'planning', phase: 'start' } },
      { type: 'stage', data: { name: 'planning', phase: 'end', ms: expect.any(Number) } },
    ]);
    const [done] = eventsOf(res.events, 'done');
    expect(done!.data).toMatchObject({ agentId: lex, agentName: 'Lex', agentRole: 'Lawyer', content: 'Clause 4 is void.' });
  });

  it('auto-pick: an exhausted allowance arrives as an error event and no planner runs', async () => {
    const trial = await t.tenant({ plan: 'trial' });
    await createAgent(t, trial.key, persona('One'));
    await createAgent(t, trial.key, persona('Two'));
    await exhaustQuestions(t, trial.workspaceId, 30);
    const before = model.requests.length;
    const res = await streamChat(t, trial.key, AUTO, { message: 'hi' });
    expect(res.status).toBe(200);
    expect(res.events).toEqual([{ type: 'error', data: expect.objectContaining({ status: 402, code: 'QUESTION_LIMIT' }) }]);
    expect(model.requests.length).toBe(before);
  });

  it('read-only keys are refused before the stream (auth stage)', async () => {
    const ro = await t.key(a, { readonly: true });
    const res = await streamChat(t, ro, fixed(ada), { message: 'hi' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('read_only_key');
  });
});

describe('failures after the stream opened', () => {
  it('a model failure is an error event with the generic message; nothing saved', async () => {
    model.enqueue({ status: 400 });
    const res = await streamChat(t, a.key, fixed(ada), { message: 'This fails' });
    expect(res.status).toBe(200);
    expect(res.events.at(-1)).toEqual({ type: 'error', data: { status: 500, error: 'Agent chat failed' } });
    expect(JSON.stringify(res.events)).not.toContain('Scripted');
  });
});

describe('client disconnect', () => {
  it('aborts the model call, keeps the question and what had streamed (stopped), and meters what ran', async () => {
    const w = await t.tenant();
    const agent = await createAgent(t, w.key, persona('Dora'));
    const first = await streamChat(t, w.key, fixed(agent), { message: 'Opening question' });
    const sessionId = eventsOf(first.events, 'done')[0]!.data.sessionId;
    const ledgerBefore = await ledgerRows(t, w.workspaceId);

    model.enqueue({ chunks: ['Partial ', 'answer '], hang: true });
    const controller = new AbortController();
    const res = await fetch(t.baseUrl + fixed(agent), {
      method: 'POST',
      headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Second question', sessionId }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('Partial')) text += new TextDecoder().decode((await reader.read()).value);
    expect(parseSse(text).events.some((e) => e.type === 'token')).toBe(true);
    controller.abort();

    // The aborted turn ends on the server: it meters the interrupted call (prompt sent, text received).
    await expect.poll(async () => (await ledgerRows(t, w.workspaceId)).rows, { timeout: 15_000, interval: 20 }).toBeGreaterThan(ledgerBefore.rows);
    const after = await ledgerRows(t, w.workspaceId);
    expect(after.rows - ledgerBefore.rows).toBe(1);
    expect(after.totalTokens).toBeGreaterThan(ledgerBefore.totalTokens);

    // The stopped exchange is kept in the session, its answer as far as it had streamed.
    const read = async () =>
      (
        await api(t.baseUrl, w.key).graphql(`query($id: ID!) { chatSession(id: $id) { messageCount messages { role content stopped } } }`, {
          id: sessionId,
        })
      ).data.chatSession;
    await expect.poll(async () => (await read()).messageCount, { timeout: 15_000, interval: 20 }).toBe(4);
    const { messages } = await read();
    expect(messages[0].stopped).toBe(false);
    expect(messages[1].stopped).toBe(false);
    expect(messages[2]).toEqual({ role: 'user', content: 'Second question', stopped: false });
    expect(messages[3]).toMatchObject({ role: 'assistant', stopped: true });
    expect(messages[3].content.startsWith('Partial')).toBe(true);
    expect('Partial answer '.startsWith(messages[3].content)).toBe(true);
  });
});
