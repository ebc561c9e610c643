import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { browser, startPeopleApp, type Browser, type PeopleApp } from './support.js';

let t: PeopleApp;
let model: ScriptedModelServer;
let ws: { workspaceId: string; userId: string; key: string };
let admin: Browser;
let member: Browser;
let memberId: string;
let agentId: string;

const AGENT = '{ name: "Ada", role: "r", personality: "calm", mission: "m", decisionStyle: "d", systemPrompt: "s" }';

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await startPeopleApp({
    env: { SVC_MODEL_BASE_URL: model.baseUrl, SVC_MODEL_API_KEY: 'test-key', SVC_MODEL: 'scripted-model', SVC_MODEL_CLASS: 'standard' },
  });
  ws = await t.workspace();
  await t.person(ws.workspaceId, { email: 'admin@example.test', password: 'admin password 1', role: 'admin' });
  memberId = (await t.person(ws.workspaceId, { email: 'member@example.test', password: 'member password 1', role: 'member' })).id;
  admin = browser(t.baseUrl, { ip: '10.30.0.1' });
  member = browser(t.baseUrl, { ip: '10.30.0.2' });
  expect((await admin.signIn('admin@example.test', 'admin password 1')).status).toBe(200);
  expect((await member.signIn('member@example.test', 'member password 1')).status).toBe(200);
  agentId = (await api(t.baseUrl, ws.key).post('/v1/agents', { name: 'Bob', role: 'r', personality: 'calm', mission: 'm', decisionStyle: 'd', systemPrompt: 's' })).body.agent.id;
});
afterAll(async () => {
  await t?.close();
  await model?.close();
});

type Outcome = 'allowed' | 'admin_required' | 'person_required';

/**
 * The role matrix of docs/people.md, over GraphQL: the operation, then what an admin session, a member
 * session and the workspace's unrestricted API key get. "allowed" means not refused by role or caller
 * kind (the operation may still fail on its own terms, e.g. an unknown id).
 */
const MATRIX: { op: string; doc: () => string; admin: Outcome; member: Outcome; key: Outcome }[] = [
  { op: 'agents', doc: () => '{ agents { id } }', admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'createAgent', doc: () => `mutation { createAgent(input: ${AGENT}) { id } }`, admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'chat', doc: () => `mutation { chat(agentId: "${agentId}", input: { message: "Hello" }) { content } }`, admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'chatSessions', doc: () => '{ chatSessions { id } }', admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'knowledgeCollections', doc: () => '{ knowledgeCollections { id } }', admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'createKnowledgeCollection', doc: () => 'mutation { createKnowledgeCollection(input: { name: "Docs" }) { id } }', admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'tools', doc: () => '{ tools { id } }', admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'webhooks (their own)', doc: () => '{ webhooks { id } }', admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'usage', doc: () => '{ usage { used } }', admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'people', doc: () => '{ people { id } }', admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'apiKeys', doc: () => '{ apiKeys { id } }', admin: 'allowed', member: 'allowed', key: 'allowed' },
  { op: 'createApiKey', doc: () => 'mutation { createApiKey(input: { name: "k" }) { secret } }', admin: 'allowed', member: 'admin_required', key: 'allowed' },
  { op: 'updateApiKey', doc: () => 'mutation { updateApiKey(id: "key_none", input: { name: "k" }) { id } }', admin: 'allowed', member: 'admin_required', key: 'allowed' },
  { op: 'revokeApiKey', doc: () => 'mutation { revokeApiKey(id: "key_none") { id } }', admin: 'allowed', member: 'admin_required', key: 'allowed' },
  { op: 'invitePerson', doc: () => 'mutation { invitePerson(input: { email: "x@example.test" }) { mailed } }', admin: 'allowed', member: 'admin_required', key: 'person_required' },
  { op: 'setPersonRole', doc: () => `mutation { setPersonRole(id: "usr_none", input: { role: member }) { id } }`, admin: 'allowed', member: 'admin_required', key: 'person_required' },
  { op: 'disablePerson', doc: () => 'mutation { disablePerson(id: "usr_none") { id } }', admin: 'allowed', member: 'admin_required', key: 'person_required' },
  { op: 'changePassword', doc: () => 'mutation { changePassword(input: { currentPassword: "wrong one", newPassword: "whatever password" }) }', admin: 'allowed', member: 'allowed', key: 'person_required' },
];

/**
 * The refusal code, or "allowed": no error, or one of the operation's own (an unknown id, a wrong
 * current password). Anything else — a malformed document included — is shown as is and fails the row.
 */
const outcomeOf = (body: { errors?: { extensions: Record<string, unknown> }[] }): string => {
  const code = body.errors?.[0]?.extensions?.code;
  return code === undefined || code === 'not_found' || code === 'validation_failed' ? 'allowed' : String(code);
};

describe('role matrix over GraphQL (docs/people.md)', () => {
  for (const row of MATRIX) {
    it(`${row.op}: admin ${row.admin}, member ${row.member}, API key ${row.key}`, async () => {
      const byAdmin = (await admin.graphql(row.doc())).body;
      const byMember = (await member.graphql(row.doc())).body;
      const byKey = await api(t.baseUrl, ws.key).graphql(row.doc());
      expect({ admin: outcomeOf(byAdmin), member: outcomeOf(byMember), key: outcomeOf(byKey) }).toEqual({ admin: row.admin, member: row.member, key: row.key });
      for (const [body, expected] of [[byMember, row.member], [byKey, row.key]] as const) {
        if (expected !== 'allowed') expect(body.errors?.[0]?.extensions).toMatchObject({ code: expected, status: 403 });
      }
    });
  }
});

describe('a session on GraphQL', () => {
  it('the viewer is the signed-in person, with their role and no key', async () => {
    const res = await member.graphql('{ viewer { userId key { id } person { id email role } workspace { id } } }');
    expect(res.body.data.viewer).toEqual({ userId: memberId, key: null, person: { id: memberId, email: 'member@example.test', role: 'member' }, workspace: { id: ws.workspaceId } });
    const byKey = await api(t.baseUrl, ws.key).graphql('{ viewer { key { id } person { id } } }');
    expect(byKey.data.viewer).toEqual({ key: { id: expect.any(String) }, person: null });
  });

  it("a person's chat turn is metered for the workspace, without a per-key budget", async () => {
    const before = (await admin.graphql('{ usage { used byKey { keyId questions } } }')).body.data.usage;
    const turn = await member.graphql(`mutation { chat(agentId: "${agentId}", input: { message: "How are you?" }) { content } }`);
    expect(turn.body.errors).toBeUndefined();
    expect(turn.body.data.chat.content).toMatch(/Scripted answer/);
    const after = (await admin.graphql('{ usage { used byKey { keyId questions person { id email } } } }')).body.data.usage;
    expect(after.used).toBeGreaterThan(before.used);
    // The console names the row by the person's e-mail (issue 27).
    expect(after.byKey).toContainEqual({ keyId: `person:${memberId}`, questions: expect.any(Number), person: { id: memberId, email: 'member@example.test' } });
  });

  it('a key an admin creates while signed in is independent and works; a cookie does not open REST routes', async () => {
    const created = await admin.graphql('mutation { createApiKey(input: { name: "from the console" }) { secret } }');
    const secret = created.body.data.createApiKey.secret;
    expect((await api(t.baseUrl, secret).get('/v1/agents')).status).toBe(200);
    // REST keeps API keys: the session cookie authenticates nothing there.
    expect((await member.get('/v1/agents')).status).toBe(401);
    expect((await admin.get('/developer/api-keys')).status).toBe(401);
  });

  it('a REST route only people may use answers an API key with 403 person_required in the native shape', async () => {
    const res = await api(t.baseUrl, ws.key).post('/auth/password', { currentPassword: 'whatever it is', newPassword: 'whatever it becomes' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Only a signed-in person may do this; API keys are refused', code: 'person_required' });
    const anonymous = await api(t.baseUrl).post('/auth/password', { currentPassword: 'whatever it is', newPassword: 'whatever it becomes' });
    expect(anonymous.status).toBe(401);
  });

  it('a member promoted to admin gets the rights at the next operation; the last admin stays', async () => {
    const invite = 'mutation { invitePerson(input: { email: "second@example.test" }) { mailed } }';
    expect(outcomeOf((await member.graphql(invite)).body)).toBe('admin_required');
    const promoted = await admin.graphql(`mutation { setPersonRole(id: "${memberId}", input: { role: admin }) { role } }`);
    expect(promoted.body.data.setPersonRole.role).toBe('admin');
    expect((await member.graphql(invite)).body.errors).toBeUndefined();
    await admin.graphql(`mutation { setPersonRole(id: "${memberId}", input: { role: member }) { role } }`);
    const adminId = (await admin.get('/auth/me')).body.user.id;
    const last = await admin.graphql(`mutation { setPersonRole(id: "${adminId}", input: { role: member }) { role } }`);
    expect(last.body.errors?.[0]?.message).toMatch(/at least one active admin/);
    expect((await admin.get('/auth/me')).body.user.role).toBe('admin');
  });

  it('disabling a person closes their sessions at once', async () => {
    const p = await t.person(ws.workspaceId, { email: 'leaving@example.test', password: 'leaving password' });
    const b = browser(t.baseUrl, { ip: '10.30.0.9' });
    expect((await b.signIn('leaving@example.test', 'leaving password')).status).toBe(200);
    expect((await b.graphql('{ agents { id } }')).body.errors).toBeUndefined();
    await admin.graphql(`mutation { disablePerson(id: "${p.id}") { state } }`);
    expect((await b.graphql('{ agents { id } }')).body.errors?.[0]?.extensions).toMatchObject({ code: 'unauthorized' });
    expect((await b.get('/auth/me')).status).toBe(401);
  });
});
