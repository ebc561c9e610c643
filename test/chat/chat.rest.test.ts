/**
 * Plain chat routes over the real OpenAI-compatible provider, talking to the scripted model server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import { createAgent, makePoste, persona } from '../support/agents.js';
import { exhaustQuestions, ledgerRows } from '../support/metering.js';
import { sentMessages, startScriptedChatApp, systemOf } from '../support/chat.js';
import { type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let ada: string;
let bruno: string;

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp());
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada'));
  bruno = await createAgent(t, a.key, persona('Bruno', { role: 'Tax lawyer', mission: 'Explain tax rules' }));
});
afterAll(async () => {
  await t.close();
  await model.close();
});
beforeEach(() => {
  model.setDefault(undefined);
});

const chat = (key: string, agentId: string, body: unknown) => api(t.baseUrl, key).post(`/v1/agents/${agentId}/chat`, body);
const noConsult = { consult: { enabled: false } };

describe('request validation: 400 naming the field, before any model runs', () => {
  const cases: [string, unknown, string][] = [
    ['missing message', {}, 'message is required'],
    ['empty message', { message: '' }, 'message is required'],
    ['blank message', { message: '   \n ' }, 'message is required'],
    ['null message', { message: null }, 'message is required'],
    ['message of the wrong type', { message: 42 }, 'message must be a string'],
    ['maxTokens above 4000', { message: 'hi', options: { maxTokens: 4001 } }, 'options.maxTokens'],
    ['maxTokens below 100', { message: 'hi', options: { maxTokens: 99 } }, 'options.maxTokens'],
    ['maxTokens not whole', { message: 'hi', options: { maxTokens: 150.5 } }, 'options.maxTokens'],
    ['temperature above 2', { message: 'hi', options: { temperature: 2.1 } }, 'options.temperature'],
    ['temperature below 0', { message: 'hi', options: { temperature: -0.1 } }, 'options.temperature'],
    ['temperature as text', { message: 'hi', options: { temperature: 'hot' } }, 'options.temperature'],
    ['reflection not boolean', { message: 'hi', options: { reflection: 'yes' } }, 'options.reflection'],
    ['topK 0', { message: 'hi', knowledge: { topK: 0 } }, 'knowledge.topK'],
    ['topK 21', { message: 'hi', knowledge: { topK: 21 } }, 'knowledge.topK'],
    ['extraction without categories', { message: 'hi', extraction: {} }, 'extraction.categories'],
    ['extraction with no category', { message: 'hi', extraction: { categories: [] } }, 'extraction.categories'],
    ['extraction persist not boolean', { message: 'hi', extraction: { categories: ['a'], persist: 'no' } }, 'extraction.persist'],
    ['responseFormat without type', { message: 'hi', responseFormat: {} }, 'responseFormat.type'],
    ['responseFormat of unknown type', { message: 'hi', responseFormat: { type: 'xml' } }, 'responseFormat.type'],
    ['responseFormat fields not descriptions', { message: 'hi', responseFormat: { type: 'json', fields: { a: 1 } } }, 'responseFormat.fields'],
    ['context not a list', { message: 'hi', context: { category: 'a', data: 'b' } }, 'context'],
    ['context block without category', { message: 'hi', context: [{ data: 'b' }] }, 'category'],
    ['context block without data', { message: 'hi', context: [{ category: 'a' }] }, 'data'],
    ['context block with numeric data', { message: 'hi', context: [{ category: 'a', data: 3 }] }, 'data'],
    ['context block of unknown priority', { message: 'hi', context: [{ category: 'a', data: 'b', priority: 'urgent' }] }, 'priority'],
    ['tools.enabled not boolean', { message: 'hi', tools: { enabled: 1 } }, 'tools.enabled'],
    ['consult not an object', { message: 'hi', consult: true }, 'consult'],
    ['sessionId not a string', { message: 'hi', sessionId: 12 }, 'sessionId'],
  ];
  for (const [what, body, field] of cases) {
    it(`${what}`, async () => {
      const before = model.requests.length;
      const res = await chat(a.key, ada, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(field);
      if (field === 'message is required') expect(res.body.error).toBe('message is required');
      const auto = await api(t.baseUrl, a.key).post('/v1/agents/chat', body);
      expect(auto.status).toBe(400);
      expect(auto.body.error).toBe(res.body.error);
      expect(model.requests.length).toBe(before);
    });
  }

  it('malformed JSON and non-object bodies', async () => {
    const bad = await chat(a.key, ada, '{"message": ');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/malformed json/i);
    const arr = await chat(a.key, ada, '["hi"]');
    expect(arr.status).toBe(400);
  });

  it('accepts nulls as absent and the documented bounds', async () => {
    const res = await chat(a.key, ada, {
      message: 'Bounds check',
      sessionId: null,
      options: { temperature: 2, maxTokens: 4000, reflection: null },
      knowledge: { topK: 20 },
      ...noConsult,
    });
    expect(res.status).toBe(200);
    const sent = model.requests.at(-1)!;
    expect(sent).toMatchObject({ temperature: 2, max_tokens: 4000 });
    const defaults = await chat(a.key, ada, { message: 'Defaults', ...noConsult });
    expect(defaults.status).toBe(200);
    expect(model.requests.at(-1)).toMatchObject({ temperature: 0.8, max_tokens: 1500 });
  });
});

describe('turn result', () => {
  it('answers with every field of the chat turn result and starts a session', async () => {
    model.enqueue({ content: 'Revenue grew 12% [1].', usage: { prompt: 120, completion: 9 } });
    const res = await chat(a.key, ada, { message: 'How did revenue evolve?', ...noConsult });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      agentId: ada,
      agentName: 'Ada',
      agentRole: 'Financial analyst',
      content: 'Revenue grew 12% [1].',
      sessionId: expect.stringMatching(/^ses_/),
      memoriesSaved: [],
      tokenUsage: { promptTokens: 120, completionTokens: 9, totalTokens: 129 },
      knowledgeUsed: [],
      toolCalls: [],
    });
  });

  it('injects the six persona fields and the roster of the other agents', async () => {
    await chat(a.key, ada, { message: 'Who are you?', ...noConsult });
    const system = systemOf(model.requests.at(-1)!);
    for (const text of ['Ada', 'Financial analyst', 'calm and precise', 'Answer finance questions', 'data first', 'Always cite numbers.']) {
      expect(system).toContain(text);
    }
    expect(system).toContain('- Bruno (Tax lawyer): Explain tax rules');
    expect(system).not.toContain('- Ada (');
  });

  it('continues a session: history in the prompt, same sessionId back', async () => {
    const first = await chat(a.key, ada, { message: 'First question', ...noConsult });
    const second = await chat(a.key, ada, { message: 'Second question', sessionId: first.body.sessionId, ...noConsult });
    expect(second.status).toBe(200);
    expect(second.body.sessionId).toBe(first.body.sessionId);
    expect(sentMessages(model.requests.at(-1)!).slice(1)).toEqual([
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'Scripted answer to: First question' },
      { role: 'user', content: 'Second question' },
    ]);
  });

  it('shows the agent only the last 20 messages of the session', async () => {
    let sessionId: string | undefined;
    for (let i = 1; i <= 11; i++) {
      const res = await chat(a.key, ada, { message: `Message ${i}`, sessionId, ...noConsult });
      expect(res.status).toBe(200);
      sessionId = res.body.sessionId;
    }
    await chat(a.key, ada, { message: 'Message 12', sessionId, ...noConsult });
    const sent = sentMessages(model.requests.at(-1)!);
    expect(sent).toHaveLength(1 + 20 + 1);
    expect(sent[1]).toEqual({ role: 'user', content: 'Message 2' });
    expect(sent[20]).toEqual({ role: 'assistant', content: 'Scripted answer to: Message 11' });
    expect(sent[21]).toEqual({ role: 'user', content: 'Message 12' });
  });

  it('orders context blocks high first, flags them, uses label as heading, indents object data; never stores them', async () => {
    const res = await chat(a.key, ada, {
      message: 'Summarise the account',
      ...noConsult,
      context: [
        { category: 'notes', data: 'Low priority note', priority: 'low' },
        { category: 'crm', data: { plan: 'Pro', seats: 12 } },
        { category: 'alert', label: 'Open incident', data: 'Invoice 42 disputed', priority: 'high' },
        { category: 'billing', data: 'Second high block', priority: 'high' },
      ],
    });
    expect(res.status).toBe(200);
    const system = systemOf(model.requests.at(-1)!);
    const order = ['### [HIGH PRIORITY] Open incident', '### [HIGH PRIORITY] billing', '### crm', '### notes'].map((h) => system.indexOf(h));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(system).not.toContain('### alert');
    expect(system).toContain('### crm\n{\n  "plan": "Pro",\n  "seats": 12\n}');
    expect(system).not.toContain('[HIGH PRIORITY] crm');

    await chat(a.key, ada, { message: 'And now?', sessionId: res.body.sessionId, ...noConsult });
    const next = JSON.stringify(model.requests.at(-1));
    expect(next).not.toContain('Invoice 42 disputed');
    expect(next).not.toContain('Low priority note');
  });

  it('JSON mode: forces a JSON object, describes the fields, returns contentParsed when valid', async () => {
    model.enqueue({ content: '```json\n{"total": 42, "currency": "EUR"}\n```' });
    const res = await chat(a.key, ada, {
      message: 'Give me the total',
      ...noConsult,
      responseFormat: { type: 'json', fields: { total: 'the amount as a number', currency: 'ISO code' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.contentParsed).toEqual({ total: 42, currency: 'EUR' });
    expect(JSON.parse(res.body.content)).toEqual({ total: 42, currency: 'EUR' });
    const sent = model.requests.at(-1)!;
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(systemOf(sent)).toContain('- "total": the amount as a number');

    model.enqueue({ content: 'not json at all' });
    const invalid = await chat(a.key, ada, { message: 'Total?', ...noConsult, responseFormat: { type: 'json', schema: '{ total: number }' } });
    expect(invalid.status).toBe(200);
    expect(invalid.body.content).toBe('not json at all');
    expect(invalid.body).not.toHaveProperty('contentParsed');
    expect(systemOf(model.requests.at(-1)!)).toContain('{ total: number }');

    const text = await chat(a.key, ada, { message: 'Plain please', ...noConsult, responseFormat: { type: 'text' } });
    expect(text.body).not.toHaveProperty('contentParsed');
    expect(model.requests.at(-1)!.response_format).toBeUndefined();
  });

  it('reflection: a separate pass returned as thoughts and given to the answer; skipped for small talk', async () => {
    model.enqueue({ content: 'The user wants the margin; I know revenue and costs.', usage: { prompt: 10, completion: 5 } });
    model.enqueue({ content: 'The margin is 20%.', usage: { prompt: 20, completion: 7 } });
    const before = model.requests.length;
    const res = await chat(a.key, ada, { message: 'What is our margin?', ...noConsult, options: { reflection: true } });
    expect(res.status).toBe(200);
    expect(model.requests.length - before).toBe(2);
    expect(res.body.thoughts).toBe('The user wants the margin; I know revenue and costs.');
    expect(res.body.content).toBe('The margin is 20%.');
    expect(res.body.tokenUsage).toEqual({ promptTokens: 30, completionTokens: 12, totalTokens: 42 });
    expect(systemOf(model.requests.at(-1)!)).toContain('Your preliminary reasoning for this answer:\nThe user wants the margin');

    const small = model.requests.length;
    const hello = await chat(a.key, ada, { message: 'Hello!', ...noConsult, options: { reflection: true } });
    expect(model.requests.length - small).toBe(1);
    expect(hello.body).not.toHaveProperty('thoughts');
  });

  it('extraction: facts of the requested categories, stored unless persist is false', async () => {
    const extraction = '{"facts":[{"category":"Budget","value":"50k euros"},{"category":"colour","value":"blue"},{"category":"deadline","value":"March"}]}';
    model.enqueue({ content: 'Noted.' }, { content: extraction });
    const kept = await chat(a.key, ada, {
      message: 'Our budget is 50k euros and we need it by March.',
      ...noConsult,
      extraction: { categories: ['budget', 'deadline'] },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.extracted).toEqual([
      { category: 'budget', value: '50k euros' },
      { category: 'deadline', value: 'March' },
    ]);
    expect(model.requests.at(-1)!.response_format).toEqual({ type: 'json_object' });

    model.enqueue({ content: 'Noted.' }, { content: '{"facts":[{"category":"supplier","value":"Acme Corp"}]}' });
    const transient = await chat(a.key, ada, {
      message: 'We buy from Acme Corp.',
      ...noConsult,
      extraction: { categories: ['supplier'], persist: false },
    });
    expect(transient.body.extracted).toEqual([{ category: 'supplier', value: 'Acme Corp' }]);

    // A new session recalls the stored facts, not the transient ones.
    await chat(a.key, ada, { message: 'Remind me of the budget and the supplier', ...noConsult });
    const system = systemOf(model.requests.at(-1)!);
    expect(system).toContain('50k euros');
    expect(system).toContain('March');
    expect(system).not.toContain('Acme Corp');
  });

  it('memory: saves what the user states, recalls it in another session, not for another user', async () => {
    const res = await chat(a.key, bruno, { message: 'Please remember that our fiscal year ends in June. My name is Claire.', ...noConsult });
    expect(res.status).toBe(200);
    expect(res.body.memoriesSaved).toEqual([
      { key: 'note:our_fiscal_year', value: 'Please remember that our fiscal year ends in June.', type: 'fact', provenance: 'user_message', salience: 0.9 },
      { key: 'name', value: 'My name is Claire.', type: 'identity', provenance: 'user_message', salience: 0.8 },
    ]);
    await chat(a.key, bruno, { message: 'When does the fiscal year end?', ...noConsult });
    const system = systemOf(model.requests.at(-1)!);
    expect(system).toContain('What you remember from earlier conversations:');
    expect(system).toContain('our fiscal year ends in June');

    const other = await t.user(a.workspaceId);
    await chat(other.key, bruno, { message: 'When does the fiscal year end?', ...noConsult });
    expect(systemOf(model.requests.at(-1)!)).not.toContain('fiscal year ends in June');
    // Another agent does not share Bruno's memories.
    await chat(a.key, ada, { message: 'When does the fiscal year end?', ...noConsult });
    expect(systemOf(model.requests.at(-1)!)).not.toContain('fiscal year ends in June');
  });

  it('meters the whole turn once, on the answering model', async () => {
    const t0 = await ledgerRows(t, a.workspaceId);
    model.enqueue({ content: 'x', usage: { prompt: 100, completion: 50 } });
    const res = await chat(a.key, ada, { message: 'Metered question', ...noConsult });
    const t1 = await ledgerRows(t, a.workspaceId);
    expect(t1.rows - t0.rows).toBe(1);
    expect(t1.totalTokens - t0.totalTokens).toBe(res.body.tokenUsage.totalTokens);
    expect(res.body.tokenUsage.totalTokens).toBe(150);
  });
});

describe('personal data masking', () => {
  it('masks e-mails, phones, IBANs and cards before the external model and restores them in the answer', async () => {
    model.enqueue({ content: 'I will write to [EMAIL_1] and call [PHONE_1]; IBAN [IBAN_1] noted, card [CARD_1].' });
    const message =
      'Contact me at jane.doe@example.com or +33 6 12 34 56 78. My IBAN is FR76 3000 6000 0112 3456 7890 189 and my card 4111 1111 1111 1111.';
    const res = await chat(a.key, ada, {
      message,
      ...noConsult,
      context: [{ category: 'crm', data: { backupEmail: 'jane.doe@example.com', other: 'ops@example.org' } }],
    });
    expect(res.status).toBe(200);
    const sent = JSON.stringify(model.requests.at(-1));
    for (const secret of ['jane.doe@example.com', '12 34 56 78', 'FR76', '4111', 'ops@example.org']) expect(sent).not.toContain(secret);
    expect(sent).toContain('[EMAIL_1]');
    expect(sent).toContain('[EMAIL_2]');
    expect(res.body.content).toBe(
      'I will write to jane.doe@example.com and call +33 6 12 34 56 78; IBAN FR76 3000 6000 0112 3456 7890 189 noted, card 4111 1111 1111 1111.',
    );
    // The session keeps the real text; the next turn masks the history again.
    await chat(a.key, ada, { message: 'Thanks', sessionId: res.body.sessionId, ...noConsult });
    const next = JSON.stringify(model.requests.at(-1));
    expect(next).not.toContain('jane.doe@example.com');
    expect(next).toContain('[EMAIL_1]');
  });

  it('leaves numbers that are not personal data alone', async () => {
    await chat(a.key, ada, { message: 'Revenue was 1234567 EUR on 2026-11-02, order 4111111111111112.', ...noConsult });
    const sent = JSON.stringify(model.requests.at(-1));
    expect(sent).toContain('1234567 EUR on 2026-11-02, order 4111111111111112');
  });
});

describe('consultation', () => {
  it('consults a colleague named in the message, in the colleague’s persona, before answering', async () => {
    model.enqueue({ content: 'Bruno: VAT is 20%.', usage: { prompt: 10, completion: 4 } }, { content: 'Per Bruno, VAT is 20%.', usage: { prompt: 30, completion: 6 } });
    const before = model.requests.length;
    const res = await chat(a.key, ada, { message: 'What does Bruno think about the VAT rate?' });
    expect(res.status).toBe(200);
    expect(model.requests.length - before).toBe(2);
    const consultation = model.requests[before]!;
    expect(systemOf(consultation)).toContain('You are Bruno, Tax lawyer.');
    expect(systemOf(consultation)).toContain('Your colleague Ada (Financial analyst) asks for your view');
    expect(systemOf(model.requests.at(-1)!)).toContain('Your colleagues answered you:\n- Bruno: Bruno: VAT is 20%.');
    expect(res.body.tokenUsage.totalTokens).toBe(50);
  });

  it('offers consult_colleague to a tool-calling model and runs what it asks', async () => {
    model.enqueue(
      { toolCalls: [{ name: 'consult_colleague', arguments: { colleague: 'Bruno', question: 'Is this deductible?' } }] },
      { content: 'Yes, deductible.' },
      { content: 'Bruno confirms it is deductible.' },
    );
    const res = await chat(a.key, ada, { message: 'Can we deduct the new laptops?' });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe('Bruno confirms it is deductible.');
    const tools = (model.requests.at(-3)!.tools as { function: { name: string; parameters: any } }[]).map((x) => x.function);
    expect(tools.map((x) => x.name)).toEqual(['consult_colleague']);
    expect(tools[0]!.parameters.properties.colleague.enum).toEqual(['Bruno']);
    expect(sentMessages(model.requests.at(-2)!)[1]).toEqual({ role: 'user', content: 'Is this deductible?' });
    const last = sentMessages(model.requests.at(-1)!);
    expect(last.at(-1)).toEqual({ role: 'tool', content: JSON.stringify({ colleague: 'Bruno', answer: 'Yes, deductible.' }) });
    // Consultations are not workspace tool calls.
    expect(res.body.toolCalls).toEqual([]);
  });

  it('consult.enabled false: no colleague is asked and the tool is not offered', async () => {
    const before = model.requests.length;
    await chat(a.key, ada, { message: 'What does Bruno think?', consult: { enabled: false } });
    expect(model.requests.length - before).toBe(1);
    expect(model.requests.at(-1)!.tools).toBeUndefined();
  });
});

describe('agents, sessions and access', () => {
  it('404 for an unknown agent or another workspace’s agent, with the SPEC text', async () => {
    const res = await chat(a.key, 'agt_missing', { message: 'hi' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Agent not found: agt_missing' });
    const b = await t.tenant();
    const foreign = await createAgent(t, b.key, persona('Foreign'));
    const cross = await chat(a.key, foreign, { message: 'hi' });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ error: `Agent not found: ${foreign}` });
  });

  it('404 for an unknown session, another user’s session or another workspace’s session', async () => {
    const res = await chat(a.key, ada, { message: 'hi', sessionId: 'ses_missing' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Session not found: ses_missing' });

    const mine = await chat(a.key, ada, { message: 'My private question', ...noConsult });
    const colleague = await t.user(a.workspaceId);
    const stolen = await chat(colleague.key, ada, { message: 'hi', sessionId: mine.body.sessionId });
    expect(stolen.status).toBe(404);
    expect(stolen.body).toEqual({ error: `Session not found: ${mine.body.sessionId}` });
    const auto = await api(t.baseUrl, colleague.key).post('/v1/agents/chat', { message: 'hi', sessionId: mine.body.sessionId });
    expect(auto.status).toBe(404);

    const b = await t.tenant();
    const bAgent = await createAgent(t, b.key, persona('Other'));
    const foreign = await chat(b.key, bAgent, { message: 'hi', sessionId: mine.body.sessionId });
    expect(foreign.status).toBe(404);
  });

  it('500 for a poste, before any model runs', async () => {
    const poste = await createAgent(t, a.key, persona('Desk'));
    await makePoste(t, a.key, poste);
    const before = model.requests.length;
    const res = await chat(a.key, poste, { message: 'hi' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Agent chat failed' });
    expect(model.requests.length).toBe(before);
    await api(t.baseUrl, a.key).delete(`/v1/agents/${poste}`);
  });

  it('a session outlives a deleted agent, which can no longer answer in it; another agent can', async () => {
    const temp = await createAgent(t, a.key, persona('Temp'));
    const first = await chat(a.key, temp, { message: 'Keep this session', ...noConsult });
    expect((await api(t.baseUrl, a.key).delete(`/v1/agents/${temp}`)).status).toBe(204);
    const gone = await chat(a.key, temp, { message: 'Still there?', sessionId: first.body.sessionId });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: `Agent not found: ${temp}` });
    const next = await chat(a.key, ada, { message: 'Take over', sessionId: first.body.sessionId, ...noConsult });
    expect(next.status).toBe(200);
    expect(sentMessages(model.requests.at(-1)!)[1]).toEqual({ role: 'user', content: 'Keep this session' });
  });

  it('401 without a key, 403 read_only_key for a read-only key, 403 scope_denied without the agents scope', async () => {
    const none = await api(t.baseUrl).post(`/v1/agents/${ada}/chat`, { message: 'hi' });
    expect(none.status).toBe(401);
    const ro = await t.key(a, { readonly: true });
    const r1 = await chat(ro, ada, { message: 'hi' });
    expect(r1.status).toBe(403);
    expect(r1.body.code).toBe('read_only_key');
    const webhooksOnly = await t.key(a, { scopes: ['webhooks'] });
    const r2 = await chat(webhooksOnly, ada, { message: 'hi' });
    expect(r2.status).toBe(403);
    expect(r2.body.code).toBe('scope_denied');
    const agentsScope = await t.key(a, { scopes: ['agents'] });
    expect((await chat(agentsScope, ada, { message: 'hi', ...noConsult })).status).toBe(200);
  });
});

describe('allowance: refused before any model runs, nothing consumed', () => {
  it('402 PLAN_UPGRADE_REQUIRED on a plan without chat', async () => {
    const e = await t.tenant({ plan: 'essentiel' });
    const agent = await createAgent(t, e.key, persona('Eve'));
    const before = model.requests.length;
    const res = await chat(e.key, agent, { message: 'hi' });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('PLAN_UPGRADE_REQUIRED');
    expect(model.requests.length).toBe(before);
    expect((await ledgerRows(t, e.workspaceId)).rows).toBe(0);
  });

  it('402 QUESTION_LIMIT when the workspace has no questions left, on fixed and auto routes', async () => {
    const trial = await t.tenant({ plan: 'trial' });
    const agent = await createAgent(t, trial.key, persona('Tia'));
    await createAgent(t, trial.key, persona('Tom'));
    await exhaustQuestions(t, trial.workspaceId, 30);
    const before = model.requests.length;
    const res = await chat(trial.key, agent, { message: 'hi' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: 'Insufficient tokens', code: 'QUESTION_LIMIT', required: 1, available: 0 });
    const auto = await api(t.baseUrl, trial.key).post('/v1/agents/chat', { message: 'hi' });
    expect(auto.status).toBe(402);
    expect(auto.body.code).toBe('QUESTION_LIMIT');
    expect(model.requests.length).toBe(before);
    expect((await ledgerRows(t, trial.workspaceId)).rows).toBe(0);
  });

  it('402 API_KEY_BUDGET_EXCEEDED once the key’s monthly ceiling is spent', async () => {
    const key = await t.key(a, { monthlyQuestionLimit: 1 });
    expect((await chat(key, ada, { message: 'one', ...noConsult })).status).toBe(200);
    const res = await chat(key, ada, { message: 'two' });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('API_KEY_BUDGET_EXCEEDED');
  });
});

describe('model failure', () => {
  it('500 Agent chat failed, cause not leaked, nothing saved', async () => {
    const first = await chat(a.key, ada, { message: 'Before the failure', ...noConsult });
    model.enqueue({ status: 400 });
    const res = await chat(a.key, ada, { message: 'This one fails', sessionId: first.body.sessionId, ...noConsult });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Agent chat failed' });
    expect(res.text).not.toContain('Scripted');
    const session = await api(t.baseUrl, a.key).graphql(`query($id: ID!) { chatSession(id: $id) { messageCount messages { content } } }`, {
      id: first.body.sessionId,
    });
    expect(session.data.chatSession.messageCount).toBe(2);
    expect(JSON.stringify(session.data)).not.toContain('This one fails');
  });
});
