import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_TTL_MS, RESET_TTL_MS } from '../../src/modules/people/people.service.js';
import { LINK_FAILURE_LIMIT, RESET_REQUEST_LIMITS, THROTTLE_WINDOW_MS } from '../../src/modules/people/throttle.js';
import { mailText } from '../support/smtp-server.js';
import { browser, linkIn, startPeopleApp, type PeopleApp } from './support.js';

let t: PeopleApp;
let ws: { workspaceId: string; userId: string; key: string };
const ADMIN = { email: 'boss@example.test', password: 'boss password 123' };

beforeAll(async () => {
  t = await startPeopleApp();
  ws = await t.workspace({ name: 'Acme' });
  await t.person(ws.workspaceId, { ...ADMIN, role: 'admin' });
});
afterAll(() => t?.close());

const INVITE = 'mutation($input: InvitePersonInput!) { invitePerson(input: $input) { person { id email role state } expiresAt mailed } }';

async function signedInAdmin(ip: string) {
  const b = browser(t.baseUrl, { ip });
  expect((await b.signIn(ADMIN.email, ADMIN.password)).status).toBe(200);
  return b;
}

/** The link of the newest mail to `to`, waited for. */
async function mailedLink(to: string, count = 1) {
  await expect.poll(() => t.smtp.to(to).length).toBeGreaterThanOrEqual(count);
  return linkIn(mailText(t.smtp.to(to)[count - 1]));
}

describe('invitations over SMTP', () => {
  it('an admin invites by e-mail with a role; the link sets a password once, activates the account and signs in', async () => {
    const admin = await signedInAdmin('10.20.0.1');
    const res = await admin.graphql(INVITE, { input: { email: 'New.Person@Example.test', role: 'member' } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.invitePerson).toMatchObject({ person: { email: 'new.person@example.test', role: 'member', state: 'invited' }, mailed: true });
    const mail = t.smtp.to('new.person@example.test')[0];
    expect(mailText(mail)).toContain('Acme');
    const { link, kind, token } = await mailedLink('new.person@example.test');
    expect(kind).toBe('invite');
    expect(link.startsWith(`${t.baseUrl}/auth/set-password#invite=`)).toBe(true);
    // The page the link opens.
    const page = await fetch(link.split('#')[0]);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/auth/invitations/accept');

    // Invited: cannot sign in yet (the generic answer).
    expect((await browser(t.baseUrl, { ip: '10.20.0.2' }).signIn('new.person@example.test', 'whatever password')).status).toBe(401);

    const invitee = browser(t.baseUrl, { ip: '10.20.0.3' });
    const accepted = await invitee.post('/auth/invitations/accept', { token, password: 'my own password', name: 'New Person' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ user: { id: expect.any(String), email: 'new.person@example.test', name: 'New Person', role: 'member', workspaceId: ws.workspaceId } });
    expect((await invitee.get('/auth/me')).body.user.email).toBe('new.person@example.test');

    // Single use.
    const again = await browser(t.baseUrl).post('/auth/invitations/accept', { token, password: 'another password!' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'This link is invalid, already used or expired', code: 'link_invalid' });
    expect((await browser(t.baseUrl, { ip: '10.20.0.4' }).signIn('new.person@example.test', 'my own password')).status).toBe(200);
    const people = await admin.graphql('{ people { email role state } }');
    expect(people.body.data.people).toContainEqual({ email: 'new.person@example.test', role: 'member', state: 'active' });
  });

  it('an invitation link expires; inviting again sends a new link and voids the old one', async () => {
    const admin = await signedInAdmin('10.21.0.1');
    await admin.graphql(INVITE, { input: { email: 'late@example.test', role: 'admin' } });
    const first = await mailedLink('late@example.test', 1);
    await admin.graphql(INVITE, { input: { email: 'late@example.test', role: 'admin' } });
    const second = await mailedLink('late@example.test', 2);
    expect(second.token).not.toBe(first.token);
    expect((await browser(t.baseUrl).post('/auth/invitations/accept', { token: first.token, password: 'late password 1' })).body.code).toBe('link_invalid');

    t.clock.advance(INVITATION_TTL_MS + 1000);
    expect((await browser(t.baseUrl).post('/auth/invitations/accept', { token: second.token, password: 'late password 1' })).body.code).toBe('link_invalid');
    // An active account cannot be invited again.
    const dup = await (await signedInAdmin('10.21.0.2')).graphql(INVITE, { input: { email: ADMIN.email } });
    expect(dup.body.errors?.[0]?.extensions).toMatchObject({ code: 'already_exists' });
  });
});

describe('password reset over SMTP', () => {
  it('answers the same for a known and an unknown e-mail; the link sets a new password once and closes the other sessions', async () => {
    const email = 'forgetful@example.test';
    await t.person(ws.workspaceId, { email, password: 'old password 123' });
    const elsewhere = browser(t.baseUrl, { ip: '10.22.0.1' });
    expect((await elsewhere.signIn(email, 'old password 123')).status).toBe(200);

    const known = await browser(t.baseUrl).post('/auth/password-reset', { email: 'Forgetful@example.test' });
    const unknown = await browser(t.baseUrl).post('/auth/password-reset', { email: 'nobody-here@example.test' });
    expect(known.status).toBe(202);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    const { kind, token } = await mailedLink(email);
    expect(kind).toBe('reset');
    expect(t.smtp.to('nobody-here@example.test')).toEqual([]);

    const b = browser(t.baseUrl, { ip: '10.22.0.2' });
    const weak = await b.post('/auth/password-reset/confirm', { token, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.field).toBe('password');
    const done = await b.post('/auth/password-reset/confirm', { token, password: 'new password 456' });
    expect(done.status).toBe(200);
    expect(done.body.user.email).toBe(email);
    expect((await b.get('/auth/me')).status).toBe(200);
    expect((await elsewhere.get('/auth/me')).status).toBe(401);
    expect((await b.post('/auth/password-reset/confirm', { token, password: 'third password 789' })).body.code).toBe('link_invalid');
    expect((await browser(t.baseUrl, { ip: '10.22.0.3' }).signIn(email, 'old password 123')).status).toBe(401);
    expect((await browser(t.baseUrl, { ip: '10.22.0.4' }).signIn(email, 'new password 456')).status).toBe(200);
  });

  it('a reset link expires after its period', async () => {
    const email = 'slow@example.test';
    await t.person(ws.workspaceId, { email, password: 'slow password 1' });
    await browser(t.baseUrl).post('/auth/password-reset', { email });
    const { token } = await mailedLink(email);
    t.clock.advance(RESET_TTL_MS + 1000);
    expect((await browser(t.baseUrl).post('/auth/password-reset/confirm', { token, password: 'too late password' })).body.code).toBe('link_invalid');
  });
});

describe('link throttles', () => {
  it(`reset requests: ${RESET_REQUEST_LIMITS.account} per e-mail (known or not) and ${RESET_REQUEST_LIMITS.address} per address in the window`, async () => {
    await t.person(ws.workspaceId, { email: 'flooded@example.test', password: 'flooded password' });
    for (const email of ['flooded@example.test', 'never-was@example.test']) {
      for (let i = 0; i < RESET_REQUEST_LIMITS.account; i++) {
        expect((await browser(t.baseUrl, { ip: `10.70.${i}.1` }).post('/auth/password-reset', { email })).status).toBe(202);
      }
      const refused = await browser(t.baseUrl, { ip: '10.70.9.9' }).post('/auth/password-reset', { email });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'Rate limit exceeded', code: 'rate_limited' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const b = browser(t.baseUrl, { ip: '10.71.0.1' });
    for (let i = 0; i < RESET_REQUEST_LIMITS.address; i++) expect((await b.post('/auth/password-reset', { email: `someone${i}@example.test` })).status).toBe(202);
    expect((await b.post('/auth/password-reset', { email: 'one-more@example.test' })).status).toBe(429);
    t.clock.advance(THROTTLE_WINDOW_MS + 1000);
    expect((await b.post('/auth/password-reset', { email: 'one-more@example.test' })).status).toBe(202);
  }, 240_000);

  it(`link confirmations: ${LINK_FAILURE_LIMIT} invalid tokens from one address, then 429 even for a good one`, async () => {
    const admin = await signedInAdmin('10.72.0.1');
    await admin.graphql(INVITE, { input: { email: 'patient@example.test' } });
    const { token } = await mailedLink('patient@example.test');
    const b = browser(t.baseUrl, { ip: '10.72.0.2' });
    for (let i = 0; i < LINK_FAILURE_LIMIT; i++) {
      expect((await b.post('/auth/invitations/accept', { token: `guess${i}`, password: 'guessing password' })).body.code).toBe('link_invalid');
    }
    expect((await b.post('/auth/invitations/accept', { token, password: 'patient password' })).status).toBe(429);
    expect((await b.post('/auth/password-reset/confirm', { token: 'guess', password: 'guessing password' })).status).toBe(429);
    expect((await browser(t.baseUrl, { ip: '10.72.0.3' }).post('/auth/invitations/accept', { token, password: 'patient password' })).status).toBe(200);
  }, 120_000);
});

describe('without SVC_SMTP_URL', () => {
  it('writes the mail as an .eml file and logs where', async () => {
    const local = await startPeopleApp({ smtp: false });
    try {
      const w = await local.workspace();
      await local.person(w.workspaceId, { email: 'eml@example.test', password: 'eml password 1' });
      await browser(local.baseUrl).post('/auth/password-reset', { email: 'eml@example.test' });
      await expect.poll(() => local.logs.some((l) => l.includes('mail written to a file'))).toBe(true);
      const line = JSON.parse(local.logs.find((l) => l.includes('mail written to a file')) ?? '{}');
      expect(line.file).toMatch(/\.eml$/);
      const eml = await readFile(line.file, 'utf8');
      expect(eml).toMatch(/^To: eml@example\.test$/m);
      expect(linkIn(eml.replace(/=\r?\n/g, '')).kind).toBe('reset');
      expect(local.smtp.received).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
