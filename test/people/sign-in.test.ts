import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../src/modules/people/people.service.js';
import { User } from '../../src/modules/workspaces/workspace.entity.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/modules/people/sessions.js';
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT, THROTTLE_WINDOW_MS } from '../../src/modules/people/throttle.js';
import { api } from '../support/api.js';
import { browser, startPeopleApp, type PeopleApp } from './support.js';

let t: PeopleApp;
let ws: { workspaceId: string; userId: string; key: string };
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  t = await startPeopleApp();
  ws = await t.workspace();
});
afterAll(() => t?.close());

let n = 0;
/** A fresh active person and a browser from an address of its own. */
async function fresh(role: 'admin' | 'member' = 'member') {
  n++;
  const email = `person${n}@example.test`;
  const person = await t.person(ws.workspaceId, { email, password: PASSWORD, role });
  return { email, id: person.id, b: browser(t.baseUrl, { ip: `10.0.0.${n}` }) };
}

describe('sign-in, me, sign-out', () => {
  it('opens a session with an httpOnly SameSite=Lax cookie, says who is signed in, and closes it', async () => {
    const { email, id, b } = await fresh();
    const res = await b.signIn(email.toUpperCase(), PASSWORD); // the e-mail is matched whatever its case
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: { id, email, name: null, role: 'member', workspaceId: ws.workspaceId } });
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^svc_session=svs_[A-Za-z0-9_-]+;/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // plain http on 127.0.0.1

    const me = await b.get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual(res.body);

    const token = await b.sessionToken();
    const out = await b.post('/auth/sign-out');
    expect(out.status).toBe(204);
    expect(await b.sessionToken()).toBeUndefined();
    expect((await b.get('/auth/me')).status).toBe(401);
    // The old token is closed for good, not only forgotten by the browser.
    const replay = await fetch(`${t.baseUrl}/auth/me`, { headers: { cookie: `svc_session=${token}` } });
    expect(replay.status).toBe(401);
  });

  it('marks the cookie Secure when the service is public over https', async () => {
    const other = await startPeopleApp({ env: { SVC_PUBLIC_URL: 'https://svc.example.test' }, smtp: false });
    try {
      const w = await other.workspace();
      await other.person(w.workspaceId, { email: 'secure@example.test', password: PASSWORD });
      const res = await fetch(`${other.baseUrl}/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'secure@example.test', password: PASSWORD }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
    } finally {
      await other.close();
    }
  });

  it('answers /auth/me 401 without a cookie', async () => {
    const res = await browser(t.baseUrl).get('/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Not signed in' });
  });
});

describe('session periods (ManualClock)', () => {
  it('ends a session left idle for the idle period, and keeps one that is used', async () => {
    const { email, b } = await fresh();
    expect((await b.signIn(email, PASSWORD)).status).toBe(200);
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await b.get('/auth/me')).status).toBe(200); // used: the idle period starts again
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await b.get('/auth/me')).status).toBe(200);
    t.clock.advance(SESSION_IDLE_MS + 1);
    const me = await b.get('/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.error).toMatch(/expired/);
  });

  it('ends a session at its absolute end however much it is used', async () => {
    const { email, b } = await fresh();
    expect((await b.signIn(email, PASSWORD)).status).toBe(200);
    const step = SESSION_IDLE_MS / 2;
    let elapsed = 0;
    while (elapsed + step < SESSION_ABSOLUTE_MS) {
      t.clock.advance(step);
      elapsed += step;
      expect((await b.get('/auth/me')).status).toBe(200);
    }
    t.clock.advance(SESSION_ABSOLUTE_MS - elapsed);
    expect((await b.get('/auth/me')).status).toBe(401);
  }, 240_000);
});

describe('CSRF: cookie-authenticated writes need the service origin', () => {
  it('refuses a GraphQL write, a password change and a sign-out from another origin with 403 csrf_rejected', async () => {
    const { email, b } = await fresh();
    expect((await b.signIn(email, PASSWORD)).status).toBe(200);
    const mutation = 'mutation { createAgent(input: { name: "A", role: "r", personality: "p", mission: "m", decisionStyle: "d", systemPrompt: "s" }) { id } }';

    const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null', referer: 'https://evil.example/page' }, { origin: '' }];
    for (const headers of foreign) {
      const gql = await b.graphql(mutation, undefined, headers);
      expect(gql.status).toBe(200);
      expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'csrf_rejected', status: 403 });
    }
    const pw = await b.post('/auth/password', { currentPassword: PASSWORD, newPassword: 'another long password' }, { origin: 'https://evil.example' });
    expect(pw.status).toBe(403);
    expect(pw.body).toEqual({ error: expect.any(String), code: 'csrf_rejected' });
    const out = await b.post('/auth/sign-out', {}, { origin: 'https://evil.example' });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('csrf_rejected');
    expect((await b.get('/auth/me')).status).toBe(200); // still signed in

    // The service's own origin passes; so does a same-origin Referer when no Origin is sent.
    const ok = await b.graphql(mutation);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.createAgent.id).toEqual(expect.any(String));
    const viaReferer = await b.graphql(mutation, undefined, { origin: '', referer: `${t.baseUrl}/console` });
    expect(viaReferer.body.errors).toBeUndefined();
    // Reads over GET need no Origin.
    const read = await fetch(`${t.baseUrl}/graphql?query=${encodeURIComponent('{ viewer { userId } }')}`, {
      headers: { cookie: `svc_session=${await b.sessionToken()}`, accept: 'application/json' },
    });
    expect((await read.json()).data.viewer.userId).toEqual(expect.any(String));
  });

  it('does not affect API-key requests', async () => {
    const res = await api(t.baseUrl, ws.key).graphql('mutation { createAgent(input: { name: "K", role: "r", personality: "p", mission: "m", decisionStyle: "d", systemPrompt: "s" }) { id } }');
    expect(res.errors).toBeUndefined();
    const withOrigin = await api(t.baseUrl, ws.key, { origin: 'https://evil.example' }).post('/v1/agents', {
      name: 'K2', role: 'r', personality: 'p', mission: 'm', decisionStyle: 'd', systemPrompt: 's',
    });
    expect(withOrigin.status).toBe(201);
  });

  it('refuses a sign-in posted from another site', async () => {
    const { email } = await fresh();
    const res = await browser(t.baseUrl, { origin: 'https://evil.example', ip: '10.9.9.9' }).signIn(email, PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_rejected');
  });
});

describe('wrong credentials: one answer, throttled', () => {
  it('answers an unknown e-mail, a wrong password, an invited and a disabled account the same way', async () => {
    const { email } = await fresh();
    const disabled = await fresh();
    await t.app.services.orm.em.fork().nativeUpdate(User, { id: disabled.id }, { state: 'disabled' });
    await createPerson({ em: t.app.services.orm.em.fork(), clock: t.clock }, ws.workspaceId, { email: 'invited@example.test' });
    const answers = [];
    for (const [i, [e, p]] of ([
      ['nobody@example.test', PASSWORD],
      [email, 'wrong password!'],
      ['invited@example.test', PASSWORD],
      [disabled.email, PASSWORD],
    ] as const).entries()) {
      const res = await browser(t.baseUrl, { ip: `10.1.0.${i}` }).signIn(e, p);
      answers.push({ status: res.status, body: res.body, setCookie: res.headers.get('set-cookie') });
    }
    expect(answers[0]).toEqual({ status: 401, body: { error: 'Invalid e-mail or password' }, setCookie: null });
    for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
  });

  it(`throttles an account after ${ACCOUNT_FAILURE_LIMIT} failures, right password included, until the window ends`, async () => {
    const { email, b } = await fresh();
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) {
      // From several addresses: the account bucket counts them all.
      expect((await browser(t.baseUrl, { ip: `10.2.0.${i}` }).signIn(email, 'wrong password!')).status).toBe(401);
    }
    const refused = await b.signIn(email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Rate limit exceeded', code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(THROTTLE_WINDOW_MS / 1000);
    // An unknown e-mail is throttled the same way (the throttle tells nothing either).
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) await browser(t.baseUrl, { ip: `10.3.0.${i}` }).signIn('ghost@example.test', 'x');
    expect((await browser(t.baseUrl, { ip: '10.3.1.1' }).signIn('ghost@example.test', 'x')).status).toBe(429);

    t.clock.advance(THROTTLE_WINDOW_MS + 1000);
    expect((await b.signIn(email, PASSWORD)).status).toBe(200);
  }, 240_000);

  it(`throttles an address after ${ADDRESS_FAILURE_LIMIT} failures across accounts`, async () => {
    const b = browser(t.baseUrl, { ip: '10.4.4.4' });
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i++) expect((await b.signIn(`spray${i}@example.test`, 'x')).status).toBe(401);
    const { email } = await fresh();
    const refused = await b.signIn(email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toEqual(expect.any(String));
    // Another address is not affected.
    expect((await browser(t.baseUrl, { ip: '10.4.4.5' }).signIn(email, PASSWORD)).status).toBe(200);
  }, 120_000);
});

describe('password change', () => {
  it('closes the other sessions and keeps the current one', async () => {
    const { email, b } = await fresh();
    const other = browser(t.baseUrl, { ip: '10.5.0.1' });
    expect((await b.signIn(email, PASSWORD)).status).toBe(200);
    expect((await other.signIn(email, PASSWORD)).status).toBe(200);
    const wrong = await b.post('/auth/password', { currentPassword: 'not it at all', newPassword: 'a brand new password' });
    expect(wrong.status).toBe(400);
    const res = await b.post('/auth/password', { currentPassword: PASSWORD, newPassword: 'a brand new password' });
    expect(res.status).toBe(204);
    expect((await b.get('/auth/me')).status).toBe(200);
    expect((await other.get('/auth/me')).status).toBe(401);
    expect((await other.signIn(email, PASSWORD)).status).toBe(401);
    expect((await other.signIn(email, 'a brand new password')).status).toBe(200);
  });
});
