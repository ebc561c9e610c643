/**
 * Flows benchmark (issue 15): runs per second of a 5-step flow, and the scheduling delay (due time to the
 * first step's start). The real server (`src/main.ts`, background jobs on) runs in a process of its own on
 * PostgreSQL; this process is only the client (HTTP to start runs, SQL to read the timings).
 *
 *   npx tsx bench/flows.ts [runs=300] [concurrency=16] [ticks=15]
 *   BENCH_PROCESSES=2 — two server processes on the database (runs shared between them)
 */
import pg from 'pg';
import { createTestDatabase } from '../test/support/database.js';
import { cpuSeconds } from './support/processes.js';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.js';

const RUNS = Number(process.argv[2] ?? 300);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const TICKS = Number(process.argv[4] ?? 15);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);

const db = await createTestDatabase();
const servers: ServerProcess[] = [];
const sql = new pg.Client({ connectionString: db.url! });

async function post(base: string, key: string, path: string, body: unknown): Promise<Record<string, any>> {
  const res = await fetch(base + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, any>;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

try {
  const env = { DATABASE_URL: db.url!, LOG_LEVEL: 'warn', SVC_DB_POOL_MAX: '20' };
  servers.push(await startServerProcess({ ...env, LOG_LEVEL: 'info' }));
  while (!servers[0]!.firstKey) await new Promise((r) => setTimeout(r, 50));
  const key = servers[0]!.firstKey;
  for (let i = 1; i < PROCESSES; i++) servers.push(await startServerProcess({ ...env, LOG_LEVEL: 'info' }));
  await sql.connect();

  // ---------------------------------------------------------------------------- runs per second
  const five = await post(servers[0]!.baseUrl, key, '/engine/flows', {
    name: 'Five steps',
    graph: {
      nodes: [
        { key: 'start', type: 'trigger.manual' },
        { key: 'a', type: 'transform', config: { template: 'order {{input.n}}' } },
        { key: 'b', type: 'condition', config: { left: '{{input.n}}', op: 'greaterThan', right: '-1' } },
        { key: 'c', type: 'transform', config: { template: '{{steps.a.text}} checked' } },
        { key: 'd', type: 'transform', config: { template: '{{steps.c.text}} twice' } },
        { key: 'e', type: 'transform', config: { template: 'done {{run.id}}' } },
      ],
      edges: [
        { from: 'start', to: 'a' },
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c', when: 'true' },
        { from: 'c', to: 'd' },
        { from: 'd', to: 'e' },
      ],
    },
  });
  const flowId = five.flow.id as string;
  let next = 0;
  const cpu0 = servers.reduce((sum, p) => sum + cpuSeconds(p.child.pid), 0);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RUNS) {
        const n = next++;
        await post(servers[n % servers.length]!.baseUrl, key, `/engine/flows/${flowId}/run`, { input: { n } });
      }
    }),
  );
  const posted = performance.now();
  for (;;) {
    const { rows } = await sql.query<{ done: string }>(`select count(*) as done from flow_run where flow_id = $1 and status in ('succeeded', 'failed')`, [flowId]);
    if (Number(rows[0]!.done) >= RUNS) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = servers.reduce((sum, p) => sum + cpuSeconds(p.child.pid), 0) - cpu0;
  const { rows: spans } = await sql.query<{ failed: string; ms: string; p50: string; p95: string }>(
    `select count(*) filter (where status = 'failed') as failed,
            extract(epoch from max(finished_at) - min(created_at)) * 1000 as ms,
            percentile_cont(0.5) within group (order by extract(epoch from finished_at - created_at) * 1000) as p50,
            percentile_cont(0.95) within group (order by extract(epoch from finished_at - created_at) * 1000) as p95
       from flow_run where flow_id = $1`,
    [flowId],
  );
  const { rows: workers } = await sql.query<{ n: string }>(`select count(distinct worker_id) as n from flow_step s join flow_run r on r.id = s.run_id where r.flow_id = $1 and s.worker_id is not null`, [flowId]);
  const s = spans[0]!;
  console.log(
    JSON.stringify({
      bench: 'flows.runs',
      processes: PROCESSES,
      runs: RUNS,
      concurrency: CONCURRENCY,
      failed: Number(s.failed),
      postingSeconds: +((posted - t0) / 1000).toFixed(2),
      wallSeconds: +elapsed.toFixed(2),
      runsPerSecond: +(RUNS / elapsed).toFixed(1),
      runsPerSecondInDb: +(RUNS / (Number(s.ms) / 1000)).toFixed(1),
      runLatencyMs: { p50: Math.round(Number(s.p50)), p95: Math.round(Number(s.p95)) },
      workersUsed: Number(workers[0]!.n),
      serverCpuMsPerRun: +((cpu * 1000) / RUNS).toFixed(1),
      loadAverage: (await import('node:os')).loadavg()[0]!.toFixed(1),
    }),
  );

  // ---------------------------------------------------------------------------- scheduling delay
  const scheduled = await post(servers[0]!.baseUrl, key, '/engine/flows', {
    name: 'Every second',
    graph: {
      nodes: [
        { key: 'tick', type: 'trigger.schedule', config: { cron: '* * * * * *' } },
        { key: 'note', type: 'transform', config: { template: 'tick {{input.scheduledFor}}' } },
      ],
      edges: [{ from: 'tick', to: 'note' }],
    },
  });
  const schedId = scheduled.flow.id as string;
  const res = await fetch(`${servers[0]!.baseUrl}/engine/flows/${schedId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ enabled: true }),
  });
  if (res.status !== 200) throw new Error(`enable: ${res.status}`);
  for (;;) {
    const { rows } = await sql.query<{ n: string }>(`select count(*) as n from flow_run where flow_id = $1 and status = 'succeeded'`, [schedId]);
    if (Number(rows[0]!.n) >= TICKS) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await fetch(`${servers[0]!.baseUrl}/engine/flows/${schedId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ enabled: false }),
  });
  const { rows: delays } = await sql.query<{ created: string; started: string }>(
    `select extract(epoch from r.created_at - r.scheduled_for) * 1000 as created,
            extract(epoch from s.started_at - r.scheduled_for) * 1000 as started
       from flow_run r join flow_step s on s.run_id = r.id and s.node_key = 'note'
      where r.flow_id = $1 order by r.scheduled_for`,
    [schedId],
  );
  const { rows: dupes } = await sql.query<{ n: string }>(`select count(*) - count(distinct scheduled_for) as n from flow_run where flow_id = $1`, [schedId]);
  const created = delays.map((d) => Number(d.created));
  const started = delays.map((d) => Number(d.started));
  console.log(
    JSON.stringify({
      bench: 'flows.schedule',
      processes: PROCESSES,
      dueTimes: delays.length,
      duplicateRuns: Number(dupes[0]!.n),
      dueToRunMs: { p50: Math.round(quantile(created, 0.5)), p95: Math.round(quantile(created, 0.95)), max: Math.round(Math.max(...created)) },
      dueToFirstStepMs: { p50: Math.round(quantile(started, 0.5)), p95: Math.round(quantile(started, 0.95)), max: Math.round(Math.max(...started)) },
    }),
  );
} finally {
  await sql.end().catch(() => undefined);
  for (const s of servers) await s.kill();
  await db.drop();
}
