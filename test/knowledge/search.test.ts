import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { fixtures, ingest } from '../support/knowledge.js';
import { persona } from '../support/agents.js';

let t: TestApp;
let a: TestTenant;
let b: TestTenant;
const ids: Record<string, string> = {};

const doc = (lines: string[]) => Buffer.from(lines.join('\n\n'), 'utf8');

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_RATE_KNOWLEDGE_QUERY: '40' } });
  a = await t.tenant();
  b = await t.tenant();
  ids.refunds = (
    await ingest(t, a, doc(['# Refund policy', 'Customers may ask for a refund within 30 days. Refunds for annual plans are prorated.', 'Late refund requests are refused.']), 'refunds.md')
  ).id;
  ids.shipping = (
    await ingest(t, a, doc(['# Shipping', 'Orders ship within two days. A refund of shipping fees is possible for damaged parcels.']), 'shipping.md')
  ).id;
  ids.security = (
    await ingest(t, a, doc(['# Sécurité', 'Les mots de passe expirent après 90 jours.', 'Le télétravail est autorisé deux jours par semaine.']), 'securite.md')
  ).id;
  ids.other = (await ingest(t, b, doc(['# Refund policy of B', 'Workspace B gives refunds within 14 days.']), 'b-refunds.md')).id;
});
afterAll(() => t.close());

const query = (tenant: TestTenant, body: unknown) => api(t.baseUrl, tenant.key).post('/v1/knowledge/query', body);
const sourceOrder = (res: { body: { results: { sourceId: string }[] } }) => res.body.results.map((r) => r.sourceId);

describe('POST /v1/knowledge/query', () => {
  it('ranks the passage holding more of the query words, denser, first; items have the knowledgeUsed shape', async () => {
    const res = await query(a, { query: 'What is the refund policy for annual plans?' });
    expect(res.status).toBe(200);
    expect(sourceOrder(res)).toEqual([ids.refunds, ids.shipping]);
    const [first, second] = res.body.results;
    expect(first).toEqual({
      ref: 1,
      sourceId: ids.refunds,
      sourceName: 'refunds.md',
      section: 'Refund policy',
      page: 1,
      chunkPreview: expect.stringContaining('refund within 30 days'),
      similarity: expect.any(Number),
      chunkId: expect.stringMatching(/^kchk_/),
      collectionId: null,
      dossierName: null,
      text: expect.stringContaining('Refunds for annual plans are prorated.'),
    });
    expect(second.ref).toBe(2);
    expect(first.similarity).toBeGreaterThan(second.similarity);
    expect(first.similarity).toBeLessThan(1);
    expect(second.similarity).toBeGreaterThan(0);
  });

  it('folds case, accents and simple plurals the same way on both sides (language-neutral)', async () => {
    const fr = await query(a, { query: 'mot de passe securite' });
    expect(sourceOrder(fr)[0]).toBe(ids.security);
    const accented = await query(a, { query: 'TÉLÉTRAVAIL' });
    expect(sourceOrder(accented)).toEqual([ids.security]);
    const plural = await query(a, { query: 'parcel' });
    expect(sourceOrder(plural)).toEqual([ids.shipping]);
    const singularToPlural = await query(a, { query: 'orders' });
    expect(sourceOrder(singularToPlural)).toEqual([ids.shipping]);
  });

  it('supports web-search syntax: quoted phrases and exclusions', async () => {
    const phrase = await query(a, { query: '"annual plans"' });
    expect(sourceOrder(phrase)).toEqual([ids.refunds]);
    const exclude = await query(a, { query: 'refund -shipping' });
    expect(sourceOrder(exclude)).toEqual([ids.refunds]);
  });

  it('searches only the workspace of the key, and only what is asked', async () => {
    const res = await query(b, { query: 'refund policy' });
    expect(sourceOrder(res)).toEqual([ids.other]);
    const some = await query(a, { query: 'refund', sourceIds: [ids.shipping, ids.other] });
    expect(sourceOrder(some)).toEqual([ids.shipping]);
    const nothing = await query(a, { query: 'zeppelin' });
    expect(nothing.body.results).toEqual([]);
    const stopOnly = await query(a, { query: 'the of and' });
    expect(stopOnly.status).toBe(200);
  });

  it('topK bounds the results: default 5, 1 to 20, 8 for list questions', async () => {
    const tenant = await t.tenant();
    const many = Array.from({ length: 12 }, (_, i) => `# Topic ${i}\n\nThe widget rule number ${i} applies to widgets.`);
    await ingest(t, tenant, Buffer.from(many.join('\n\n'), 'utf8'), 'widgets.md');
    expect((await query(tenant, { query: 'widget rule' })).body.results).toHaveLength(5);
    expect((await query(tenant, { query: 'list the widget rules' })).body.results).toHaveLength(8);
    // The chat turn's rule (docs/chat.md, Retrieval): asking for examples or steps is a list question too.
    expect((await query(tenant, { query: 'widget rule examples' })).body.results).toHaveLength(8);
    expect((await query(tenant, { query: 'widget rule', topK: 1 })).body.results).toHaveLength(1);
    expect((await query(tenant, { query: 'widget rule', topK: 20 })).body.results).toHaveLength(12);
    for (const topK of [0, 21, 2.5, '3']) {
      const res = await query(tenant, { query: 'widget', topK });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('topK');
    }
  });

  it('400 naming the field for a missing query or bad scope; 404 for an unknown agent', async () => {
    for (const body of [{}, { query: '' }, { query: '   ' }, { query: 42 }]) {
      const res = await query(a, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^query/);
    }
    const col = await query(a, { query: 'refund', collectionIds: ['kcol_unknown'] });
    expect(col.status).toBe(400);
    expect(col.body.error).toBe('Collection not found');
    const both = await query(a, { query: 'refund', agentId: 'agt_x', sourceIds: [ids.refunds] });
    expect(both.status).toBe(400);
    expect(both.body.error).toContain('agentId');
    const agent = await query(a, { query: 'refund', agentId: 'agt_unknown' });
    expect(agent.status).toBe(404);
    expect(agent.body.error).toBe('Agent not found: agt_unknown');
  });

  it("with agentId, reads only the agent's linked sources and collections", async () => {
    const agent = (await api(t.baseUrl, a.key).post('/v1/agents', persona('Reader'))).body.agent;
    expect((await query(a, { query: 'refund', agentId: agent.id })).body.results).toEqual([]);
    const col = (await api(t.baseUrl, a.key).post('/v1/knowledge-collections', { name: 'Logistics' })).body.collection;
    await api(t.baseUrl, a.key).put(`/v1/knowledge-sources/${ids.shipping}`, { collectionId: col.id });
    await api(t.baseUrl, a.key).post(`/v1/knowledge/agents/${agent.id}/links`, { collectionId: col.id });
    const res = await query(a, { query: 'refund', agentId: agent.id });
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0]).toMatchObject({ sourceId: ids.shipping, collectionId: col.id, dossierName: 'Logistics' });
  });

  it('ignores sources that are not ready', async () => {
    await t.app.services.orm.em.fork().execute(`update knowledge_source set status = 'ingesting' where id = ?`, [ids.security]);
    expect((await query(a, { query: 'télétravail' })).body.results).toEqual([]);
    await t.app.services.orm.em.fork().execute(`update knowledge_source set status = 'ready' where id = ?`, [ids.security]);
    expect((await query(a, { query: 'télétravail' })).body.results).toHaveLength(1);
  });

  it('scope knowledge; read-only keys may query; 429 past the route ceiling', async () => {
    const agentsOnly = await t.key(a, { scopes: ['agents'] });
    const denied = await query({ ...a, key: agentsOnly }, { query: 'refund' });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('scope_denied');
    const reader = await t.key(a, { scopes: ['knowledge'], readonly: true });
    expect((await query({ ...a, key: reader }, { query: 'refund' })).status).toBe(200);
    const tenant = await t.tenant();
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) statuses.push((await query(tenant, { query: 'refund' })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('GraphQL knowledgeSearch', () => {
  it('returns the same ranking and rejects the same input', async () => {
    const gql = api(t.baseUrl, a.key).graphql;
    const res = await gql(`query($i: KnowledgeQueryInput!) { knowledgeSearch(input: $i) { ref sourceId section similarity dossierName } }`, {
      i: { query: 'refund annual plans' },
    });
    const rest = await query(a, { query: 'refund annual plans' });
    expect(res.data.knowledgeSearch.map((r: { sourceId: string }) => r.sourceId)).toEqual(sourceOrder(rest));
    const bad = await gql(`query { knowledgeSearch(input: { query: "x", topK: 50 }) { ref } }`);
    expect(bad.errors?.[0]?.message).toBe('topK must be at most 20');
    expect(bad.errors?.[0]?.extensions.status).toBe(400);
  });
});

describe('fixtures used elsewhere stay searchable', () => {
  it('finds the text fixture by a word of its body', async () => {
    const tenant = await t.tenant();
    await ingest(t, tenant, fixtures.text(), 'refunds.txt');
    expect((await query(tenant, { query: 'support email' })).body.results[0].sourceName).toBe('refunds.txt');
  });
});
