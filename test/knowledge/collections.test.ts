import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { fixtures, ingest } from '../support/knowledge.js';
import { persona } from '../support/agents.js';

let t: TestApp;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
  b = await t.tenant();
});
afterAll(() => t.close());

const A = () => api(t.baseUrl, a.key);

describe('collections', () => {
  it('create, list (oldest first, with source counts), read, rename, delete keeping the sources', async () => {
    const created = await A().post('/v1/knowledge-collections', { name: 'Contracts', description: 'Signed contracts' });
    expect(created.status).toBe(201);
    expect(created.body.collection).toMatchObject({ name: 'Contracts', description: 'Signed contracts', sourceCount: 0, userId: a.userId });
    const col = created.body.collection;
    const second = (await A().post('/v1/knowledge-collections', { name: 'HR' })).body.collection;
    const source = await ingest(t, a, fixtures.text(), 'contract.txt', { collectionId: col.id });
    expect(source.collectionId).toBe(col.id);

    const list = await A().get('/v1/knowledge-collections');
    expect(list.body.collections.map((c: { id: string; sourceCount: number }) => [c.id, c.sourceCount])).toEqual([
      [col.id, 1],
      [second.id, 0],
    ]);
    expect((await A().get(`/v1/knowledge-collections/${col.id}`)).body.collection.sourceCount).toBe(1);
    const renamed = await A().put(`/v1/knowledge-collections/${col.id}`, { name: 'Agreements', description: null });
    expect(renamed.body.collection).toMatchObject({ name: 'Agreements', description: 'Signed contracts' });
    const filtered = await A().get(`/v1/knowledge-sources?collectionId=${col.id}`);
    expect(filtered.body.sources.map((s: { id: string }) => s.id)).toEqual([source.id]);

    expect((await api(t.baseUrl, b.key).get(`/v1/knowledge-collections/${col.id}`)).status).toBe(404);
    expect((await api(t.baseUrl, b.key).delete(`/v1/knowledge-collections/${col.id}`)).status).toBe(404);
    expect((await A().delete(`/v1/knowledge-collections/${col.id}`)).status).toBe(204);
    const missing = await A().get(`/v1/knowledge-collections/${col.id}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(`Collection not found: ${col.id}`);
    const kept = await A().get(`/v1/knowledge-sources/${source.id}`);
    expect(kept.body.source).toMatchObject({ status: 'ready', collectionId: null });
  });

  it('400 naming the field for bad input', async () => {
    for (const body of [{}, { name: '' }, { name: 3 }]) {
      const res = await A().post('/v1/knowledge-collections', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^name/);
    }
    const desc = await A().post('/v1/knowledge-collections', { name: 'x', description: 5 });
    expect(desc.status).toBe(400);
    expect(desc.body.error).toMatch(/^description/);
  });
});

describe('agent links and collectionScope', () => {
  it("links sources and collections, reflected in the agent's collectionScope in link order; unlink removes", async () => {
    const agent = (await A().post('/v1/agents', persona('Librarian'))).body.agent;
    const col = (await A().post('/v1/knowledge-collections', { name: 'Policies' })).body.collection;
    const source = await ingest(t, a, fixtures.text(), 'refunds.txt');

    const l1 = await A().post(`/v1/knowledge/agents/${agent.id}/links`, { collectionId: col.id });
    expect(l1.status).toBe(200);
    const l2 = await A().post(`/v1/knowledge/agents/${agent.id}/links`, { sourceId: source.id });
    expect(l2.body.knowledge).toEqual({ agentId: agent.id, sourceIds: [source.id], collectionIds: [col.id], collectionScope: [col.id, source.id] });
    const again = await A().post(`/v1/knowledge/agents/${agent.id}/links`, { sourceId: source.id });
    expect(again.body.knowledge.collectionScope).toEqual([col.id, source.id]);

    const agents = await A().get('/v1/agents');
    expect(agents.body.agents.find((x: { id: string }) => x.id === agent.id).collectionScope).toEqual([col.id, source.id]);
    expect((await A().get(`/v1/knowledge/agents/${agent.id}`)).body.knowledge.collectionScope).toEqual([col.id, source.id]);

    expect((await A().delete(`/v1/knowledge/agents/${agent.id}/links/${col.id}`)).status).toBe(204);
    expect((await A().get(`/v1/knowledge/agents/${agent.id}`)).body.knowledge.collectionScope).toEqual([source.id]);
    const gone = await A().delete(`/v1/knowledge/agents/${agent.id}/links/${col.id}`);
    expect(gone.status).toBe(404);

    // Deleting a linked source drops it from every scope.
    await A().delete(`/v1/knowledge-sources/${source.id}`);
    const after = await A().get('/v1/agents');
    expect(after.body.agents.find((x: { id: string }) => x.id === agent.id).collectionScope).toEqual([]);
  });

  it('deleting a linked collection drops it from the scope; deleting the agent drops its links', async () => {
    const agent = (await A().post('/v1/agents', persona('Clerk'))).body.agent;
    const col = (await A().post('/v1/knowledge-collections', { name: 'Temp' })).body.collection;
    await A().post(`/v1/knowledge/agents/${agent.id}/links`, { collectionId: col.id });
    await A().delete(`/v1/knowledge-collections/${col.id}`);
    expect((await A().get(`/v1/knowledge/agents/${agent.id}`)).body.knowledge.collectionScope).toEqual([]);
    const col2 = (await A().post('/v1/knowledge-collections', { name: 'Temp2' })).body.collection;
    await A().post(`/v1/knowledge/agents/${agent.id}/links`, { collectionId: col2.id });
    await A().delete(`/v1/agents/${agent.id}`);
    const rows = await t.app.services.orm.em.fork().execute(`select count(*)::int as n from agent_knowledge_link where agent_id = ?`, [agent.id]);
    expect(rows[0].n).toBe(0);
  });

  it('400 for neither or both ids and for unknown or foreign targets; 404 for an unknown agent', async () => {
    const agent = (await A().post('/v1/agents', persona('Strict'))).body.agent;
    const foreignSource = await ingest(t, b, fixtures.text(), 'b.txt');
    const foreignCol = (await api(t.baseUrl, b.key).post('/v1/knowledge-collections', { name: 'B' })).body.collection;
    const cases: [unknown, RegExp][] = [
      [{}, /sourceId or collectionId/],
      [{ sourceId: 'ksrc_1', collectionId: 'kcol_1' }, /exactly one/],
      [{ sourceId: foreignSource.id }, /^Knowledge source not found$/],
      [{ collectionId: foreignCol.id }, /^Collection not found$/],
      [{ sourceId: 12 }, /sourceId/],
    ];
    for (const [body, message] of cases) {
      const res = await A().post(`/v1/knowledge/agents/${agent.id}/links`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    const unknown = await A().post('/v1/knowledge/agents/agt_nope/links', { sourceId: foreignSource.id });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Agent not found: agt_nope');
    const otherAgent = (await api(t.baseUrl, b.key).post('/v1/agents', persona('B agent'))).body.agent;
    expect((await A().get(`/v1/knowledge/agents/${otherAgent.id}`)).status).toBe(404);
  });

  it('read-only keys read links but cannot change them', async () => {
    const agent = (await A().post('/v1/agents', persona('RO'))).body.agent;
    const reader = await t.key(a, { scopes: ['knowledge'], readonly: true });
    expect((await api(t.baseUrl, reader).get(`/v1/knowledge/agents/${agent.id}`)).status).toBe(200);
    const res = await api(t.baseUrl, reader).post(`/v1/knowledge/agents/${agent.id}/links`, { collectionId: 'kcol_x' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('read_only_key');
    expect((await api(t.baseUrl, reader).post('/v1/knowledge-collections', { name: 'x' })).body.code).toBe('read_only_key');
  });
});

describe('GraphQL', () => {
  it('lists sources with their collection and collections with their sources (batched), mirrors REST errors', async () => {
    const tenant = await t.tenant();
    const gql = api(t.baseUrl, tenant.key).graphql;
    const created = await gql(`mutation { createKnowledgeCollection(input: { name: "Dossier A" }) { id name sourceCount } }`);
    const colId = created.data.createKnowledgeCollection.id;
    const s1 = await ingest(t, tenant, fixtures.text(), 'one.txt', { collectionId: colId });
    const s2 = await ingest(t, tenant, fixtures.markdown(), 'two.md', { collectionId: colId });
    const s3 = await ingest(t, tenant, fixtures.html(), 'three.html');
    const res = await gql(`{
      knowledgeCollections { id name sourceCount sources { id name status } }
      knowledgeSources { id name status collection { id name } }
    }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.knowledgeCollections).toEqual([
      { id: colId, name: 'Dossier A', sourceCount: 2, sources: [
        { id: s2.id, name: 'two.md', status: 'ready' },
        { id: s1.id, name: 'one.txt', status: 'ready' },
      ] },
    ]);
    expect(res.data.knowledgeSources.map((s: { id: string; collection: { id: string } | null }) => [s.id, s.collection?.id ?? null])).toEqual([
      [s3.id, null],
      [s2.id, colId],
      [s1.id, colId],
    ]);
    const agent = (await api(t.baseUrl, tenant.key).post('/v1/agents', persona('G'))).body.agent;
    const linked = await gql(`mutation($a: ID!, $c: String) { linkKnowledge(agentId: $a, collectionId: $c) { collectionScope } }`, { a: agent.id, c: colId });
    expect(linked.data.linkKnowledge.collectionScope).toEqual([colId]);
    const bad = await gql(`mutation($a: ID!) { linkKnowledge(agentId: $a, collectionId: "kcol_missing") { collectionScope } }`, { a: agent.id });
    expect(bad.errors?.[0]).toMatchObject({ message: 'Collection not found', extensions: { status: 400 } });
    const missing = await gql(`{ knowledgeSource(id: "ksrc_missing") { id } }`);
    expect(missing.errors?.[0]).toMatchObject({ message: 'Knowledge source not found: ksrc_missing', extensions: { status: 404 } });
    const deleted = await gql(`mutation($id: ID!) { deleteKnowledgeSource(id: $id) }`, { id: s3.id });
    expect(deleted.data.deleteKnowledgeSource).toBe(true);
  });
});
