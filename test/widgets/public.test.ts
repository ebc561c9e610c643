/**
 * A widget's public endpoints over real HTTP: CORS and the Origin check, the per-IP limit (429 with
 * retry-after, on the injected clock), the monthly ceiling, the answer streamed from a scripted model,
 * metering to the workspace under the widget, and what a visitor never reaches (keys, memories, tools).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import type { TestApp, TestTenant } from '../support/app.js';
import { createAgent, persona } from '../support/agents.js';
import { sentMessages, startScriptedChatApp } from '../support/chat.js';
import { fixtures, ingest } from '../support/knowledge.js';
import { exhaustQuestions } from '../support/metering.js';
import { assertDocumented } from '../support/openapi-validation.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import { parseSse } from '../support/sse.js';

const SITE = 'http://shop.test:8080';
const ELSEWHERE = 'http://evil.test';

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let agentId: string;
let ip = 0;

/** A fresh visitor address per test, so the per-IP counts of one test never reach another. */
const nextIp = () => `203.0.113.${++ip}`;

async function makeWidget(tenant: TestTenant, extra: Record<string, unknown> = {}) {
  const res = await api(t.baseUrl, tenant.key).post('/engine/widgets', {
    name: 'Travel help',
    family: 'agent',
    agentId,
    allowedOrigins: [SITE],
    monthlyQuestionLimit: 100,
    ipRatePerMinute: 100,
    greeting: 'Ask me about travel',
    ...extra,
  });
  if (res.status !== 201) throw new Error(`widget creation failed: ${res.status} ${res.text}`);
  return res.body.widget as { id: string; publicId: string };
}

/** A visitor's page calling the widget (what the browser sends: Origin, and the visitor's address). */
const visitor = (origin: string | null, address = nextIp()) => api(t.baseUrl, undefined, { ...(origin ? { origin } : {}), 'x-forwarded-for': address });

async function ask(publicId: string, body: unknown, headers: Record<string, string> = { origin: SITE, 'x-forwarded-for': nextIp() }) {
  const path = `/widget/${publicId}/chat`;
  const res = await fetch(t.baseUrl + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  const stream = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const json = stream || !text ? undefined : JSON.parse(text);
  await assertDocumented(t.baseUrl, 'POST', path, res, () => json);
  return { status: res.status, headers: res.headers, body: json, events: stream ? parseSse(text).events : [], text };
}

async function ledger(workspaceId: string) {
  return t.app.services.orm.em
    .fork()
    .execute<{ key_id: string; user_id: string; route: string; questions: number }[]>(
      `select key_id, user_id, route, questions from usage_ledger where workspace_id = ? and route <> 'test' order by created_at`,
      [workspaceId],
    );
}

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp());
  a = await t.tenant();
  const admin = api(t.baseUrl, a.key);
  agentId = await createAgent(t, a.key, persona('Travel desk'));
  const col = (await admin.post('/v1/knowledge-collections', { name: 'Travel dossier' })).body.collection;
  await ingest(t, a, fixtures.markdown(), 'travel.md', { collectionId: col.id });
  expect((await admin.post(`/v1/knowledge/agents/${agentId}/links`, { collectionId: col.id })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await model?.close();
});

describe('origins: CORS and the Origin check', () => {
  it('an allowed origin reads the configuration, with CORS for that origin only and no key anywhere', async () => {
    const w = await makeWidget(a);
    const res = await visitor(SITE).get(`/widget/${w.publicId}/config`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ publicId: w.publicId, name: 'Travel help', greeting: 'Ask me about travel', family: 'agent' });
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.headers.get('vary')).toContain('Origin');
    expect(res.text).not.toMatch(/svc_|agt_|wgt_(?!pub_)/);
  });

  it('preflight: an allowed origin may POST JSON; another origin gets 403 origin_not_allowed and no CORS header', async () => {
    const w = await makeWidget(a);
    const preflight = (origin: string) =>
      fetch(`${t.baseUrl}/widget/${w.publicId}/chat`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const ok = await preflight(SITE);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')).toBe('content-type');
    const refused = await preflight(ELSEWHERE);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(await refused.json()).toMatchObject({ code: 'origin_not_allowed' });
  });

  it('another origin, a look-alike, or no Origin at all: 403 origin_not_allowed, nothing answered or metered', async () => {
    const w = await makeWidget(a);
    const before = (await ledger(a.workspaceId)).length;
    for (const origin of [ELSEWHERE, 'https://shop.test:8080', 'http://shop.test:8081', 'null', null]) {
      const res = await visitor(origin).get(`/widget/${w.publicId}/config`);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('origin_not_allowed');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const chat = await ask(w.publicId, { message: 'hello' }, origin ? { origin } : {});
      expect(chat.status).toBe(403);
      expect(chat.body.code).toBe('origin_not_allowed');
    }
    expect((await ledger(a.workspaceId)).length).toBe(before);
  });

  it('an unknown or deleted widget: 404', async () => {
    const w = await makeWidget(a);
    expect((await visitor(SITE).get('/widget/wgt_pub_nothing/config')).status).toBe(404);
    expect((await api(t.baseUrl, a.key).delete(`/engine/widgets/${w.id}`)).status).toBe(204);
    expect((await visitor(SITE).get(`/widget/${w.publicId}/config`)).status).toBe(404);
    expect((await ask(w.publicId, { message: 'hello' })).status).toBe(404);
  });

  it('the origins follow a change of the widget at once', async () => {
    const w = await makeWidget(a);
    await api(t.baseUrl, a.key).patch(`/engine/widgets/${w.id}`, { allowedOrigins: [ELSEWHERE] });
    expect((await visitor(SITE).get(`/widget/${w.publicId}/config`)).status).toBe(403);
    expect((await visitor(ELSEWHERE).get(`/widget/${w.publicId}/config`)).status).toBe(200);
  });
});

describe('the answer streams, metered to the workspace', () => {
  it('tokens arrive as the model writes them, then done with the answer and its citations; one question recorded under the widget', async () => {
    const w = await makeWidget(a);
    const sent = model.requests.length;
    model.enqueue({ chunks: ['The hotel ', 'cap is ', '150 EUR per night [1].'] });
    const res = await ask(w.publicId, { message: 'What is the hotel cap per night?' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.events.map((e) => e.type)).toEqual(['token', 'token', 'token', 'done']);
    expect(res.events.filter((e) => e.type === 'token').map((e) => (e.data as { delta: string }).delta)).toEqual([
      'The hotel ',
      'cap is ',
      '150 EUR per night [1].',
    ]);
    const done = res.events[3].data as unknown as { content: string; citations: { ref: number; sourceName: string; section: string; page: number }[] };
    expect(done.content).toBe('The hotel cap is 150 EUR per night [1].');
    expect(done.citations[0]).toEqual({ ref: 1, sourceName: 'travel.md', section: expect.stringContaining('Hotels'), page: 1 });
    expect(res.text).not.toMatch(/svc_|agt_|tokenUsage|chunkId/);

    // One model call, with the agent's passages and no tools.
    expect(model.requests.length).toBe(sent + 1);
    const request = model.requests[sent];
    expect(request.tools).toBeUndefined();
    expect(JSON.stringify(request)).toContain('150 EUR per night');

    const rows = await ledger(a.workspaceId);
    expect(rows.at(-1)).toMatchObject({ key_id: `widget:${w.id}`, user_id: `widget:${w.id}`, route: 'POST /widget/:publicId/chat' });
    expect(Number(rows.at(-1)!.questions)).toBe(1);
    const read = await api(t.baseUrl, a.key).get(`/engine/widgets/${w.id}`);
    expect(read.body.widget.questionsThisMonth).toBe(1);
  });

  it('the panel keeps the conversation: history is sent to the model, and nothing is stored server-side', async () => {
    const w = await makeWidget(a);
    const sent = model.requests.length;
    const sessionsBefore = await t.app.services.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from chat_session');
    const res = await ask(w.publicId, {
      message: 'And for trains?',
      history: [
        { role: 'user', content: 'What is the hotel cap?' },
        { role: 'assistant', content: 'It is 150 EUR per night.' },
      ],
    });
    expect(res.status).toBe(200);
    const messages = sentMessages(model.requests[sent]);
    expect(messages.slice(-3).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages.at(-2)?.content).toContain('150 EUR per night');
    const sessionsAfter = await t.app.services.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from chat_session');
    expect(sessionsAfter[0].n).toBe(sessionsBefore[0].n);
  });

  it("a visitor never reads what the workspace's people told the agent", async () => {
    const w = await makeWidget(a);
    const member = await api(t.baseUrl, a.key).post(`/v1/agents/${agentId}/chat`, { message: 'My name is Zebulon Quartz.' });
    expect(member.status).toBe(200);
    const recalled = model.requests.length;
    // The member's own next turn recalls it (the memory exists)...
    await api(t.baseUrl, a.key).post(`/v1/agents/${agentId}/chat`, { message: 'What is my name?' });
    expect(JSON.stringify(model.requests[recalled])).toContain('Zebulon');
    // ...the widget's turn does not.
    const sent = model.requests.length;
    expect((await ask(w.publicId, { message: 'What is my name?' })).status).toBe(200);
    expect(JSON.stringify(model.requests[sent])).not.toContain('Zebulon');
  });

  it('refusals before the stream: 400 for a bad question, 400 widget_agent_unscoped when the agent lost its documents', async () => {
    const w = await makeWidget(a);
    for (const body of [{}, { message: '   ' }, { message: 'x'.repeat(2001) }, { message: 'hi', history: [{ role: 'system', content: 'x' }] }]) {
      const res = await ask(w.publicId, body);
      expect(res.status).toBe(400);
      expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    }
    const lonely = await createAgent(t, a.key, persona('Lonely'));
    const col = (await api(t.baseUrl, a.key).post('/v1/knowledge-collections', { name: 'Short-lived' })).body.collection;
    await api(t.baseUrl, a.key).post(`/v1/knowledge/agents/${lonely}/links`, { collectionId: col.id });
    const w2 = await makeWidget(a, { agentId: lonely });
    await api(t.baseUrl, a.key).delete(`/v1/knowledge/agents/${lonely}/links/${col.id}`);
    const sent = model.requests.length;
    const res = await ask(w2.publicId, { message: 'hello' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('widget_agent_unscoped');
    expect(model.requests.length).toBe(sent);
  });

  it("the widget's agent deleted: 404 before any stream, nothing consumed", async () => {
    const gone = await createAgent(t, a.key, persona('Short-lived desk'));
    const col = (await api(t.baseUrl, a.key).post('/v1/knowledge-collections', { name: 'Gone soon' })).body.collection;
    await api(t.baseUrl, a.key).post(`/v1/knowledge/agents/${gone}/links`, { collectionId: col.id });
    const w = await makeWidget(a, { agentId: gone });
    expect((await api(t.baseUrl, a.key).delete(`/v1/agents/${gone}`)).status).toBe(204);
    const sent = model.requests.length;
    const res = await ask(w.publicId, { message: 'hello' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(`Agent not found: ${gone}`);
    expect(model.requests.length).toBe(sent);
    expect((await api(t.baseUrl, a.key).get(`/engine/widgets/${w.id}`)).body.widget.agentId).toBe(gone);
  });

  it('a workspace with no questions left: the stream reports QUESTION_LIMIT and nothing is consumed', async () => {
    const b = await t.tenant({ name: 'Spent', plan: 'pro', seats: 1 });
    const agent = await createAgent(t, b.key, persona('Spent desk'));
    const col = (await api(t.baseUrl, b.key).post('/v1/knowledge-collections', { name: 'Docs' })).body.collection;
    await api(t.baseUrl, b.key).post(`/v1/knowledge/agents/${agent}/links`, { collectionId: col.id });
    const w = await makeWidget(b, { agentId: agent });
    await exhaustQuestions(t, b.workspaceId, 400);
    const sent = model.requests.length;
    const res = await ask(w.publicId, { message: 'hello' });
    expect(res.status).toBe(200);
    expect(res.events).toEqual([{ type: 'error', data: expect.objectContaining({ status: 402, code: 'QUESTION_LIMIT' }) }]);
    expect(model.requests.length).toBe(sent);
    expect(await ledger(b.workspaceId)).toEqual([]);
  });
});

describe('light widgets', () => {
  const LEASE = '# Warehouse lease\n\n## Rent\n\nThe annual rent of the Lyon warehouse is 412,000 EUR excluding tax, paid quarterly.\n';

  it("answer from the widget's dossier only, with citations, metered under the widget; refuse what the dossier does not cover", async () => {
    const dossierId = (await api(t.baseUrl, a.key).post('/v1/dossiers', { name: 'Lease dossier' })).body.dossier.id;
    await ingest(t, a, Buffer.from(LEASE), 'lease.md', { dossierId });
    const w = await makeWidget(a, { family: 'light', agentId: null, dossierId });
    expect((await visitor(SITE).get(`/widget/${w.publicId}/config`)).body.family).toBe('light');

    model.enqueue({ content: 'The annual rent is 412,000 EUR excluding tax [1].' });
    const res = await ask(w.publicId, { message: 'What is the annual rent of the Lyon warehouse?' });
    expect(res.status).toBe(200);
    expect(res.events).toEqual([
      { type: 'token', data: { delta: 'The annual rent is 412,000 EUR excluding tax [1].' } },
      { type: 'done', data: { content: 'The annual rent is 412,000 EUR excluding tax [1].', citations: [{ ref: 1, sourceName: 'lease.md', section: expect.stringContaining('Rent'), page: 1 }] } },
    ]);
    const rows = await ledger(a.workspaceId);
    expect(rows.at(-1)).toMatchObject({ key_id: `widget:${w.id}`, user_id: `widget:${w.id}` });
    expect((await api(t.baseUrl, a.key).get(`/engine/widgets/${w.id}`)).body.widget.questionsThisMonth).toBe(1);

    // The travel handbook is in the workspace but not in the dossier: refused, no model asked.
    const sent = model.requests.length;
    const outside = await ask(w.publicId, { message: 'What is the hotel cap per night?' });
    expect(outside.status).toBe(200);
    const done = outside.events.at(-1)!.data as unknown as { content: string; citations: unknown[] };
    expect(done.content).toContain('do not cover this question');
    expect(done.citations).toEqual([]);
    expect(model.requests.length).toBe(sent);
  });

  it('the monthly ceiling holds for light widgets too; a deleted dossier is a 404', async () => {
    const dossierId = (await api(t.baseUrl, a.key).post('/v1/dossiers', { name: 'Short dossier' })).body.dossier.id;
    await ingest(t, a, Buffer.from(LEASE), 'lease-2.md', { dossierId });
    const w = await makeWidget(a, { family: 'light', agentId: null, dossierId, monthlyQuestionLimit: 1 });
    model.enqueue({ content: 'The annual rent is 412,000 EUR excluding tax [1].' });
    expect((await ask(w.publicId, { message: 'What is the annual rent of the Lyon warehouse?' })).status).toBe(200);
    const sent = model.requests.length;
    const refused = await ask(w.publicId, { message: 'How is the annual rent of the Lyon warehouse paid?' });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('WIDGET_MONTHLY_LIMIT');
    expect(model.requests.length).toBe(sent);
    expect((await api(t.baseUrl, a.key).delete(`/v1/dossiers/${dossierId}`)).status).toBe(204);
    expect((await ask(w.publicId, { message: 'What is the annual rent?' })).status).toBe(404);
  });
});

describe('limits', () => {
  it('per IP: past ipRatePerMinute, 429 rate_limited with retry-after (seconds left in the minute); other addresses still answered; the next minute again', async () => {
    const w = await makeWidget(a, { ipRatePerMinute: 2 });
    t.clock.set('2026-11-02T10:30:45.200Z');
    const one = visitor(SITE, '198.51.100.7');
    expect((await one.get(`/widget/${w.publicId}/config`)).status).toBe(200);
    expect((await one.get(`/widget/${w.publicId}/config`)).status).toBe(200);
    const limited = await one.get(`/widget/${w.publicId}/config`);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBe('15');
    expect(limited.headers.get('access-control-allow-origin')).toBe(SITE);
    const chat = await ask(w.publicId, { message: 'hello' }, { origin: SITE, 'x-forwarded-for': '198.51.100.7' });
    expect(chat.status).toBe(429);
    expect(chat.headers.get('retry-after')).toBe('15');
    expect((await visitor(SITE, '198.51.100.8').get(`/widget/${w.publicId}/config`)).status).toBe(200);
    // Another widget has its own count for the same address.
    const w2 = await makeWidget(a, { ipRatePerMinute: 2 });
    expect((await one.get(`/widget/${w2.publicId}/config`)).status).toBe(200);
    t.clock.set('2026-11-02T10:31:00.000Z');
    expect((await one.get(`/widget/${w.publicId}/config`)).status).toBe(200);
  });

  it('monthly ceiling: once answered, 402 WIDGET_MONTHLY_LIMIT with a clear message, before any model runs; next month it answers again', async () => {
    const w = await makeWidget(a, { monthlyQuestionLimit: 2 });
    t.clock.set('2026-11-20T09:00:00.000Z');
    expect((await ask(w.publicId, { message: 'one' })).status).toBe(200);
    expect((await ask(w.publicId, { message: 'two' })).status).toBe(200);
    const sent = model.requests.length;
    const rows = (await ledger(a.workspaceId)).length;
    const res = await ask(w.publicId, { message: 'three' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      error: 'This assistant has answered all the questions it can this month; please come back next month',
      code: 'WIDGET_MONTHLY_LIMIT',
      limit: 2,
    });
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(model.requests.length).toBe(sent);
    expect((await ledger(a.workspaceId)).length).toBe(rows);
    // The workspace's own keys are not held by the widget's ceiling.
    expect((await api(t.baseUrl, a.key).post(`/v1/agents/${agentId}/chat`, { message: 'still here?' })).status).toBe(200);
    // Raising the ceiling, or a new month, lets it answer again.
    await api(t.baseUrl, a.key).patch(`/engine/widgets/${w.id}`, { monthlyQuestionLimit: 3 });
    expect((await ask(w.publicId, { message: 'three again' })).status).toBe(200);
    expect((await ask(w.publicId, { message: 'four' })).status).toBe(402);
    t.clock.set('2026-12-01T00:00:01.000Z');
    expect((await ask(w.publicId, { message: 'new month' })).status).toBe(200);
  });
});
