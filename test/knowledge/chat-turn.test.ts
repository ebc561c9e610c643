/**
 * The real knowledge retriever and tool runner inside real chat turns: the built-in local model answers
 * from retrieved passages with [n] markers; the scripted OpenAI-compatible model calls a workspace
 * HTTP tool on a loopback API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { eventsOf, streamChat } from '../support/sse.js';
import { sentMessages } from '../support/chat.js';
import { startApiServer } from '../support/tool-api-server.js';
import { fixtures, ingest } from '../support/knowledge.js';
import { persona } from '../support/agents.js';

let local: TestApp;
let scripted: TestApp;
let model: ScriptedModelServer;
let apiServer: Awaited<ReturnType<typeof startApiServer>>;
let a: TestTenant;
let s: TestTenant;
let reader: string;
let sourceId: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  [local, scripted] = await Promise.all([
    startTestApp({ env: { SVC_RATE_AGENT_CHAT: '1000' } }),
    startTestApp({
      env: { SVC_MODEL_BASE_URL: model.baseUrl, SVC_MODEL_API_KEY: 'k', SVC_MODEL: 'scripted-model', SVC_MODEL_CLASS: 'standard', SVC_RATE_AGENT_CHAT: '1000' },
    }),
  ]);
  apiServer = await startApiServer();
  a = await local.tenant();
  s = await scripted.tenant();
  reader = (await api(local.baseUrl, a.key).post('/v1/agents', persona('Reader'))).body.agent.id;
  const col = (await api(local.baseUrl, a.key).post('/v1/knowledge-collections', { name: 'Travel dossier' })).body.collection;
  sourceId = (await ingest(local, a, fixtures.markdown(), 'travel.md', { collectionId: col.id })).id;
  await ingest(local, a, fixtures.text(), 'unlinked.txt');
  await api(local.baseUrl, a.key).post(`/v1/knowledge/agents/${reader}/links`, { collectionId: col.id });
});
afterAll(async () => {
  await apiServer.close();
  await Promise.all([local.close(), scripted.close()]);
  await model.close();
});

const chat = (t: TestApp, key: string, agentId: string, body: Record<string, unknown>) => api(t.baseUrl, key).post(`/v1/agents/${agentId}/chat`, body);

describe('knowledge in the chat turn', () => {
  it('plain turn: the local model answers from the linked passages and cites them with [n]', async () => {
    const res = await chat(local, a.key, reader, { message: 'What is the hotel cap per night?' });
    expect(res.status).toBe(200);
    const used = res.body.knowledgeUsed;
    expect(used.length).toBeGreaterThan(0);
    expect(used[0]).toEqual({
      ref: 1,
      sourceId,
      sourceName: 'travel.md',
      section: expect.stringContaining('Hotels'),
      page: 1,
      chunkPreview: expect.stringContaining('hotel cap is 150 EUR'),
      similarity: expect.any(Number),
      chunkId: expect.stringMatching(/^kchk_/),
      collectionId: expect.stringMatching(/^kcol_/),
      dossierName: 'Travel dossier',
    });
    expect(used.map((u: { sourceId: string }) => u.sourceId).every((id: string) => id === sourceId)).toBe(true);
    expect(res.body.content).toContain('150 EUR');
    expect(res.body.content).toMatch(/\[1\]/);
    for (const ref of res.body.content.match(/\[(\d+)\]/g) ?? []) {
      expect(used.map((u: { ref: number }) => `[${u.ref}]`)).toContain(ref);
    }
  });

  it('streamed turn: a knowledge event after the retrieval stage, and the same items in done', async () => {
    const res = await streamChat(local, a.key, `/v1/agents/${reader}/chat/stream`, { message: 'How much is the train allowance?' });
    expect(res.status).toBe(200);
    const types = res.events.map((e) => (e.type === 'stage' ? `stage:${(e.data as { name: string; phase: string }).name}:${(e.data as { phase: string }).phase}` : e.type));
    const retrievalEnd = types.indexOf('stage:retrieval:end');
    const knowledge = types.indexOf('knowledge');
    expect(retrievalEnd).toBeGreaterThanOrEqual(0);
    expect(knowledge).toBeGreaterThan(retrievalEnd);
    const [event] = eventsOf(res.events, 'knowledge');
    expect(event!.data[0]).toMatchObject({ ref: 1, sourceId, sourceName: 'travel.md', section: expect.stringContaining('Trains') });
    // The knowledgeUsed item shape (SPEC's eight stream fields plus collectionId and dossierName); never the passage text.
    const keys = ['chunkId', 'chunkPreview', 'collectionId', 'dossierName', 'page', 'ref', 'section', 'similarity', 'sourceId', 'sourceName'];
    for (const item of event!.data) expect(Object.keys(item).sort()).toEqual(keys);
    const [done] = eventsOf(res.events, 'done');
    expect(done!.data.knowledgeUsed).toEqual(event!.data.map((item) => expect.objectContaining(item)));
    expect(done!.data.content).toContain('90 EUR');
    expect(done!.data.content).toMatch(/\[1\]/);
  });

  it('knowledge.enabled false, or an agent with nothing linked, reads nothing', async () => {
    const off = await chat(local, a.key, reader, { message: 'What is the hotel cap per night?', knowledge: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.knowledgeUsed ?? []).toEqual([]);
    const bare = (await api(local.baseUrl, a.key).post('/v1/agents', persona('Bare'))).body.agent.id;
    const none = await chat(local, a.key, bare, { message: 'What is the support email?' });
    expect(none.body.knowledgeUsed ?? []).toEqual([]);
  });

  it('topK bounds the passages read', async () => {
    const res = await chat(local, a.key, reader, { message: 'trains hotels cap allowance', knowledge: { topK: 1 } });
    expect(res.body.knowledgeUsed).toHaveLength(1);
  });
});

describe('workspace tools in the chat turn', () => {
  let agentId: string;
  let weather: string;
  let failing: string;

  beforeAll(async () => {
    const A = api(scripted.baseUrl, s.key);
    agentId = (await A.post('/v1/agents', persona('Concierge'))).body.agent.id;
    const created = await A.post('/v1/tools', {
      name: 'get_weather',
      description: 'Current weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      urlTemplate: `${apiServer.base}/echo/weather/{city}`,
      headers: [{ name: 'X-Api-Key', value: 'k-123', secret: true }],
    });
    weather = created.body.tool.id;
    failing = (await A.post('/v1/tools', { name: 'flaky', description: 'Always down', urlTemplate: `${apiServer.base}/status/503` })).body.tool.id;
    await A.post(`/v1/agents/${agentId}/tools`, { toolId: weather });
    await A.post(`/v1/agents/${agentId}/tools`, { toolId: failing });
  });

  it('offers the linked tools, calls the API through the guard, feeds the result back, reports toolCalls', async () => {
    model.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { content: 'It is sunny in Paris.' });
    const before = model.requests.length;
    const res = await streamChat(scripted, s.key, `/v1/agents/${agentId}/chat/stream`, { message: 'Weather in Paris?' });
    expect(res.status).toBe(200);
    const offered = (model.requests[before]!.tools as { function: { name: string } }[]).map((x) => x.function.name);
    expect(offered).toEqual(expect.arrayContaining(['get_weather', 'flaky']));
    const seen = apiServer.seen.at(-1)!;
    expect(seen.path).toBe('/echo/weather/Paris');
    expect(seen.headers['x-api-key']).toBe('k-123');
    const [call] = eventsOf(res.events, 'tool_call');
    expect(call!.data).toMatchObject({ toolName: 'get_weather', arguments: { city: 'Paris' } });
    const [result] = eventsOf(res.events, 'tool_result');
    expect(result!.data).toMatchObject({ toolName: 'get_weather', success: true, result: { ok: true, path: '/echo/weather/Paris' } });
    const fedBack = sentMessages(model.requests[before + 1]!).find((m) => m.role === 'tool');
    expect(fedBack!.content).toContain('/echo/weather/Paris');
    const [done] = eventsOf(res.events, 'done');
    expect(done!.data.toolCalls).toEqual([{ toolName: 'get_weather', success: true, durationMs: expect.any(Number) }]);
    expect(done!.data.content).toBe('It is sunny in Paris.');
  });

  it('a failing tool is reported to the model as a failure and the turn still answers', async () => {
    model.enqueue({ toolCalls: [{ name: 'flaky', arguments: {} }] }, { content: 'The service is down, sorry.' });
    const before = model.requests.length;
    const res = await chat(scripted, s.key, agentId, { message: 'Check the flaky service' });
    expect(res.status).toBe(200);
    expect(res.body.toolCalls).toEqual([{ toolName: 'flaky', success: false, durationMs: expect.any(Number) }]);
    const fedBack = sentMessages(model.requests[before + 1]!).find((m) => m.role === 'tool');
    expect(fedBack!.content).toContain('HTTP 503');
    expect(res.body.content).toBe('The service is down, sorry.');
  });

  it('tools.enabled false offers none; tools.toolIds offers the subset; inactive tools are never offered', async () => {
    model.enqueue({ content: 'no tools' });
    let before = model.requests.length;
    await chat(scripted, s.key, agentId, { message: 'hi there', tools: { enabled: false } });
    expect(model.requests[before]!.tools).toBeUndefined();
    model.enqueue({ content: 'subset' });
    before = model.requests.length;
    await chat(scripted, s.key, agentId, { message: 'hi again', tools: { toolIds: [failing] } });
    expect((model.requests[before]!.tools as { function: { name: string } }[]).map((x) => x.function.name)).not.toContain('get_weather');
    await api(scripted.baseUrl, s.key).put(`/v1/tools/${failing}`, { isActive: false });
    model.enqueue({ content: 'inactive' });
    before = model.requests.length;
    await chat(scripted, s.key, agentId, { message: 'and again' });
    const names = ((model.requests[before]!.tools ?? []) as { function: { name: string } }[]).map((x) => x.function.name);
    expect(names).toContain('get_weather');
    expect(names).not.toContain('flaky');
  });
});
