import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let a: TestTenant;
let b: TestTenant;

const persona = (name: string) => ({
  name,
  role: 'Analyst',
  personality: 'calm and precise',
  mission: 'Answer finance questions',
  decisionStyle: 'data first',
  systemPrompt: 'Always cite numbers.',
});

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
  b = await t.tenant();
});
afterAll(() => t.close());

describe('POST /v1/agents', () => {
  it('201 with every Agent field, console-only arrays empty', async () => {
    const res = await api(t.baseUrl, a.key).post('/v1/agents', persona('Ada'));
    expect(res.status).toBe(201);
    const agent = res.body.agent;
    expect(agent).toMatchObject({
      ...persona('Ada'),
      userId: a.userId,
      workspaceId: a.workspaceId,
      isDevilsAdvocate: false,
      expertise: [],
      outOfScope: [],
      collectionScope: [],
      checklist: [],
      isShared: false,
    });
    expect(typeof agent.id).toBe('string');
    expect(new Date(agent.createdAt).toISOString()).toBe(agent.createdAt);
  });

  it('accepts isDevilsAdvocate', async () => {
    const res = await api(t.baseUrl, a.key).post('/v1/agents', { ...persona('Devil'), isDevilsAdvocate: true });
    expect(res.status).toBe(201);
    expect(res.body.agent.isDevilsAdvocate).toBe(true);
  });

  for (const field of ['name', 'role', 'personality', 'mission', 'decisionStyle', 'systemPrompt']) {
    it(`400 naming ${field} when missing or empty`, async () => {
      const missing = { ...persona('X') } as Record<string, unknown>;
      delete missing[field];
      const r1 = await api(t.baseUrl, a.key).post('/v1/agents', missing);
      expect(r1.status).toBe(400);
      expect(r1.body.error).toContain(field);
      const r2 = await api(t.baseUrl, a.key).post('/v1/agents', { ...persona('X'), [field]: '' });
      expect(r2.status).toBe(400);
      expect(r2.body.error).toContain(field);
    });
  }

  it('400 for wrong types, naming the field', async () => {
    const r1 = await api(t.baseUrl, a.key).post('/v1/agents', { ...persona('X'), role: 42 });
    expect(r1.status).toBe(400);
    expect(r1.body.error).toContain('role');
    const r2 = await api(t.baseUrl, a.key).post('/v1/agents', { ...persona('X'), isDevilsAdvocate: 'yes' });
    expect(r2.status).toBe(400);
    expect(r2.body.error).toContain('isDevilsAdvocate');
  });

  it('400 for malformed JSON and non-object bodies, 413 for oversized bodies', async () => {
    const bad = await api(t.baseUrl, a.key).post('/v1/agents', '{"name": ');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/malformed json/i);
    const arr = await api(t.baseUrl, a.key).post('/v1/agents', '[1,2]');
    expect(arr.status).toBe(400);
    expect(typeof arr.body.error).toBe('string');
    const huge = await api(t.baseUrl, a.key).post('/v1/agents', { ...persona('Big'), systemPrompt: 'x'.repeat(2_000_000) });
    expect(huge.status).toBe(413);
    expect(typeof huge.body.error).toBe('string');
  });
});

describe('malformed paths', () => {
  it('a path id with broken percent-encoding is a 400 in the native shape, not a 500', async () => {
    for (const res of [
      await api(t.baseUrl, a.key).put('/v1/agents/%E0%A4%A', { name: 'x' }),
      await api(t.baseUrl, a.key).delete('/v1/agents/%E0%A4%A'),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Malformed URL encoding in path' });
    }
  });
});

describe('NUL characters', () => {
  it('in a field are a 400 naming it (nothing stored); in a path id the agent is not found', async () => {
    const before = (await api(t.baseUrl, a.key).get('/v1/agents')).body.agents.length;
    const created = await api(t.baseUrl, a.key).post('/v1/agents', { ...persona('Nul'), mission: 'a\u0000b' });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ error: 'mission must not contain NUL characters', field: 'mission' });
    const updated = await api(t.baseUrl, a.key).put(`/v1/agents/${(await api(t.baseUrl, a.key).post('/v1/agents', persona('Clean'))).body.agent.id}`, { role: '\u0000' });
    expect(updated.status).toBe(400);
    expect(updated.body.error).toBe('role must not contain NUL characters');
    expect((await api(t.baseUrl, a.key).get('/v1/agents')).body.agents.length).toBe(before + 1);
    const byPath = await api(t.baseUrl, a.key).put('/v1/agents/a%00b', { name: 'x' });
    expect(byPath.status).toBe(404);
    expect(byPath.body).toEqual({ error: 'Agent not found: a\u0000b' });
  });
});

describe('GET /v1/agents', () => {
  it('lists only the workspace agents, oldest first', async () => {
    const names = ['First', 'Second', 'Third'];
    for (const n of names) {
      await api(t.baseUrl, b.key).post('/v1/agents', persona(n));
      t.clock.advance(1000);
    }
    const res = await api(t.baseUrl, b.key).get('/v1/agents');
    expect(res.status).toBe(200);
    expect(res.body.agents.map((x: { name: string }) => x.name)).toEqual(names);
    expect(res.body.agents.every((x: { workspaceId: string }) => x.workspaceId === b.workspaceId)).toBe(true);
  });
});

describe('PUT /v1/agents/:id', () => {
  it('partial update: omitted and null keep the value, empty strings are stored', async () => {
    const created = (await api(t.baseUrl, a.key).post('/v1/agents', persona('Put'))).body.agent;
    const res = await api(t.baseUrl, a.key).put(`/v1/agents/${created.id}`, { role: 'Lead', mission: null, systemPrompt: '' });
    expect(res.status).toBe(200);
    expect(res.body.agent).toMatchObject({ name: 'Put', role: 'Lead', mission: created.mission, systemPrompt: '' });
    const again = await api(t.baseUrl, a.key).put(`/v1/agents/${created.id}`, {});
    expect(again.body.agent.role).toBe('Lead');
  });

  it('turns a conversational agent into a poste when personality and decisionStyle are emptied', async () => {
    const created = (await api(t.baseUrl, a.key).post('/v1/agents', persona('Poste'))).body.agent;
    const res = await api(t.baseUrl, a.key).put(`/v1/agents/${created.id}`, { personality: '', decisionStyle: '' });
    expect(res.status).toBe(200);
    expect(res.body.agent).toMatchObject({ personality: '', decisionStyle: '' });
    const gql = await api(t.baseUrl, a.key).graphql(`query($id: ID!) { agent(id: $id) { isPoste } }`, { id: created.id });
    expect(gql.data.agent.isPoste).toBe(true);
  });

  it('400 for a wrong type, 404 for an unknown id and for another workspace', async () => {
    const created = (await api(t.baseUrl, a.key).post('/v1/agents', persona('Own'))).body.agent;
    const wrong = await api(t.baseUrl, a.key).put(`/v1/agents/${created.id}`, { name: 5 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toContain('name');
    const unknown = await api(t.baseUrl, a.key).put('/v1/agents/agt_missing', { name: 'x' });
    const foreign = await api(t.baseUrl, b.key).put(`/v1/agents/${created.id}`, { name: 'x' });
    expect(unknown.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: `Agent not found: ${created.id}` });
    expect(unknown.body).toEqual({ error: 'Agent not found: agt_missing' });
  });
});

describe('DELETE /v1/agents/:id', () => {
  it('204 with no body, removes the agent and its memories; 404 afterwards and across workspaces', async () => {
    const created = (await api(t.baseUrl, a.key).post('/v1/agents', persona('Gone'))).body.agent;
    const conn = t.app.services.orm.em.fork().getConnection();
    await conn.execute(
      `insert into agent_memory (id, workspace_id, agent_id, user_id, key, value, type, provenance, salience, created_at)
       values ('mem_1', ?, ?, ?, 'k', 'v', 'fact', 'chat', 0.5, now())`,
      [a.workspaceId, created.id, a.userId],
    );
    const foreign = await api(t.baseUrl, b.key).delete(`/v1/agents/${created.id}`);
    expect(foreign.status).toBe(404);
    const res = await api(t.baseUrl, a.key).delete(`/v1/agents/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const left = await conn.execute('select count(*)::int as n from agent_memory where agent_id = ?', [created.id]);
    expect(left[0].n).toBe(0);
    expect((await api(t.baseUrl, a.key).delete(`/v1/agents/${created.id}`)).status).toBe(404);
  });
});

describe('GraphQL agrees with REST', () => {
  it('same agents list, same fields', async () => {
    const rest = await api(t.baseUrl, b.key).get('/v1/agents');
    const fields = Object.keys(rest.body.agents[0]).join(' ');
    const gql = await api(t.baseUrl, b.key).graphql(`{ agents { ${fields} } }`);
    expect(gql.data.agents).toEqual(rest.body.agents);
  });

  it('createAgent, updateAgent and deleteAgent give the REST results and errors', async () => {
    const c = api(t.baseUrl, a.key);
    const created = await c.graphql(`mutation($i: CreateAgentInput!) { createAgent(input: $i) { id name role isDevilsAdvocate expertise } }`, {
      i: persona('Gql'),
    });
    expect(created.data.createAgent).toMatchObject({ name: 'Gql', role: 'Analyst', isDevilsAdvocate: false, expertise: [] });
    const id = created.data.createAgent.id;
    const rest = await c.get('/v1/agents');
    expect(rest.body.agents.some((x: { id: string }) => x.id === id)).toBe(true);

    const missing = await c.graphql(`mutation($i: CreateAgentInput!) { createAgent(input: $i) { id } }`, { i: { ...persona('x'), mission: '' } });
    const restMissing = await c.post('/v1/agents', { ...persona('x'), mission: '' });
    expect(missing.errors?.[0].message).toBe(restMissing.body.error);
    expect(missing.errors?.[0].extensions.status).toBe(400);

    const updated = await c.graphql(`mutation($id: ID!) { updateAgent(id: $id, input: { role: "Boss", mission: null }) { role mission } }`, { id });
    expect(updated.data.updateAgent).toEqual({ role: 'Boss', mission: persona('x').mission });

    const foreign = await api(t.baseUrl, b.key).graphql(`mutation($id: ID!) { deleteAgent(id: $id) }`, { id });
    expect(foreign.errors?.[0]).toMatchObject({ message: `Agent not found: ${id}`, extensions: { status: 404 } });
    const deleted = await c.graphql(`mutation($id: ID!) { deleteAgent(id: $id) }`, { id });
    expect(deleted.data.deleteAgent).toBe(true);
  });

  it('same keys and scopes: scope_denied and read_only_key carry their codes', async () => {
    const restricted = await t.key(a, { scopes: ['webhooks'] });
    const denied = await api(t.baseUrl, restricted).graphql(`{ agents { id } }`);
    expect(denied.errors?.[0].extensions.code).toBe('scope_denied');
    const ro = await t.key(a, { readonly: true });
    // SPEC requires the six persona fields, so CreateAgentInput marks them non-null.
    const refused = await api(t.baseUrl, ro).graphql(`mutation($i: CreateAgentInput!) { createAgent(input: $i) { id } }`, { i: persona('x') });
    expect(refused.errors?.[0].extensions.code).toBe('read_only_key');
    const viewer = await api(t.baseUrl, restricted).graphql(`{ viewer { userId restricted workspace { id } key { scopes readonly } } }`);
    expect(viewer.data.viewer).toEqual({ userId: a.userId, restricted: true, workspace: { id: a.workspaceId }, key: { scopes: ['webhooks'], readonly: false } });
  });
});
