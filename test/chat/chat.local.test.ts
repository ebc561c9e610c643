/**
 * The service with no model configured: every turn runs on the built-in local model (no network).
 * Auto-pick decides lexically; the route-level request ceiling applies per key and route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { createAgent, makePoste, persona } from '../support/agents.js';
import { eventsOf, streamChat } from '../support/sse.js';
import { ledgerRows } from '../support/metering.js';

let t: TestApp;
let a: TestTenant;
let ada: string;
let lea: string;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada', { role: 'Financial analyst', mission: 'Answer questions about budgets, revenue and invoices' }));
  lea = await createAgent(t, a.key, persona('Léa', { role: 'Contract lawyer', mission: 'Review contracts, clauses and legal obligations' }));
});
afterAll(() => t.close());

const chat = (agentId: string, body: unknown, key = a.key) => api(t.baseUrl, key).post(`/v1/agents/${agentId}/chat`, body);
const auto = (body: unknown, key = a.key) => api(t.baseUrl, key).post('/v1/agents/chat', body);

describe('the local model', () => {
  it('answers extractively from the context of the turn, light class, metered', async () => {
    const before = await ledgerRows(t, a.workspaceId);
    const res = await chat(ada, {
      message: 'What is the invoice total?',
      context: [{ category: 'invoice', data: 'The invoice total is 1 250 EUR. It is due on 30 November.' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.content).toContain('The invoice total is 1 250 EUR.');
    expect(res.body.tokenUsage.totalTokens).toBe(res.body.tokenUsage.promptTokens + res.body.tokenUsage.completionTokens);
    expect(res.body.tokenUsage.promptTokens).toBeGreaterThan(0);
    const after = await ledgerRows(t, a.workspaceId);
    expect(after.rows - before.rows).toBe(1);
  });

  it('says plainly what it is when it has nothing to go on', async () => {
    const res = await chat(ada, { message: 'What is the capital of Mongolia?' });
    expect(res.body.content).toContain('built-in local model');
    expect(res.body.content).toContain('capital of Mongolia');
  });

  it('recalls memories from an earlier session', async () => {
    const saved = await chat(ada, { message: 'Remember that our invoices are paid by bank transfer.' });
    expect(saved.body.memoriesSaved).toHaveLength(1);
    const later = await chat(ada, { message: 'How are our invoices paid?' });
    expect(later.body.sessionId).not.toBe(saved.body.sessionId);
    expect(later.body.content).toContain('our invoices are paid by bank transfer');
  });

  it('JSON mode fills the requested fields; extraction reads the message', async () => {
    const res = await chat(ada, {
      message: 'Our budget is 40k euros. The deadline is the end of March.',
      responseFormat: { type: 'json', fields: { deadline: 'the deadline' } },
      extraction: { categories: ['budget', 'deadline'], persist: false },
      context: [{ category: 'project', data: 'The deadline is the end of March.' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.contentParsed).toEqual({ deadline: 'The deadline is the end of March.' });
    expect(res.body.extracted).toEqual([
      { category: 'budget', value: 'Our budget is 40k euros.' },
      { category: 'deadline', value: 'The deadline is the end of March.' },
    ]);
  });

  it('never masks (nothing leaves the service) and reports the mood', async () => {
    const res = await streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'Thanks a lot, this is great! My mail is x@example.com' });
    const [done] = eventsOf(res.events, 'done');
    expect(done!.data.masked).toBe(false);
    expect(done!.data.mood).toMatchObject({ agentId: ada, name: 'Ada' });
    expect(done!.data.mood.valence).toBeGreaterThan(0);
    expect(eventsOf(res.events, 'token').map((e) => e.data.delta).join('')).toBe(done!.data.content);
  });

  it('consults a colleague the message names (lexical rule) and reports it', async () => {
    const res = await streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'Ask Léa about the contract clauses' });
    const [done] = eventsOf(res.events, 'done');
    expect(done!.data.consultations).toEqual([
      { agentId: lea, agentName: 'Léa', question: 'Ask Léa about the contract clauses', answer: expect.any(String), trigger: 'named', durationMs: expect.any(Number) },
    ]);
    expect(res.events.some((e) => e.type === 'stage' && e.data.name === 'consultation')).toBe(true);
  });
});

describe('auto-pick on the local model', () => {
  it('picks by role and mission, names the pick, and re-evaluates every message of a session', async () => {
    const first = await auto({ message: 'Can you review this contract clause about legal obligations?' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ agentId: lea, agentName: 'Léa', agentRole: 'Contract lawyer' });
    const second = await auto({ message: 'And what about the revenue in the budget?', sessionId: first.body.sessionId });
    expect(second.body).toMatchObject({ agentId: ada, agentName: 'Ada', sessionId: first.body.sessionId });
    const session = await api(t.baseUrl, a.key).graphql(`query($id: ID!) { chatSession(id: $id) { agentId messages { role agentName } } }`, {
      id: first.body.sessionId,
    });
    expect(session.data.chatSession).toEqual({
      agentId: ada,
      messages: [
        { role: 'user', agentName: null },
        { role: 'assistant', agentName: 'Léa' },
        { role: 'user', agentName: null },
        { role: 'assistant', agentName: 'Ada' },
      ],
    });
  });

  it('a name in the message wins; undecided goes to the oldest agent', async () => {
    expect((await auto({ message: 'Léa, please look at the budget revenue' })).body.agentId).toBe(lea);
    expect((await auto({ message: 'Bonjour' })).body.agentId).toBe(ada);
  });

  it('considers postes but never sends a chat to one: undecided or picked, a conversational agent answers; postes only is 404', async () => {
    const w = await t.tenant();
    const desk = await createAgent(t, w.key, persona('Desk', { role: 'Compliance desk', mission: 'Run dossier compliance checklists' }));
    await makePoste(t, w.key, desk);
    const helper = await createAgent(t, w.key, persona('Hugo', { role: 'Assistant', mission: 'General help' }));
    const undecided = await auto({ message: 'Bonjour' }, w.key);
    expect(undecided.status).toBe(200);
    expect(undecided.body.agentId).toBe(helper);
    // The lexical rule picks the poste (its role and mission match); the chat goes to a conversational agent.
    const picked = await auto({ message: 'Run the compliance checklists on this dossier' }, w.key);
    expect(picked.status).toBe(200);
    expect(picked.body.agentId).toBe(helper);
    const only = await t.tenant();
    await makePoste(t, only.key, await createAgent(t, only.key, persona('Desk')));
    const none = await auto({ message: 'Run the compliance checklists' }, only.key);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: 'No agents available in this workspace' });
  });

  it('streams with the planned agent: the done event names it', async () => {
    const res = await streamChat(t, a.key, '/v1/agents/chat/stream', { message: 'Please review the contract' });
    expect(res.status).toBe(200);
    expect(eventsOf(res.events, 'done')[0]!.data).toMatchObject({ agentId: lea, agentName: 'Léa' });
  });
});

describe('route-level ceiling', () => {
  it('30 requests per minute per key on each chat route, then 429; the other chat routes are counted apart', async () => {
    const key = await t.key(a);
    for (let i = 0; i < 30; i++) expect((await chat(ada, { message: 'Hello' }, key)).status).toBe(200);
    const over = await chat(ada, { message: 'Hello' }, key);
    expect(over.status).toBe(429);
    expect((await auto({ message: 'Hello' }, key)).status).toBe(200);
    // A new minute opens a new window.
    t.clock.advance(60_000);
    expect((await chat(ada, { message: 'Hello' }, key)).status).toBe(200);
  });

  it('past the ceiling, 429 comes before any other refusal of a plain turn (its rates are counted with its admission)', async () => {
    const key = await t.key(a);
    for (let i = 0; i < 30; i++) expect((await chat(ada, { message: 'Hello' }, key)).status).toBe(200);
    const refusals = [
      await chat(ada, { message: '' }, key),
      await chat(ada, { message: 'Hello', unknownField: 1 }, key),
      await chat('agt_unknown', { message: 'Hello' }, key),
      await chat(ada, { message: 'Hello', sessionId: 'ses_unknown' }, key),
    ];
    const over = await chat(ada, { message: 'Hello' }, key);
    expect(over.status).toBe(429);
    expect(refusals.map((r) => [r.status, r.body])).toEqual(Array(4).fill([429, over.body]));
    // the auto-pick route is counted apart: its own refusal
    expect((await auto({ message: '' }, key)).status).toBe(400);
    const mutation = `mutation($agentId: ID, $input: ChatInput!) { chat(agentId: $agentId, input: $input) { content } }`;
    const graphqlOver = await api(t.baseUrl, key).graphql(mutation, { agentId: ada, input: { message: '' } });
    expect(graphqlOver.errors?.[0]?.extensions).toMatchObject({ status: 429 });
    // Under the ceiling the same refusals keep their own status.
    t.clock.advance(60_000);
    expect((await chat('agt_unknown', { message: 'Hello' }, key)).status).toBe(404);
    expect((await chat(ada, { message: '' }, key)).status).toBe(400);
  });

  it('past the ceiling, a streamed turn for a fixed agent is a JSON 429 before its stream, whatever else it would refuse (its rates are counted with its admission, before the stream opens)', async () => {
    const key = await t.key(a);
    const stream = (agentId: string, body: unknown) => streamChat(t, key, `/v1/agents/${agentId}/chat/stream`, body);
    for (let i = 0; i < 30; i++) expect((await stream(ada, { message: 'Hello' })).status).toBe(200);
    const before = await ledgerRows(t, a.workspaceId);
    const refusals = [
      await stream(ada, { message: '' }),
      await stream('agt_unknown', { message: 'Hello' }),
      await stream(ada, { message: 'Hello', sessionId: 'ses_unknown' }),
      await stream(ada, { message: 'Hello' }),
    ];
    expect(refusals.map((r) => [r.status, r.events.length])).toEqual(Array(4).fill([429, 0]));
    expect(await ledgerRows(t, a.workspaceId)).toEqual(before);
    // Under the ceiling: a 400 before the stream, an unknown agent in it.
    t.clock.advance(60_000);
    expect((await stream(ada, { message: '' })).status).toBe(400);
    const unknown = await stream('agt_unknown', { message: 'Hello' });
    expect([unknown.status, eventsOf(unknown.events, 'error')[0]?.data]).toMatchObject([200, { status: 404 }]);
  });
});
