/**
 * The same debate on the built-in local model, with no model server at all: a readable, extractive
 * debate from the context, the debaters' own knowledge and what the others said; debaters drawn from
 * the workspace by relevance when none are named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { createAgent, persona } from '../support/agents.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { fixtures, ingest } from '../support/knowledge.js';

let t: TestApp;
let a: TestTenant;
let travel: string;
let sales: string;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
  travel = await createAgent(t, a.key, persona('Tess', { role: 'Travel manager', mission: 'Keep hotel and train costs under control' }));
  sales = await createAgent(t, a.key, persona('Sam', { role: 'Sales lead', mission: 'Keep the sales team close to customers, on trains and in hotels' }));
  await createAgent(t, a.key, persona('Lee', { role: 'Lawyer', mission: 'Review contracts and legal risks' }));
  await createAgent(t, a.key, persona('Fay', { role: 'Finance controller', mission: 'Check the budget of every hotel night' }));
  await createAgent(t, a.key, persona('Contra', { role: 'Critic', mission: 'Oppose hotel caps', isDevilsAdvocate: true }));
  const source = await ingest(t, a, fixtures.markdown(), 'travel.md');
  await api(t.baseUrl, a.key).post(`/v1/knowledge/agents/${travel}/links`, { sourceId: source.id });
});
afterAll(() => t.close());

describe('a debate on the built-in local model', () => {
  it('draws the most relevant debaters, seats the existing devil\'s advocate, and gives a readable, extractive debate', async () => {
    const res = await api(t.baseUrl, a.key).post('/v1/conversations', {
      topic: 'Should the hotel cap per night stay as it is?',
      rounds: 2,
      context: [
        { category: 'Complaints', data: 'Sales staff say the hotel cap is too low in capital cities. Hotels in Paris often cost 210 EUR per night.' },
        { category: 'Budget', data: 'The travel budget grew by 4% this year. Hotel nights are the largest share of the travel budget.' },
      ],
    });
    expect(res.status).toBe(201);
    const conv = res.body.conversation;
    // Three regulars drawn by relevance to the topic (hotel, cap, night): the lawyer is left out, and the
    // flagged devil's advocate is seated as such, never drawn as a regular.
    const regulars = conv.participants.filter((p: any) => !p.isDevilsAdvocate).map((p: any) => p.name);
    expect(regulars).toHaveLength(3);
    expect(regulars).not.toContain('Lee');
    expect(regulars).not.toContain('Contra');
    expect(conv.participants.filter((p: any) => p.isDevilsAdvocate).map((p: any) => p.name)).toEqual(['Contra']);
    const turns = conv.messages.filter((m: any) => m.kind === 'turn');
    expect(turns).toHaveLength(8);
    for (const m of turns) {
      expect(m.content.trim().length).toBeGreaterThan(20);
      expect(m.content).not.toMatch(/^[{[]/);
    }
    // Tess reads her own document and cites it.
    const tess = turns.find((m: any) => m.agentId === travel);
    expect(tess.content).toMatch(/\[1\]/);
    expect(tess.knowledgeUsed[0]).toMatchObject({ ref: 1, sourceName: 'travel.md' });
    // The devil's advocate answers from what the others said.
    const contra = turns.filter((m: any) => m.isDevilsAdvocate).at(-1);
    const othersSaid = turns.filter((m: any) => !m.isDevilsAdvocate).map((m: any) => m.content).join(' ');
    expect(contra.content.split(/(?<=\.)\s+/).some((s: string) => othersSaid.includes(s.replace(/\s*\[\d+\]$/, '')))).toBe(true);
    expect(conv.synthesis.content).toMatch(/^Points of agreement:\n- .+\nOpen disagreements:\n- .+\nRecommendation: .+\nConfidence: \d+%$/s);
    expect(conv.synthesis.confidence).toBeGreaterThan(0);
    expect(conv.synthesis.confidence).toBeLessThanOrEqual(1);
    expect(conv.proofId).toMatch(/^prf_/);
    // Read from the debate, naming who said what: each point of agreement names the debaters who made it.
    expect(conv.synthesis.agreements.length).toBeGreaterThan(0);
    for (const point of conv.synthesis.agreements) expect(regulars.some((n: string) => point.includes(n))).toBe(true);
    expect(conv.synthesis.content).toContain('(held by Contra)');
    expect(conv.synthesis.content).not.toContain('none stated');
  });

  it("each debater draws on its own mission and on passages not yet quoted; the synthesis names them", async () => {
    const w = await t.tenant();
    const doc = [
      '# Travel policy 2026',
      '## Hotel nights',
      'The travel policy caps hotel nights at 140 EUR. Hotel costs rose by 9% last year, and the hotel cap was exceeded on 30% of trips.',
      '## Train journeys',
      'The travel policy allows first class on trains longer than three hours. Customer visits by train doubled, and sales staff travel by train to most customers.',
      '## Meal expenses',
      'The travel policy refunds meals up to 25 EUR. Meal claims are filed within 30 days.',
    ].join('\n\n');
    const source = await ingest(t, w, Buffer.from(doc), 'travel-policy-2026.md');
    const ann = await createAgent(t, w.key, persona('Ann', { role: 'Hotel buyer', mission: 'Bring hotel costs and hotel nights under the cap' }));
    const bob = await createAgent(t, w.key, persona('Bob', { role: 'Sales director', mission: 'Keep sales staff visiting customers by train' }));
    for (const agent of [ann, bob]) await api(t.baseUrl, w.key).post(`/v1/knowledge/agents/${agent}/links`, { sourceId: source.id });
    const res = await api(t.baseUrl, w.key).post('/v1/conversations', { topic: 'What should change in the travel policy?', agentIds: [ann, bob], rounds: 1 });
    expect(res.status).toBe(201);
    const conv = res.body.conversation;
    const turn = (id: string) => conv.messages.find((m: any) => m.kind === 'turn' && m.agentId === id);
    const quoted = (m: any) => [...m.content.matchAll(/\[(\d+)\]/g)].map((x: RegExpMatchArray) => m.knowledgeUsed[Number(x[1]) - 1].chunkId);
    const [a, b] = [turn(ann), turn(bob)];
    // Each speaker quotes its own passages: the hotel buyer the hotel section, the sales director (who
    // speaks second, the hotel passage already quoted) the train section.
    expect(quoted(a).length).toBeGreaterThan(0);
    expect(quoted(b).length).toBeGreaterThan(0);
    expect(quoted(b).filter((id: string) => quoted(a).includes(id))).toEqual([]);
    expect(a.content).toMatch(/hotel/i);
    expect(b.content).toMatch(/train/i);
    expect(b.content).not.toMatch(/hotel/i);
    // The synthesis says who holds what, by name.
    expect(conv.synthesis.content).toContain('Ann');
    expect(conv.synthesis.content).toContain('Bob');

    // Two debaters of the same mission: the second draws on a passage the first did not quote.
    const cy = await createAgent(t, w.key, persona('Cy', { role: 'Hotel buyer', mission: 'Bring hotel costs and hotel nights under the cap' }));
    await api(t.baseUrl, w.key).post(`/v1/knowledge/agents/${cy}/links`, { sourceId: source.id });
    const same = (await api(t.baseUrl, w.key).post('/v1/conversations', { topic: 'What should change in the travel policy?', agentIds: [ann, cy], rounds: 1 })).body.conversation;
    const first = same.messages.find((m: any) => m.kind === 'turn' && m.agentId === ann);
    const second = same.messages.find((m: any) => m.kind === 'turn' && m.agentId === cy);
    expect(quoted(second).length).toBeGreaterThan(0);
    expect(quoted(second).filter((id: string) => quoted(first).includes(id))).toEqual([]);
    expect(second.content).not.toBe(first.content);
  });
});
