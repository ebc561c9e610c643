import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** GET /ready (issue 30): the database, the migrations and the drain; /health stays liveness. */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /ready', () => {
  it('200 ready: database reachable, every migration applied, not draining', async () => {
    const res = await api(t.baseUrl).get('/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ready', draining: false, database: { ok: true }, migrations: { applied: true, pending: [] } });
  });

  it('503 not_ready with the migration that is missing', async () => {
    const em = t.app.services.orm.em.fork();
    const [last] = await em.execute<{ name: string }[]>('select name from mikro_orm_migrations order by id desc limit 1');
    await em.execute('delete from mikro_orm_migrations where name = ?', [last.name]);
    try {
      const res = await api(t.baseUrl).get('/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'not_ready', draining: false, migrations: { applied: false, pending: [last.name.replace(/\.[jt]s$/, '')] } });
      // Liveness is not readiness: the process still answers.
      expect((await api(t.baseUrl).get('/health')).status).toBe(200);
    } finally {
      await em.execute('insert into mikro_orm_migrations (name, executed_at) values (?, now())', [last.name]);
    }
    expect((await api(t.baseUrl).get('/ready')).status).toBe(200);
  });

  it('503 not_ready while draining', async () => {
    void t.app.services.shutdown.drain();
    const res = await api(t.baseUrl).get('/ready');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'not_ready', draining: true, database: { ok: true } });
  });
});
