import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { mailText } from '../support/smtp-server.js';
import { browser, linkIn, startPeopleApp, type PeopleApp } from './support.js';

const hasPg = await postgresAvailable();

// The CLI (and the first start) and the server are processes of their own on one database: real PostgreSQL.
describe.skipIf(!hasPg)('operators: CLI user commands and the first admin link', () => {
  let t: PeopleApp;

  const svc = (...args: string[]) =>
    runCli({ DATABASE_URL: t.db.url, LOG_LEVEL: 'warn', SVC_SMTP_URL: t.smtp.url, SVC_PUBLIC_URL: t.baseUrl }, ...args);

  beforeAll(async () => {
    t = await startPeopleApp();
  });
  afterAll(() => t?.close());

  it('user create with an e-mail, set-password and invite print JSON; the accounts sign in', async () => {
    const ws = await t.workspace();
    // Today's form: a user only keys act for.
    const plain = await svc('user', 'create', '--workspace', ws.workspaceId);
    expect(plain.json).toEqual({ user: { id: expect.any(String), workspaceId: ws.workspaceId } });

    const created = await svc('user', 'create', '--workspace', ws.workspaceId, '--email', 'Ops@Example.test', '--role', 'admin', '--password', 'operator password');
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      user: { id: expect.any(String), email: 'ops@example.test', name: null, role: 'admin', state: 'active', workspaceId: ws.workspaceId, createdAt: expect.any(String) },
    });
    expect(created.stdout).not.toContain('operator password');
    const b = browser(t.baseUrl, { ip: '10.50.0.1' });
    expect((await b.signIn('ops@example.test', 'operator password')).body.user).toMatchObject({ role: 'admin' });

    const set = await svc('user', 'set-password', created.json.user.id, '--password', 'operator password 2');
    expect(set.json.user).toMatchObject({ id: created.json.user.id, state: 'active' });
    expect((await b.get('/auth/me')).status).toBe(401); // the operator's change closes the sessions
    expect((await browser(t.baseUrl, { ip: '10.50.0.2' }).signIn('ops@example.test', 'operator password 2')).status).toBe(200);

    const invited = await svc('user', 'invite', '--workspace', ws.workspaceId, '--email', 'colleague@example.test', '--role', 'member');
    expect(invited.json).toEqual({
      user: expect.objectContaining({ email: 'colleague@example.test', role: 'member', state: 'invited' }),
      invitation: { expiresAt: expect.any(String), mailed: true },
    });
    await expect.poll(() => t.smtp.to('colleague@example.test').length).toBe(1);
    const { link, token } = linkIn(mailText(t.smtp.to('colleague@example.test')[0]));
    expect(link.startsWith(`${t.baseUrl}/auth/set-password#invite=`)).toBe(true);
    expect(invited.stdout).not.toContain(token);
    expect((await browser(t.baseUrl).post('/auth/invitations/accept', { token, password: 'colleague password' })).status).toBe(200);
  }, 120_000);

  it('refuses bad input readably', async () => {
    const ws = await t.workspace();
    for (const [args, message] of [
      [['user', 'create', '--workspace', ws.workspaceId, '--email', 'not-an-email'], /e-mail address/],
      [['user', 'create', '--workspace', ws.workspaceId, '--email', 'a@example.test', '--role', 'owner'], /role must be one of admin, member/],
      [['user', 'create', '--workspace', ws.workspaceId, '--email', 'a@example.test', '--password', 'short'], /at least 10 characters/],
      [['user', 'set-password', 'usr_missing', '--password', 'long enough password'], /User not found/],
      [['user', 'invite', '--workspace', ws.workspaceId], /--email is required/],
    ] as const) {
      const res = await svc(...args);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stderr).toMatch(message);
    }
    await svc('user', 'create', '--workspace', ws.workspaceId, '--email', 'twice@example.test');
    const dup = await svc('user', 'create', '--workspace', ws.workspaceId, '--email', 'TWICE@example.test');
    expect(dup.stderr).toMatch(/already exists/);
  }, 120_000);
});

describe.skipIf(!hasPg)('first start', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.kill();
    await db?.drop();
  });

  it('prints a sign-in link for the first admin besides the API key; the link sets an e-mail and a password', async () => {
    server = await startServerProcess({ DATABASE_URL: db.url! });
    await expect.poll(() => server!.output().includes('/auth/set-password#invite='), { timeout: 20_000 }).toBe(true);
    expect(server.firstKey).toMatch(/^svc_/);
    const { token } = linkIn(server.output());
    const b = browser(server.baseUrl);
    // The first admin has no e-mail yet: the acceptance asks for one.
    expect((await b.post('/auth/invitations/accept', { token, password: 'first admin password' })).body.field).toBe('email');
    const res = await b.post('/auth/invitations/accept', { token, password: 'first admin password', email: 'owner@example.test' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: 'owner@example.test', role: 'admin' });
    const viewer = await b.graphql('{ viewer { person { role } workspace { id } } }');
    expect(viewer.body.data.viewer.person.role).toBe('admin');
  }, 240_000);
});
