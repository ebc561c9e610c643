/**
 * Debates over REST with the scripted model server (the real OpenAI-compatible provider runs): who
 * speaks in which order, what each speaker saw (the prompts the model received), the devil's
 * advocate's creation and listing, the synthesis and its certificate, the event for the initiator
 * only, metering, continuing, reading, deleting, and the refusals.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { createAgent, persona } from '../support/agents.js';
import { startScriptedChatApp, sentMessages, systemOf } from '../support/chat.js';
import { fixtures, ingest } from '../support/knowledge.js';
import { exhaustQuestions, ledgerRows } from '../support/metering.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import { storedDeliveries } from '../support/webhooks.js';
import type { TestApp, TestTenant } from '../support/app.js';
import { postgresAvailable } from '../support/database.js';

const hasPostgres = await postgresAvailable();
let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let ada: string;
let bob: string;

const SYNTHESIS = JSON.stringify({
  agreements: ['Hotels need a cap'],
  disagreements: [{ point: 'The cap is too low for capitals', heldBy: ["Devil's Advocate"] }],
  recommendation: 'Keep the cap and review it yearly',
  confidence: 0.7,
});

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp());
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada', { role: 'Travel manager', mission: 'Keep travel costs under control' }));
  bob = await createAgent(t, a.key, persona('Bob', { role: 'Sales lead', mission: 'Keep the sales team on the road' }));
  const source = await ingest(t, a, fixtures.markdown(), 'travel.md');
  const link = await api(t.baseUrl, a.key).post(`/v1/knowledge/agents/${ada}/links`, { sourceId: source.id });
  expect(link.status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await model.close();
});

/** Queues one answer per turn (its text names the speaker and the round) and the synthesis. */
function script(turns: [string, number][], synthesis = SYNTHESIS) {
  model.enqueue(...turns.map(([who, round]) => ({ content: `${who} speaking in round ${round}.`, usage: { prompt: 3000, completion: 500 } })));
  model.enqueue({ content: synthesis, usage: { prompt: 3000, completion: 500 } });
}

describe('a debate', () => {
  let body: any;
  let requests: Record<string, unknown>[];

  beforeAll(async () => {
    const agentsBefore = await api(t.baseUrl, a.key).get('/v1/agents');
    expect(agentsBefore.body.agents.some((x: any) => x.isDevilsAdvocate)).toBe(false);
    await storedEndpoints();
    script([['Ada', 1], ['Bob', 1], ['Devil', 1], ['Ada', 2], ['Bob', 2], ['Devil', 2]]);
    const first = model.requests.length;
    const res = await api(t.baseUrl, a.key).post('/v1/conversations', { topic: 'Should the hotel cap of 150 EUR per night stay?', agentIds: [ada, bob], rounds: 2 });
    expect(res.status).toBe(201);
    body = res.body.conversation;
    requests = model.requests.slice(first);
  });

  let endpointA: string;
  let endpointB: string;
  async function storedEndpoints() {
    const b = await t.user(a.workspaceId);
    const mk = async (key: string) =>
      (await api(t.baseUrl, key).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['debate.synthesized'] })).body.webhook.id as string;
    endpointA = await mk(a.key);
    endpointB = await mk(b.key);
  }

  it("seats the named debaters and creates the workspace's devil's advocate, which then appears in the agent list", async () => {
    expect(body.participants).toHaveLength(3);
    expect(body.participants.slice(0, 2)).toEqual([
      { agentId: ada, name: 'Ada', role: 'Travel manager', isDevilsAdvocate: false },
      { agentId: bob, name: 'Bob', role: 'Sales lead', isDevilsAdvocate: false },
    ]);
    const devil = body.participants[2];
    expect(devil).toMatchObject({ name: "Devil's Advocate", isDevilsAdvocate: true });
    const agents = await api(t.baseUrl, a.key).get('/v1/agents');
    const listed = agents.body.agents.filter((x: any) => x.isDevilsAdvocate);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: devil.agentId, name: "Devil's Advocate", userId: a.userId });
  });

  it('each round: every debater speaks in turn, the devil\'s advocate last, rounds numbered from 1', () => {
    const turns = body.messages.filter((m: any) => m.kind === 'turn');
    const devil = body.participants[2].agentId;
    expect(turns.map((m: any) => [m.round, m.agentId])).toEqual([
      [1, ada], [1, bob], [1, devil], [2, ada], [2, bob], [2, devil],
    ]);
    expect(turns.map((m: any) => m.content)).toEqual([
      'Ada speaking in round 1.', 'Bob speaking in round 1.', 'Devil speaking in round 1.',
      'Ada speaking in round 2.', 'Bob speaking in round 2.', 'Devil speaking in round 2.',
    ]);
    expect(body.rounds).toBe(2);
    expect(body.status).toBe('synthesized');
  });

  it('each speaker saw its persona, the roster, the topic, what was said before it and its own knowledge with [n]', () => {
    expect(requests).toHaveLength(7);
    const said = body.messages.filter((m: any) => m.kind === 'turn').map((m: any) => m.content);
    const speakers = ['Ada', 'Bob', "Devil's Advocate", 'Ada', 'Bob', "Devil's Advocate"];
    requests.slice(0, 6).forEach((req, i) => {
      const system = systemOf(req);
      expect(system).toContain(`You are ${speakers[i]},`);
      expect(system).toContain('- Ada (Travel manager)');
      expect(system).toContain('- Bob (Sales lead)');
      expect(system).toContain("- Devil's Advocate (Contrarian critic) — the devil's advocate");
      expect(system).toContain('The topic of the debate: Should the hotel cap of 150 EUR per night stay?');
      // Exactly what was said before this turn, in order, and nothing said after it.
      for (const [j, text] of said.entries()) {
        if (j < i) expect(system).toContain(text);
        else expect(system).not.toContain(text);
      }
      const order = said.slice(0, i).map((text: string) => system.indexOf(text));
      expect(order).toEqual([...order].sort((x, y) => x - y));
      const user = sentMessages(req).at(-1)!;
      expect(user.role).toBe('user');
      expect(user.content).toContain(`Your turn, ${speakers[i]}`);
    });
    // Ada's linked document, numbered for citation; Bob has no knowledge.
    expect(systemOf(requests[0]!)).toMatch(/\[1\] \(travel\.md/);
    expect(systemOf(requests[0]!)).toContain('The hotel cap is 150 EUR per night');
    expect(systemOf(requests[1]!)).not.toContain('Passages from the workspace');
    expect(body.messages[0].knowledgeUsed[0]).toMatchObject({ ref: 1, sourceName: 'travel.md' });
    // The devil's advocate argues against the consensus and names its weakest point.
    expect(systemOf(requests[2]!)).toContain('Argue against the emerging consensus');
    expect(systemOf(requests[2]!)).toContain('Weakest point:');
    expect(systemOf(requests[0]!)).not.toContain('Argue against the emerging consensus');
  });

  it('ends with a synthesis from the whole debate, stored with the conversation and certified', async () => {
    const synthesisPrompt = systemOf(requests[6]!);
    for (const m of body.messages.filter((x: any) => x.kind === 'turn')) expect(synthesisPrompt).toContain(m.content);
    const devil = body.participants[2].agentId;
    expect(body.synthesis).toMatchObject({
      round: 2,
      agreements: ['Hotels need a cap'],
      disagreements: [{ point: 'The cap is too low for capitals', heldBy: [devil] }],
      recommendation: 'Keep the cap and review it yearly',
      confidence: 0.7,
      verdict: 'contested',
      proofId: body.proofId,
    });
    expect(body.synthesis.content).toContain('Points of agreement:\n- Hotels need a cap');
    expect(body.synthesis.content).toContain("- The cap is too low for capitals (held by Devil's Advocate)");
    const last = body.messages.at(-1);
    expect(last).toMatchObject({ id: body.synthesis.messageId, kind: 'synthesis', round: 2, content: body.synthesis.content });

    const proof = await api(t.baseUrl, a.key).get(`/v1/proofs/${body.proofId}`);
    expect(proof.status).toBe(200);
    const cert = proof.body.certificate ?? proof.body;
    expect(cert).toMatchObject({ conversationId: body.id, route: 'POST /v1/conversations', modelAddress: `debate:${body.id}` });
    expect(cert.answerHash).toBe(createHash('sha256').update(body.synthesis.content).digest('hex'));
    expect(cert.usage.totalTokens).toBe(7 * 3500);
    const verified = await api(t.baseUrl, a.key).get(`/v1/proofs/${body.proofId}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body.valid).toBe(true);
  });

  it("sends debate.synthesized to the initiator's endpoints only, with identifiers and status, never text", async () => {
    const mine = await storedDeliveries(t, endpointA);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.event).toBe('debate.synthesized');
    const payload = JSON.parse(String(mine[0]!.body));
    expect(payload).toEqual({
      conversationId: body.id,
      synthesis: { messageId: body.synthesis.messageId, proofId: body.proofId, round: 2, verdict: 'contested', status: 'synthesized' },
    });
    expect(String(mine[0]!.body)).not.toContain('cap');
    expect(await storedDeliveries(t, endpointB)).toHaveLength(0);
  });

  it('is metered as one answer on its real token total: several questions', async () => {
    const ledger = await ledgerRows(t, a.workspaceId);
    // 7 calls of 3 500 tokens on a standard model (3x): 73 500 weighted tokens, 10 questions of 8 000.
    expect(ledger).toEqual({ rows: 1, totalTokens: 24_500, questions: 10 });
  });

  it('reads back the same conversation, and lists it', async () => {
    const one = await api(t.baseUrl, a.key).get(`/v1/conversations/${body.id}`);
    expect(one.status).toBe(200);
    expect(one.body.conversation).toEqual(body);
    const list = await api(t.baseUrl, a.key).get('/v1/conversations');
    expect(list.status).toBe(200);
    expect(list.body.conversations.map((c: any) => c.id)).toContain(body.id);
  });

  it('continues with a follow-up question: one more round that sees everything before it, then a new synthesis', async () => {
    const devil = body.participants[2].agentId;
    script([['Ada', 3], ['Bob', 3], ['Devil', 3]], JSON.stringify({ agreements: ['Review yearly'], disagreements: [], recommendation: 'Review in June', confidence: 0.8 }));
    const first = model.requests.length;
    const res = await api(t.baseUrl, a.key).post(`/v1/conversations/${body.id}/messages`, { message: 'What about Paris and London?' });
    expect(res.status).toBe(200);
    const next = res.body.conversation;
    const added = next.messages.slice(body.messages.length);
    expect(added.map((m: any) => [m.kind, m.round, m.agentId])).toEqual([
      ['question', 3, null], ['turn', 3, ada], ['turn', 3, bob], ['turn', 3, devil], ['synthesis', 3, null],
    ]);
    expect(added[0].content).toBe('What about Paris and London?');
    const sent = model.requests.slice(first);
    expect(sent).toHaveLength(4);
    expect(systemOf(sent[0]!)).toContain('Devil speaking in round 2.');
    expect(systemOf(sent[0]!)).toContain('[Round 3] Question from the user: What about Paris and London?');
    expect(sentMessages(sent[0]!).at(-1)!.content).toContain('The user asks: What about Paris and London?');
    expect(systemOf(sent[2]!)).toContain('Bob speaking in round 3.');
    expect(next.rounds).toBe(3);
    expect(next.synthesis).toMatchObject({ round: 3, verdict: 'consensus', messageId: added[4].id });
    expect(next.proofId).not.toBe(body.proofId);
    // Another debate reuses the same devil's advocate.
    const agents = await api(t.baseUrl, a.key).get('/v1/agents');
    expect(agents.body.agents.filter((x: any) => x.isDevilsAdvocate)).toHaveLength(1);
  });
});

describe('refusals', () => {
  it('400 naming the field: rounds outside 1 to 5, fewer than 2 regular participants, an empty topic, an unknown collection', async () => {
    const c = api(t.baseUrl, a.key);
    for (const rounds of [0, 6, 2.5]) {
      const res = await c.post('/v1/conversations', { topic: 'x', agentIds: [ada, bob], rounds });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/rounds/);
    }
    const one = await c.post('/v1/conversations', { topic: 'x', agentIds: [ada] });
    expect(one.status).toBe(400);
    expect(one.body.error).toMatch(/agentIds/);
    const topic = await c.post('/v1/conversations', { topic: '  ', agentIds: [ada, bob] });
    expect(topic.status).toBe(400);
    expect(topic.body.error).toBe('topic is required');
    const coll = await c.post('/v1/conversations', { topic: 'x', agentIds: [ada, bob], collectionIds: ['col_nope'] });
    expect(coll.status).toBe(400);
    expect(coll.body.error).toMatch(/collectionIds/);
    const lone = await t.tenant();
    await createAgent(t, lone.key, persona('Solo'));
    const drawn = await api(t.baseUrl, lone.key).post('/v1/conversations', { topic: 'anything' });
    expect(drawn.status).toBe(400);
    expect(drawn.body.error).toMatch(/agentIds/);
    const devils = (await c.get('/v1/agents')).body.agents.find((x: any) => x.isDevilsAdvocate).id;
    const named = await c.post('/v1/conversations', { topic: 'x', agentIds: [ada, devils] });
    expect(named.status).toBe(400);
    expect(named.body.error).toMatch(/agentIds\[1\]/);
  });

  it("402 before the start when the allowance is spent: nothing consumed, no model called, no devil's advocate created", async () => {
    const poor = await t.tenant({ plan: 'pro', seats: 1 });
    const x = await createAgent(t, poor.key, persona('X'));
    const y = await createAgent(t, poor.key, persona('Y'));
    await exhaustQuestions(t, poor.workspaceId, 400);
    const before = model.requests.length;
    const res = await api(t.baseUrl, poor.key).post('/v1/conversations', { topic: 'Budget', agentIds: [x, y] });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('QUESTION_LIMIT');
    expect(model.requests.length).toBe(before);
    expect(await ledgerRows(t, poor.workspaceId)).toEqual({ rows: 0, totalTokens: 0, questions: 0 });
    expect((await api(t.baseUrl, poor.key).get('/v1/conversations')).body.conversations).toEqual([]);
    expect((await api(t.baseUrl, poor.key).get('/v1/agents')).body.agents.some((g: any) => g.isDevilsAdvocate)).toBe(false);
  });

  it('404 conversation_not_found for an unknown id and for another workspace\'s conversation', async () => {
    const [mine] = (await api(t.baseUrl, a.key).get('/v1/conversations')).body.conversations;
    const b = await t.tenant();
    const other = api(t.baseUrl, b.key);
    for (const res of [
      await other.get(`/v1/conversations/${mine.id}`),
      await other.post(`/v1/conversations/${mine.id}/messages`, { message: 'hi' }),
      await other.delete(`/v1/conversations/${mine.id}`),
      await api(t.baseUrl, a.key).get('/v1/conversations/conv_missing'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('conversation_not_found');
    }
    expect((await other.get('/v1/conversations')).body.conversations).toEqual([]);
  });

  it('a read-only key reads conversations but cannot start, continue or delete one', async () => {
    const ro = await t.key(a, { scopes: ['agents', 'readonly'] });
    const c = api(t.baseUrl, ro);
    const list = await c.get('/v1/conversations');
    expect(list.status).toBe(200);
    const id = list.body.conversations[0].id;
    expect((await c.get(`/v1/conversations/${id}`)).status).toBe(200);
    for (const res of [
      await c.post('/v1/conversations', { topic: 'x', agentIds: [ada, bob] }),
      await c.post(`/v1/conversations/${id}/messages`, { message: 'more' }),
      await c.delete(`/v1/conversations/${id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('read_only_key');
    }
    const other = await t.key(a, { scopes: ['knowledge'] });
    const denied = await api(t.baseUrl, other).get('/v1/conversations');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('scope_denied');
  });
});

describe('the gateway and the conversation record', () => {
  it('x-svc-conversation names a debate: the gateway certificate carries its id; deleted, it is 404 conversation_not_found', async () => {
    const [conv] = (await api(t.baseUrl, a.key).get('/v1/conversations')).body.conversations;
    const res = await api(t.baseUrl, a.key, { 'x-svc-conversation': conv.id }).post('/v1/chat/completions', {
      model: 'svc-auto',
      messages: [{ role: 'user', content: 'About that debate' }],
    });
    expect(res.status).toBe(200);
    const proofId = res.headers.get('x-svc-proof')!;
    const cert = (await api(t.baseUrl, a.key).get(`/v1/proofs/${proofId}`)).body;
    expect((cert.certificate ?? cert).conversationId).toBe(conv.id);

    expect((await api(t.baseUrl, a.key).delete(`/v1/conversations/${conv.id}`)).status).toBe(204);
    expect((await api(t.baseUrl, a.key).get(`/v1/conversations/${conv.id}`)).status).toBe(404);
    const gone = await api(t.baseUrl, a.key, { 'x-svc-conversation': conv.id }).post('/v1/chat/completions', {
      model: 'svc-auto',
      messages: [{ role: 'user', content: 'Still there?' }],
    });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('conversation_not_found');
  });
});

describe('continuing after the table changed', () => {
  it("a follow-up by another user of the workspace: a new devil's advocate when the first was deleted, the event to that user's endpoints", async () => {
    const w = await t.tenant();
    const x = await createAgent(t, w.key, persona('Xena'));
    const y = await createAgent(t, w.key, persona('Yves'));
    model.enqueue({ content: 'X1.' }, { content: 'Y1.' }, { content: 'D1.' }, { content: SYNTHESIS });
    const conv = (await api(t.baseUrl, w.key).post('/v1/conversations', { topic: 'Offices', agentIds: [x, y], rounds: 1 })).body.conversation;
    const firstDevil = conv.participants[2].agentId;
    expect((await api(t.baseUrl, w.key).delete(`/v1/agents/${firstDevil}`)).status).toBe(204);

    const other = await t.user(w.workspaceId);
    const hook = async (key: string) =>
      (await api(t.baseUrl, key).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['debate.synthesized'] })).body.webhook.id as string;
    const starterHook = await hook(w.key);
    const otherHook = await hook(other.key);
    model.enqueue({ content: 'X2.' }, { content: 'Y2.' }, { content: 'D2.' }, { content: SYNTHESIS });
    const first = model.requests.length;
    const res = await api(t.baseUrl, other.key).post(`/v1/conversations/${conv.id}/messages`, { message: 'And remote work?' });
    expect(res.status).toBe(200);
    const next = res.body.conversation;
    const devils = next.participants.filter((p: any) => p.isDevilsAdvocate);
    expect(devils).toHaveLength(1);
    expect(devils[0].agentId).not.toBe(firstDevil);
    expect(next.messages.filter((m: any) => m.round === 2).map((m: any) => m.agentId)).toEqual([null, x, y, devils[0].agentId, null]);
    // The deleted devil's advocate's words are still in what the next speakers see, under its name.
    expect(systemOf(model.requests[first]!)).toContain("[Round 1] Devil's Advocate (devil's advocate): D1.");
    expect(await storedDeliveries(t, otherHook)).toHaveLength(1);
    // The follow-up's event goes to the user who asked it, not to the one who started the debate.
    expect(await storedDeliveries(t, starterHook)).toHaveLength(0);
  });
});

describe('passages across a debate', () => {
  it('a speaker reads passages its mission favours, and not those an earlier speaker quoted', async () => {
    const w = await t.tenant();
    const doc = [
      '# Office rules',
      '## Parking',
      'The office rules give each team two parking spaces. Parking permits are renewed every January.',
      '## Meeting rooms',
      'The office rules let any team book a meeting room for up to four hours. Meeting rooms are cleaned every evening.',
      '## Kitchen',
      'The office rules ask everyone to empty the kitchen fridge on Fridays.',
    ].join('\n\n');
    const source = await ingest(t, w, Buffer.from(doc), 'office-rules.md');
    const pia = await createAgent(t, w.key, persona('Pia', { role: 'Facilities lead', mission: 'Free parking spaces for visitors' }));
    const quinn = await createAgent(t, w.key, persona('Quinn', { role: 'Facilities lead', mission: 'Free parking spaces for visitors' }));
    for (const agent of [pia, quinn]) await api(t.baseUrl, w.key).post(`/v1/knowledge/agents/${agent}/links`, { sourceId: source.id });
    model.enqueue({ content: 'Fewer spaces per team [1].' }, { content: 'Agreed.' }, { content: 'Weakest point: none.' }, { content: SYNTHESIS });
    const res = await api(t.baseUrl, w.key).post('/v1/conversations', { topic: 'How should the office rules change?', agentIds: [pia, quinn], rounds: 1 });
    expect(res.status).toBe(201);
    const turns = res.body.conversation.messages.filter((m: any) => m.kind === 'turn');
    const [first, second] = [turns.find((m: any) => m.agentId === pia), turns.find((m: any) => m.agentId === quinn)];
    // The mission's words put the parking passage first.
    expect(first.knowledgeUsed[0].chunkPreview).toMatch(/parking/i);
    // Quoted by the first speaker ([1]), it is not among the second speaker's passages.
    expect(second.knowledgeUsed.length).toBeGreaterThan(0);
    expect(second.knowledgeUsed.map((k: any) => k.chunkId)).not.toContain(first.knowledgeUsed[0].chunkId);
  });
});

describe('two follow-ups to one conversation at the same instant', () => {
  it('are serialised: one runs its round, the other is 409 conversation_busy with nothing stored or consumed; then it can be asked', async () => {
    const w = await t.tenant();
    const x = await createAgent(t, w.key, persona('Xavier'));
    const y = await createAgent(t, w.key, persona('Yasmin'));
    model.enqueue({ content: 'X1.' }, { content: 'Y1.' }, { content: 'D1.' }, { content: SYNTHESIS });
    const conv = (await api(t.baseUrl, w.key).post('/v1/conversations', { topic: 'Offices', agentIds: [x, y], rounds: 1 })).body.conversation;
    const ledgerBefore = await ledgerRows(t, w.workspaceId);

    // The first turn of whichever follow-up gets the conversation waits until the test lets it answer.
    let answer!: () => void;
    const thinking = new Promise<void>((resolve) => (answer = resolve));
    model.enqueue({ content: 'X2.', until: thinking }, { content: 'Y2.' }, { content: 'D2.' }, { content: SYNTHESIS });
    const first = model.requests.length;
    const settled: { status: number; body: any }[] = [];
    const c = api(t.baseUrl, w.key);
    const both = [
      c.post(`/v1/conversations/${conv.id}/messages`, { message: 'And remote work?' }),
      c.post(`/v1/conversations/${conv.id}/messages`, { message: 'And coworking?' }),
    ].map((p) => p.then((res) => (settled.push(res), res)));
    await expect.poll(() => settled.length).toBe(1);
    const [busy] = settled;
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: 'conversation_busy', conversationId: conv.id });
    // Only the winner's first turn reaches the model (the 409 may be answered before the winner, holding the
    // conversation, has sent it: wait for it); the loser consumed nothing.
    await expect.poll(() => model.requests.length).toBe(first + 1);
    expect(await ledgerRows(t, w.workspaceId)).toEqual(ledgerBefore);
    answer();
    const results = await Promise.all(both);
    const won = results.find((r) => r.status === 200)!;
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const asked = won.body.conversation.messages.filter((m: any) => m.kind === 'question');
    expect(asked).toHaveLength(1);
    expect(won.body.conversation).toMatchObject({ rounds: 2, status: 'synthesized' });

    // The round over, the refused question can be asked: it becomes round 3.
    model.enqueue({ content: 'X3.' }, { content: 'Y3.' }, { content: 'D3.' }, { content: SYNTHESIS });
    const loser = results.indexOf(results.find((r) => r.status === 409)!) === 0 ? 'And remote work?' : 'And coworking?';
    const again = await c.post(`/v1/conversations/${conv.id}/messages`, { message: loser });
    expect(again.status).toBe(200);
    const questions = again.body.conversation.messages.filter((m: any) => m.kind === 'question');
    expect(questions.map((m: any) => [m.round, m.content])).toEqual([
      [2, asked[0].content],
      [3, loser],
    ]);
  });
});

describe('first debates started together (PostgreSQL: PGlite is one session, debates cannot overlap there)', () => {
  it.runIf(hasPostgres)("create exactly one devil's advocate for the workspace, seated by all of them and listed once", async () => {
    const w = await t.tenant();
    const x = await createAgent(t, w.key, persona('Xenia'));
    const y = await createAgent(t, w.key, persona('Yusuf'));
    const debates = 4;
    // Every call of these debates answers with the synthesis (turns may take any of them).
    model.enqueue(...Array.from({ length: debates * 4 }, () => ({ content: SYNTHESIS })));
    // The test holds the workspace's devil's-advocate lock, so every debate has seated its debaters (and
    // found no devil's advocate) before any of them may create one: they overlap for certain.
    const db = new pg.Client({ connectionString: t.db.url });
    await db.connect();
    const lock = ['svc.devils-advocate', w.workspaceId];
    await db.query('select pg_advisory_lock(hashtext($1), hashtext($2))', lock);
    const c = api(t.baseUrl, w.key);
    const pending = Array.from({ length: debates }, (_, i) => c.post('/v1/conversations', { topic: `Offices ${i}`, agentIds: [x, y], rounds: 1 }));
    const waiting = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from pg_locks
            where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())
              and classid = hashtext($1)::oid and objid = hashtext($2)::oid`,
          lock,
        )
      ).rows[0]!.n;
    try {
      await expect.poll(waiting).toBe(debates);
    } finally {
      await db.query('select pg_advisory_unlock(hashtext($1), hashtext($2))', lock);
      await db.end();
    }
    const results = await Promise.all(pending);
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: debates }, () => 201));
    const listed = (await c.get('/v1/agents')).body.agents.filter((g: any) => g.isDevilsAdvocate);
    expect(listed).toHaveLength(1);
    for (const r of results) {
      expect(r.body.conversation.participants.filter((p: any) => p.isDevilsAdvocate).map((p: any) => p.agentId)).toEqual([listed[0].id]);
    }
  });
});
