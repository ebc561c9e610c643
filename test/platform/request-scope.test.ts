/**
 * The request scope owns what a request must give back (the question hold) and is disposed of exactly
 * once; over HTTP, a GraphQL chat refused after admission gives its hold back when the operation ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestScope } from '../../src/core/request-scope.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { persona } from '../support/agents.js';

describe('RequestScope', () => {
  it('releases what it owns once, children first; a resource taken back is not released', async () => {
    const released: string[] = [];
    const scope = new RequestScope();
    const child = scope.child();
    scope.own('a', 'A', async (v) => void released.push(v));
    scope.own('b', 'B', async (v) => void released.push(v));
    child.own('c', 'C', async (v) => void released.push(v));
    expect(scope.take<string>('b')).toBe('B');
    expect(scope.has('b')).toBe(false);
    await Promise.all([scope.dispose(), scope.dispose()]);
    await scope.dispose();
    expect(released).toEqual(['C', 'A']);
    expect(child.disposed).toBe(true);
  });

  it('releases at once what is owned after its end, and a release failing never keeps the others', async () => {
    const released: string[] = [];
    const scope = new RequestScope();
    scope.own('bad', 'X', async () => {
      throw new Error('boom');
    });
    scope.own('good', 'G', async (v) => void released.push(v));
    await scope.dispose();
    scope.own('late', 'L', async (v) => void released.push(v));
    await Promise.resolve();
    expect(released).toEqual(['G', 'L']);
  });
});

describe('question holds through GraphQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('a chat refused after admission (unknown session) leaves no hold once the operation ends', async () => {
    const a = await t.tenant({ plan: 'trial', seats: 1 });
    const agentId = (await api(t.baseUrl, a.key).post('/v1/agents', persona('Ada'))).body.agent.id;
    const res = await api(t.baseUrl, a.key).graphql('mutation($id: ID) { chat(agentId: $id, input: { message: "hi", sessionId: "ses_missing" }) { content } }', {
      id: agentId,
    });
    expect(res.errors![0]!.extensions).toMatchObject({ status: 404 });
    const held = async () =>
      (await t.app.services.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from question_hold where workspace_id = ?', [a.workspaceId]))[0]!.n;
    await expect.poll(held).toBe(0);
  });
});
