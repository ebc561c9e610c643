import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../src/modules/people/sessions.js';
import { sweepPeople } from '../../src/modules/people/sweep.js';
import { THROTTLE_WINDOW_MS } from '../../src/modules/people/throttle.js';
import { browser, startPeopleApp, type PeopleApp } from './support.js';

let t: PeopleApp;
beforeAll(async () => {
  t = await startPeopleApp();
});
afterAll(() => t?.close());

const count = async (table: string): Promise<number> =>
  Number((await t.app.services.orm.em.getConnection().execute<{ n: string }[]>(`select count(*) as n from ${table}`))[0]?.n);

describe('people sweep', () => {
  it('deletes sessions that are over, links used or expired and throttle windows past; keeps what still works', async () => {
    const ws = await t.workspace();
    await t.person(ws.workspaceId, { email: 'kept@example.test', password: 'kept password 1' });
    await t.person(ws.workspaceId, { email: 'gone@example.test', password: 'gone password 1' });
    const kept = browser(t.baseUrl, { ip: '10.80.0.1' });
    const gone = browser(t.baseUrl, { ip: '10.80.0.2' });
    expect((await kept.signIn('kept@example.test', 'kept password 1')).status).toBe(200);
    expect((await gone.signIn('gone@example.test', 'gone password 1')).status).toBe(200);
    expect((await gone.post('/auth/sign-out')).status).toBe(204);
    await browser(t.baseUrl, { ip: '10.80.0.3' }).signIn('kept@example.test', 'a wrong password');
    await browser(t.baseUrl).post('/auth/password-reset', { email: 'kept@example.test' });
    await expect.poll(() => t.smtp.to('kept@example.test').length).toBe(1);
    expect(await count('person_session')).toBe(2);
    expect(await count('person_token')).toBe(1);

    // Nothing is over yet but the closed session.
    expect(await sweepPeople(t.app.services)).toEqual({ sessions: 1, tokens: 0, throttle: 0 });
    expect((await kept.get('/auth/me')).status).toBe(200);

    t.clock.advance(Math.max(SESSION_IDLE_MS, THROTTLE_WINDOW_MS) + 1000);
    expect(await sweepPeople(t.app.services)).toEqual({ sessions: 1, tokens: 1, throttle: expect.any(Number) });
    expect(await count('person_session')).toBe(0);
    expect(await count('person_token')).toBe(0);
    expect(await count('sign_in_throttle')).toBe(0);
  });
});
