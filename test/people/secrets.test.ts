import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/secrets.js';
import { mailText } from '../support/smtp-server.js';
import { postgresAvailable } from '../support/database.js';
import { browser, linkIn, startPeopleApp, type PeopleApp, type Reply } from './support.js';

const hasPg = await postgresAvailable();

/**
 * Passwords and tokens never reach the database, the logs or a response body: a whole life of accounts
 * (invitation, acceptance, sign-in, wrong attempts, password change, reset, sign-out) runs with every log
 * line kept at trace level, then every text column of every table is read back.
 */
describe.skipIf(!hasPg)('only hashes are stored; no password or token in logs or responses', () => {
  let t: PeopleApp;
  const secrets: string[] = [];
  const bodies: Reply[] = [];
  const keep = (r: Reply) => (bodies.push(r), r);

  beforeAll(async () => {
    t = await startPeopleApp();
  });
  afterAll(() => t?.close());

  it('runs the account life cycle', async () => {
    const ws = await t.workspace();
    const adminPassword = 'Admin-Password-Σ-1';
    secrets.push(adminPassword);
    await t.person(ws.workspaceId, { email: 'root@example.test', password: adminPassword, role: 'admin' });
    const admin = browser(t.baseUrl, { ip: '10.40.0.1' });
    keep(await admin.signIn('root@example.test', adminPassword));
    const adminSession = await admin.sessionToken();
    secrets.push(adminSession!);

    keep(await admin.graphql('mutation { invitePerson(input: { email: "guest@example.test", role: member }) { person { id } mailed } }'));
    await expect.poll(() => t.smtp.to('guest@example.test').length).toBe(1);
    const invite = linkIn(mailText(t.smtp.to('guest@example.test')[0])).token;
    secrets.push(invite);
    const guestPassword = 'Guest-Password-42';
    secrets.push(guestPassword);
    const guest = browser(t.baseUrl, { ip: '10.40.0.2' });
    keep(await guest.post('/auth/invitations/accept', { token: invite, password: guestPassword }));
    secrets.push((await guest.sessionToken())!);

    const wrong = 'Wrong-Password-Tried';
    secrets.push(wrong);
    keep(await browser(t.baseUrl, { ip: '10.40.0.3' }).signIn('guest@example.test', wrong));
    keep(await browser(t.baseUrl, { ip: '10.40.0.3' }).signIn('nobody@example.test', wrong));

    const changed = 'Guest-Password-Changed';
    secrets.push(changed);
    keep(await guest.post('/auth/password', { currentPassword: guestPassword, newPassword: changed }));
    keep(await guest.graphql(`mutation { changePassword(input: { currentPassword: "${changed}", newPassword: "${changed}-2" }) }`));
    secrets.push(`${changed}-2`);

    keep(await browser(t.baseUrl).post('/auth/password-reset', { email: 'guest@example.test' }));
    await expect.poll(() => t.smtp.to('guest@example.test').length).toBe(2);
    const reset = linkIn(mailText(t.smtp.to('guest@example.test')[1])).token;
    secrets.push(reset);
    const resetPassword = 'Reset-Password-Chosen';
    secrets.push(resetPassword);
    keep(await guest.post('/auth/password-reset/confirm', { token: reset, password: resetPassword }));
    secrets.push((await guest.sessionToken())!);
    keep(await guest.get('/auth/me'));
    keep(await guest.graphql('{ viewer { userId person { email } } people { id email } }'));
    keep(await guest.post('/auth/sign-out'));
    keep(await admin.get('/auth/me'));
    expect(secrets.every(Boolean)).toBe(true);
  });

  it('no response body carries a password or a token', () => {
    for (const r of bodies) for (const s of secrets) expect(r.text).not.toContain(s);
  });

  it('no log line carries a password or a token, and the logs are not empty', () => {
    expect(t.logs.length).toBeGreaterThan(0);
    const all = t.logs.join('\n');
    for (const s of secrets) expect(all).not.toContain(s);
  });

  it('no column of any table holds a password or a token; sessions and links are stored by SHA-256', async () => {
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    try {
      const columns = await client.query<{ table_name: string; column_name: string }>(
        `select table_name, column_name from information_schema.columns
          where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'character')`,
      );
      let scanned = 0;
      for (const { table_name, column_name } of columns.rows) {
        const rows = await client.query<{ v: string }>(`select "${column_name}"::text as v from "${table_name}" where "${column_name}" is not null`);
        for (const { v } of rows.rows) {
          scanned++;
          for (const s of secrets) expect(v, `${table_name}.${column_name}`).not.toContain(s);
        }
      }
      expect(scanned).toBeGreaterThan(0);
      const hashes = new Set([
        ...(await client.query<{ h: string }>('select token_hash as h from person_session')).rows.map((r) => r.h),
        ...(await client.query<{ h: string }>('select token_hash as h from person_token')).rows.map((r) => r.h),
      ]);
      // Every session and link token we saw is there, as its SHA-256.
      for (const s of secrets.filter((x) => x.startsWith('svs_'))) expect(hashes.has(sha256Hex(s))).toBe(true);
      const passwords = (await client.query<{ p: string }>('select password_hash as p from app_user where password_hash is not null')).rows;
      expect(passwords.length).toBeGreaterThanOrEqual(2);
      for (const { p } of passwords) expect(p).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    } finally {
      await client.end();
    }
  });
});
