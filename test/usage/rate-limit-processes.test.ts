import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { postgresAvailable } from '../support/database.js';

const NOW = '2026-11-02T10:00:30.000Z';
const hasPg = await postgresAvailable();
let t: TestApp;
let child: ChildProcess | undefined;
let childUrl: string;

/** A second OS process serving the same app on the same PostgreSQL database, with its own pool. */
async function spawnServer(databaseUrl: string): Promise<{ proc: ChildProcess; url: string }> {
  const script = fileURLToPath(new URL('../support/usage-server.ts', import.meta.url));
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, DATABASE_URL: databaseUrl, SVC_TEST_CLOCK: NOW },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: proc.stdout! });
    rl.once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`usage-server exited with ${code}`)));
  });
  return { proc, url: `http://127.0.0.1:${JSON.parse(line).port}` };
}

// Two processes share one database only on a real PostgreSQL server (the embedded one is single-process).
describe.skipIf(!hasPg)('per-key rate limit across two server processes on one PostgreSQL database', () => {
  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    const spawned = await spawnServer(t.db.url!);
    child = spawned.proc;
    childUrl = spawned.url;
  }, 240_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.stdin?.end();
      await exited;
    }
    await t?.close();
  });

  it('50 simultaneous requests split over both processes: exactly 10 succeed, 40 get 429 with retry-after', async () => {
    const a = await t.tenant();
    const key = await t.key(a, { ratePerMinute: 10 });
    const here = api(t.baseUrl, key);
    const there = api(childUrl, key);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? there : here).get('/v1/agents')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toBe('30');
      expect(r.body.code).toBe('rate_limited');
    }
    // Counted per process, each would have let 10 through: the count is shared by both.
    expect((await there.get('/v1/agents')).status).toBe(429);
    expect((await here.get('/v1/agents')).status).toBe(429);
  });
});
