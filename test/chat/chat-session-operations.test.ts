/**
 * Chat sessions renamed and deleted over GraphQL (issue 27): `renameChatSession` and `deleteChatSession`,
 * declared operations (src/modules/chat/session-operations.ts). A session is its user's own: another user
 * of the workspace, or another workspace, gets the 404 of a missing session; read-only keys are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { createAgent, persona } from '../support/agents.js';
import { startScriptedChatApp } from '../support/chat.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import type { TestApp, TestTenant } from '../support/app.js';

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let ada: string;

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp());
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada'));
});
afterAll(async () => {
  await t.close();
  await model.close();
});

const RENAME = `mutation($id: ID!, $title: String!) { renameChatSession(id: $id, title: $title) { id title messageCount } }`;
const DELETE = `mutation($id: ID!) { deleteChatSession(id: $id) }`;

async function session(key: string, message: string): Promise<string> {
  const res = await api(t.baseUrl, key).post(`/v1/agents/${ada}/chat`, { message, consult: { enabled: false } });
  expect(res.status).toBe(200);
  return res.body.sessionId;
}

describe('renameChatSession', () => {
  it('renames the caller’s session (trimmed, on one line); the list shows the new title', async () => {
    const id = await session(a.key, 'What is the VAT rate?');
    const res = await api(t.baseUrl, a.key).graphql(RENAME, { id, title: '  VAT\n  questions  ' });
    expect(res.errors).toBeUndefined();
    expect(res.data.renameChatSession).toEqual({ id, title: 'VAT questions', messageCount: 2 });
    const list = await api(t.baseUrl, a.key).graphql(`{ chatSessions { id title } }`);
    expect(list.data.chatSessions.find((s: { id: string }) => s.id === id).title).toBe('VAT questions');
  });

  it('an empty or too long title is a 400 validation_failed naming the field; the title stays', async () => {
    const id = await session(a.key, 'Keep this title');
    for (const title of ['   ', 'x'.repeat(81)]) {
      const res = await api(t.baseUrl, a.key).graphql(RENAME, { id, title });
      expect(res.errors![0]!.extensions).toMatchObject({ code: 'validation_failed', status: 400, field: 'title' });
    }
    const read = await api(t.baseUrl, a.key).graphql(`query($id: ID!) { chatSession(id: $id) { title } }`, { id });
    expect(read.data.chatSession.title).toBe('Keep this title');
  });

  it('another user of the workspace, another workspace and an unknown id get the 404 of a missing session', async () => {
    const id = await session(a.key, 'Mine only');
    const colleague = await t.user(a.workspaceId);
    const stranger = await t.tenant();
    for (const key of [colleague.key, stranger.key]) {
      const res = await api(t.baseUrl, key).graphql(RENAME, { id, title: 'Taken' });
      expect(res.errors![0]).toMatchObject({ message: `Session not found: ${id}`, extensions: { code: 'not_found', status: 404 } });
      const del = await api(t.baseUrl, key).graphql(DELETE, { id });
      expect(del.errors![0]).toMatchObject({ message: `Session not found: ${id}`, extensions: { status: 404 } });
    }
    const missing = await api(t.baseUrl, a.key).graphql(RENAME, { id: 'ses_missing', title: 'x' });
    expect(missing.errors![0]!.extensions).toMatchObject({ status: 404 });
    const read = await api(t.baseUrl, a.key).graphql(`query($id: ID!) { chatSession(id: $id) { title messageCount } }`, { id });
    expect(read.data.chatSession).toEqual({ title: 'Mine only', messageCount: 2 });
  });

  it('a read-only key is refused, as for every write', async () => {
    const id = await session(a.key, 'Read-only check');
    const readonly = await t.key({ workspaceId: a.workspaceId, userId: a.userId }, { readonly: true });
    const res = await api(t.baseUrl, readonly).graphql(RENAME, { id, title: 'Nope' });
    expect(res.errors![0]!.extensions).toMatchObject({ status: 403 });
    const del = await api(t.baseUrl, readonly).graphql(DELETE, { id });
    expect(del.errors![0]!.extensions).toMatchObject({ status: 403 });
  });
});

describe('deleteChatSession', () => {
  it('deletes the session and its messages; it is then a 404 and gone from the list; the agent still answers elsewhere', async () => {
    const id = await session(a.key, 'Delete me');
    const res = await api(t.baseUrl, a.key).graphql(DELETE, { id });
    expect(res.errors).toBeUndefined();
    expect(res.data.deleteChatSession).toBe(true);
    const read = await api(t.baseUrl, a.key).graphql(`query($id: ID!) { chatSession(id: $id) { id } }`, { id });
    expect(read.errors![0]!.extensions).toMatchObject({ status: 404 });
    const list = await api(t.baseUrl, a.key).graphql(`{ chatSessions(limit: 100) { id } }`);
    expect(list.data.chatSessions.map((s: { id: string }) => s.id)).not.toContain(id);
    const [row] = await t.app.services.orm.em.fork().execute<{ n: unknown }[]>(`select count(*) as n from chat_message where session_id = ?`, [id]);
    expect(Number(row!.n)).toBe(0);
    // Continuing a deleted session is the 404 of a missing one.
    const again = await api(t.baseUrl, a.key).post(`/v1/agents/${ada}/chat`, { message: 'Still there?', sessionId: id });
    expect(again.status).toBe(404);
    const twice = await api(t.baseUrl, a.key).graphql(DELETE, { id });
    expect(twice.errors![0]!.extensions).toMatchObject({ status: 404 });
  });
});
