/**
 * The knowledge and tools seams of the turn, with small retriever and tool runner implementations
 * put in place of the app's ports: the real pipeline numbers passages, offers tools, runs them, reports them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceContext } from '../../src/core/context.js';
import type { KnowledgeUsedItem, RunnableTool } from '../../src/modules/chat/turn-extensions.js';
import { MAX_TOOL_ROUNDS } from '../../src/modules/chat/generation.js';
import { api } from '../support/api.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import { createAgent, persona } from '../support/agents.js';
import { eventsOf, streamChat } from '../support/sse.js';
import { sentMessages, startScriptedChatApp, systemOf } from '../support/chat.js';
import { type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let ada: string;

const passage = (n: number, text: string): KnowledgeUsedItem => ({
  ref: 99,
  sourceId: `src_${n}`,
  sourceName: `policy-${n}.pdf`,
  section: `Section ${n}`,
  page: n,
  chunkPreview: text.slice(0, 20),
  similarity: 0.9 - n / 100,
  chunkId: `chk_${n}`,
  collectionId: n === 1 ? 'col_1' : null,
  dossierName: null,
  text,
});

const retrievals: { agentId: string; query: string; topK: number; links?: readonly unknown[]; workspaceId: string }[] = [];
const toolRequests: { agentId: string; toolIds?: string[]; linked?: readonly string[] }[] = [];
const toolRuns: { name: string; args: unknown }[] = [];

const tool = (name: string, run: (args: unknown) => Promise<{ success: boolean; result: unknown }>): RunnableTool => ({
  def: { name, description: `The ${name} tool`, parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  run: async (args) => {
    toolRuns.push({ name, args });
    return run(args);
  },
});

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp());
  vi.spyOn(t.app.services.knowledge, 'retrieve').mockImplementation(async (ctx: ServiceContext, opts) => {
    retrievals.push({ ...opts, workspaceId: ctx.caller.workspace.id });
    return [
      passage(1, 'Refunds are issued within 14 days.'),
      passage(2, 'Write to refunds@example.com for help.'),
      passage(3, 'A third passage beyond topK.'),
    ].slice(0, opts.topK);
  });
  vi.spyOn(t.app.services.tools, 'toolsFor').mockImplementation(async (_ctx, opts) => {
    toolRequests.push(opts);
    const all = [
      tool('get_weather', async (args) => ({ success: true, result: { city: (args as { city: string }).city, tempC: 21 } })),
      tool('broken', async () => {
        throw new Error('socket hang up at 10.0.0.3');
      }),
      tool('send_mail', async (args) => ({ success: true, result: { sentTo: (args as { to: string }).to } })),
    ];
    return opts.toolIds ? all.filter((x) => opts.toolIds!.includes(x.def.name)) : all;
  });
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada'));
});
afterAll(async () => {
  await t.close();
  await model.close();
});
beforeEach(() => {
  retrievals.length = 0;
  toolRequests.length = 0;
  toolRuns.length = 0;
  model.setDefault(undefined);
});

const chat = (body: unknown) => api(t.baseUrl, a.key).post(`/v1/agents/${ada}/chat`, body);

describe('knowledge retrieval', () => {
  it('numbers passages [n] in the prompt and reports knowledgeUsed without their text', async () => {
    const res = await chat({ message: 'How long do refunds take?', knowledge: { topK: 2 } });
    expect(res.status).toBe(200);
    // the agent's links come read with the turn's other reads (none here: the retriever is this stub)
    expect(retrievals).toEqual([{ agentId: ada, query: 'How long do refunds take?', topK: 2, links: [], workspaceId: a.workspaceId }]);
    expect(res.body.knowledgeUsed).toEqual([
      { ref: 1, sourceId: 'src_1', sourceName: 'policy-1.pdf', section: 'Section 1', page: 1, chunkPreview: 'Refunds are issued w', similarity: 0.89, chunkId: 'chk_1', collectionId: 'col_1', dossierName: null },
      { ref: 2, sourceId: 'src_2', sourceName: 'policy-2.pdf', section: 'Section 2', page: 2, chunkPreview: 'Write to refunds@exa', similarity: 0.88, chunkId: 'chk_2', collectionId: null, dossierName: null },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('within 14 days');
    const system = systemOf(model.requests.at(-1)!);
    expect(system).toContain('[1] (policy-1.pdf, Section 1, p. 1)\nRefunds are issued within 14 days.');
    // Passages leaving for an external model are masked like everything else.
    expect(system).toContain('[2] (policy-2.pdf, Section 2, p. 2)\nWrite to [EMAIL_1] for help.');
  });

  it('topK: 5 by default, 8 for list-style questions, as requested otherwise', async () => {
    await chat({ message: 'How long do refunds take?' });
    await chat({ message: 'List the refund conditions' });
    await chat({ message: 'What are the steps to get a refund?' });
    await chat({ message: 'Quels sont les délais ?' });
    await chat({ message: 'List them', knowledge: { topK: 3 } });
    expect(retrievals.map((r) => r.topK)).toEqual([5, 8, 8, 8, 3]);
  });

  it('streams a knowledge event after the retrieval stage', async () => {
    const res = await streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'Refund delay?', knowledge: { topK: 1 } });
    const kinds = res.events.map((e) => (e.type === 'stage' ? `${e.data.name}:${e.data.phase}` : e.type));
    expect(kinds.slice(0, 5)).toEqual(['prepare:start', 'prepare:end', 'retrieval:start', 'retrieval:end', 'knowledge']);
    const [knowledge] = eventsOf(res.events, 'knowledge');
    expect(knowledge!.data).toEqual([expect.objectContaining({ ref: 1, sourceId: 'src_1', chunkId: 'chk_1' })]);
    expect(knowledge!.data[0]).not.toHaveProperty('text');
    expect(eventsOf(res.events, 'done')[0]!.data.contextUsed.passages).toBe(1);
  });

  it('knowledge.enabled false: no retrieval, no retrieval stage', async () => {
    const res = await streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'Refund delay?', knowledge: { enabled: false } });
    expect(retrievals).toHaveLength(0);
    expect(res.events.some((e) => e.type === 'stage' && e.data.name === 'retrieval')).toBe(false);
    expect(eventsOf(res.events, 'done')[0]!.data.knowledgeUsed).toEqual([]);
  });
});

describe('tools', () => {
  it('offers the agent’s tools, runs the call, streams tool_call and tool_result, reports toolCalls', async () => {
    model.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { content: 'It is 21°C in Paris.' });
    const res = await streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'Weather in Paris?' });
    // the agent's tool links come from the turn's read (none in the database: the port here is a fake)
    expect(toolRequests).toEqual([{ agentId: ada, toolIds: undefined, linked: [] }]);
    const offered = (model.requests.at(-2)!.tools as { function: { name: string } }[]).map((x) => x.function.name);
    expect(offered).toEqual(['get_weather', 'broken', 'send_mail']);
    expect(toolRuns).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);

    const [call] = eventsOf(res.events, 'tool_call');
    expect(call!.data).toEqual({ toolName: 'get_weather', arguments: { city: 'Paris' } });
    const [result] = eventsOf(res.events, 'tool_result');
    expect(result!.data).toEqual({
      toolName: 'get_weather',
      arguments: { city: 'Paris' },
      result: { city: 'Paris', tempC: 21 },
      success: true,
      durationMs: expect.any(Number),
    });
    const kinds = res.events.map((e) => e.type);
    expect(kinds.indexOf('tool_call')).toBeLessThan(kinds.indexOf('tool_result'));
    expect(kinds.indexOf('tool_result')).toBeLessThan(kinds.indexOf('token'));

    const [done] = eventsOf(res.events, 'done');
    expect(done!.data.content).toBe('It is 21°C in Paris.');
    expect(done!.data.toolCalls).toEqual([{ toolName: 'get_weather', success: true, durationMs: expect.any(Number) }]);
    const last = sentMessages(model.requests.at(-1)!);
    expect(last.at(-1)).toEqual({ role: 'tool', content: JSON.stringify({ city: 'Paris', tempC: 21 }) });
  });

  it('a tool that throws or an unknown tool is reported as a failure, without internals', async () => {
    model.enqueue(
      { toolCalls: [{ name: 'broken', arguments: {} }, { name: 'nope', arguments: {} }] },
      { content: 'The tools failed.' },
    );
    const res = await chat({ message: 'Try the tools' });
    expect(res.status).toBe(200);
    expect(res.body.toolCalls).toEqual([
      { toolName: 'broken', success: false, durationMs: expect.any(Number) },
      { toolName: 'nope', success: false, durationMs: expect.any(Number) },
    ]);
    expect(JSON.stringify(model.requests.at(-1))).not.toContain('10.0.0.3');
  });

  it('passes tools.toolIds and runs tools with the real values the model only saw masked', async () => {
    model.enqueue({ toolCalls: [{ name: 'send_mail', arguments: { to: '[EMAIL_1]' } }] }, { content: 'Sent to [EMAIL_1].' });
    const res = await chat({ message: 'Mail the report to joe@example.com', tools: { toolIds: ['send_mail'] } });
    expect(toolRequests).toEqual([{ agentId: ada, toolIds: ['send_mail'], linked: [] }]);
    expect(toolRuns).toEqual([{ name: 'send_mail', args: { to: 'joe@example.com' } }]);
    expect(JSON.stringify(model.requests.slice(-2))).not.toContain('joe@example.com');
    expect(res.body.content).toBe('Sent to joe@example.com.');
  });

  it('bounds the tool rounds: the last request offers no tools and must answer', async () => {
    model.setDefault({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const before = model.requests.length;
    const res = await chat({ message: 'Loop forever' });
    expect(res.status).toBe(200);
    expect(model.requests.length - before).toBe(MAX_TOOL_ROUNDS + 1);
    expect(model.requests.at(-1)!.tools).toBeUndefined();
    expect(res.body.toolCalls).toHaveLength(MAX_TOOL_ROUNDS);
  });

  it('tools.enabled false: no tool offered, none run', async () => {
    const res = await chat({ message: 'Weather?', tools: { enabled: false } });
    expect(res.status).toBe(200);
    expect(toolRequests).toHaveLength(0);
    expect(model.requests.at(-1)!.tools).toBeUndefined();
  });
});
