import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { parseMetrics, valueOf } from '../support/prometheus.js';

/**
 * With SVC_WORKERS=2 a scrape of any server process answers for both (prom-client's AggregatorRegistry in
 * the supervisor): the requests each process served add up, and each process's pool counts once.
 * PostgreSQL only (several processes need it); no token, so loopback scrapes only.
 */
const available = await postgresAvailable();
let db: TestDatabase | undefined;
let proc: ServerProcess | undefined;

afterAll(async () => {
  await proc?.kill();
  await db?.drop();
});

describe.runIf(available)('GET /metrics with SVC_WORKERS=2', () => {
  it('aggregates every server process', async () => {
    db = await createTestDatabase();
    proc = await startServerProcess({ DATABASE_URL: db.url!, SVC_WORKERS: '2', LOG_LEVEL: 'info' }, { startTimeoutMs: 120_000 });
    await proc.waitForLog('svc listening with several server processes', 120_000);
    await expect.poll(() => proc!.firstKey, { timeout: 60_000 }).not.toBe('');
    const calls = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${proc!.baseUrl}/v1/agents`, { headers: { authorization: `Bearer ${proc!.firstKey}` } }).then((r) => r.status)),
    );
    expect(calls).toEqual(Array(20).fill(200));
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${proc.baseUrl}/metrics`);
      const text = await res.text();
      expect(res.status, `${text}\n${proc.output().slice(-3000)}`).toBe(200);
      const m = parseMetrics(text);
      expect(valueOf(m, 'svc_http_request_duration_seconds_count', { method: 'GET', route: '/v1/agents', status: '200' })).toBe(20);
      // The pool's size limit is per process: summed over the two.
      expect(valueOf(m, 'svc_db_pool_max')).toBe(20);
    }
  }, 180_000);
});
