/**
 * Webhook deliveries side by side (issue 11): in one run, each in a process of its own,
 *   - the receiver (bench/webhooks-receiver.ts: node:http answering 200 at once, counting connections),
 *   - the service (bench/webhooks-service.ts: the real app on a fresh PostgreSQL database, background worker
 *     on, `SVC_DEPLOYMENT=onprem` so that the loopback receiver is allowed; every attempt still goes through
 *     the SSRF guard), which also runs the event producer, as in production,
 *   - the floor (bench/webhooks-floor.ts: the receiver hit directly by a plain undici keep-alive client at
 *     the same concurrency, same body and header sizes, no database).
 *
 *   npx tsx bench/webhooks-throughput.ts          (BURST=20000 deliveries per scenario; about 2 minutes)
 *
 * Scenarios, 1 endpoint and 100 endpoints (one workspace, each endpoint its own path of the receiver):
 *   - event → first attempt: events published one at a time (300 with 1 endpoint, 30 with 100), the next
 *     once every delivery of the previous one arrived; from the producer's commit to the receiver having
 *     read the request;
 *   - burst: BURST deliveries committed in one transaction (BURST events × 1 endpoint, BURST/100 events ×
 *     100 endpoints), from the commit to the last arrival → deliveries/s, with the service's CPU time.
 * Prints a markdown table and the ratios service / floor. Needs PostgreSQL on 127.0.0.1:5432.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cpuSeconds, freePort, stopChildren } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from '../test/support/database.js';

const BURST = Number(process.env.BURST ?? 20_000);
const CONCURRENCY = Number(process.env.SVC_WEBHOOK_CONCURRENCY ?? 256);
const root = fileURLToPath(new URL('..', import.meta.url));
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const children: ChildProcess[] = [];
let db: TestDatabase | undefined;
let stopping = false;

interface Rpc {
  child: ChildProcess;
  next(): Promise<Record<string, unknown>>;
  call(cmd: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** A node process running a TypeScript file through tsx, talking JSON lines on stdin/stdout. */
function startTs(file: string, env: Record<string, string>, name: string, nodeArgs: string[] = []): Rpc {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', file], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
  child.on('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`[${name}] exited early (code ${code}, signal ${signal})\n`);
  });
  const lines: Record<string, unknown>[] = [];
  const waiting: ((v: Record<string, unknown>) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.startsWith('{')) return void process.stderr.write(`[${name}] ${line}\n`);
    const value = JSON.parse(line) as Record<string, unknown>;
    const w = waiting.shift();
    if (w) w(value);
    else lines.push(value);
  });
  const next = () => {
    const v = lines.shift();
    return v ? Promise.resolve(v) : new Promise<Record<string, unknown>>((resolve) => waiting.push(resolve));
  };
  return {
    child,
    next,
    async call(cmd) {
      child.stdin!.write(JSON.stringify(cmd) + '\n');
      const v = await next();
      if (v.error) throw new Error(`${name}: ${String(v.error)}`);
      return v;
    },
  };
}

function run(file: string, arg: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, arg], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d));
    child.stderr?.on('data', (d: Buffer) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${file} exited ${code}: ${err}`))));
  });
}



/** CPU seconds used so far by the PostgreSQL backends serving database `name` (from pg_stat_activity and /proc). */
async function backendCpu(admin: pg.Client, name: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name]);
  return new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid)]));
}
const cpuSince = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, cpu]) => sum + (Number.isFinite(cpu) ? cpu - (before.get(pid) ?? 0) : 0), 0);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

async function stopAll(): Promise<void> {
  stopping = true;
  await stopChildren(children, 10_000);
  if (db) await db.drop().catch((err) => process.stderr.write(`dropping the database failed: ${err}\n`));
  db = undefined;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));

interface Row {
  endpoints: number;
  latency: { n: number; p50: number; p99: number };
  burst: { total: number; seconds: number; rps: number; cpuMsPer: number; receiverCpuMsPer: number; dbCpuMsPer: number; connections: number };
  floor: { rps: number; p50: number; p99: number };
}

async function main(): Promise<void> {
  db = await createTestDatabase();
  if (!db.url) throw new Error('PostgreSQL does not answer at TEST_DATABASE_URL (default 127.0.0.1:5432)');
  const receiver = startTs(here('./webhooks-receiver.ts'), { PORT: '0' }, 'receiver');
  const receiverOrigin = `http://127.0.0.1:${(await receiver.next()).port}`;
  const dbName = new URL(db.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const svcPort = await freePort();
  const profile = process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', '--cpu-prof-dir=/tmp/webhooks-prof'] : [];
  const svc = startTs(
    here('./webhooks-service.ts'),
    {
      DATABASE_URL: db.url,
      PORT: String(svcPort),
      LOG_LEVEL: 'warn',
      SVC_DEPLOYMENT: 'onprem',
      SVC_BACKGROUND_JOBS: 'on',
      SVC_DB_POOL_MAX: process.env.SVC_DB_POOL_MAX ?? '20',
      SVC_WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      SVC_SHUTDOWN_GRACE_MS: '3000',
    },
    'service',
    profile,
  );
  await svc.next();
  const svcOrigin = `http://127.0.0.1:${svcPort}`;
  const started = new Date();
  const loadBefore = loadavg()[0]!;
  const rows: Row[] = [];

  for (const endpoints of [1, 100]) {
    const { workspaceId, key } = (await svc.call({ cmd: 'workspace', name: `bench-${endpoints}` })) as { workspaceId: string; key: string };
    const paths = Array.from({ length: endpoints }, (_, i) => `/e${endpoints}-${i}`);
    for (const path of paths) {
      const res = await fetch(`${svcOrigin}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiverOrigin + path, events: ['flow.run.finished'] }),
      });
      if (res.status !== 201) throw new Error(`endpoint creation: ${res.status} ${await res.text()}`);
    }
    const publish = async (runIds: string[]) => (await svc.call({ cmd: 'publish', workspaceId, runIds })).committedAt as number;

    // Event → first attempt, one event at a time.
    await receiver.call({ cmd: 'reset' });
    const events = endpoints === 1 ? 300 : 30;
    const committed = new Map<string, number>();
    for (let i = 0; i < events; i++) {
      const runId = `lat-${endpoints}-${i}`;
      committed.set(runId, await publish([runId]));
      await receiver.call({ cmd: 'wait', total: (i + 1) * endpoints, timeoutMs: 30_000 });
    }
    const { arrivals } = (await receiver.call({ cmd: 'arrivals' })) as { arrivals: Record<string, number> };
    const delays = Object.entries(arrivals)
      .map(([k, at]) => at - (committed.get(k.split('|')[0]!) ?? Number.NaN))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    if (delays.length !== events * endpoints) throw new Error(`latency: ${delays.length} of ${events * endpoints} arrivals`);

    // Burst.
    await receiver.call({ cmd: 'reset' });
    const burstEvents = Math.ceil(BURST / endpoints);
    const total = burstEvents * endpoints;
    // The publishing transaction (20 000 events through the ORM) is not part of the burst: CPU is counted from its commit.
    const t0 = await publish(Array.from({ length: burstEvents }, (_, i) => `burst-${endpoints}-${i}`));
    const cpuAtCommit = cpuSeconds(svc.child.pid);
    const receiverCpuAtCommit = cpuSeconds(receiver.child.pid);
    const dbAtCommit = await backendCpu(admin, dbName);
    const done = (await receiver.call({ cmd: 'wait', total, timeoutMs: 300_000 })) as { count: number; last: number; connections: number };
    if (done.count < total) throw new Error(`burst: only ${done.count} of ${total} deliveries arrived`);
    const seconds = (done.last - t0) / 1000;
    const cpu = cpuSeconds(svc.child.pid) - cpuAtCommit;
    const receiverCpu = cpuSeconds(receiver.child.pid) - receiverCpuAtCommit;
    const dbCpu = cpuSince(dbAtCommit, await backendCpu(admin, dbName));

    // Floor: same receiver, same paths, same concurrency.
    await receiver.call({ cmd: 'reset' });
    const floor = JSON.parse(
      (await run(here('./webhooks-floor.ts'), JSON.stringify({ origin: receiverOrigin, paths, total, concurrency: CONCURRENCY, connections: CONCURRENCY, latencyRounds: events }))).trim().split('\n').pop()!,
    ) as { rps: number; p50: number; p99: number };

    const row: Row = {
      endpoints,
      latency: { n: delays.length, p50: pct(delays, 50), p99: pct(delays, 99) },
      burst: {
        total,
        seconds,
        rps: total / seconds,
        cpuMsPer: (cpu * 1000) / total,
        receiverCpuMsPer: (receiverCpu * 1000) / total,
        dbCpuMsPer: (dbCpu * 1000) / total,
        connections: done.connections,
      },
      floor,
    };
    rows.push(row);
    process.stderr.write(
      `endpoints=${endpoints}: first attempt p50 ${row.latency.p50.toFixed(1)} ms p99 ${row.latency.p99.toFixed(1)} ms; burst ${total} in ${seconds.toFixed(2)} s = ${row.burst.rps.toFixed(0)}/s (CPU ms per delivery: service ${row.burst.cpuMsPer.toFixed(3)}, PostgreSQL ${row.burst.dbCpuMsPer.toFixed(3)}, receiver ${row.burst.receiverCpuMsPer.toFixed(3)}; ${done.connections} connections); floor ${floor.rps.toFixed(0)}/s p50 ${floor.p50.toFixed(2)} p99 ${floor.p99.toFixed(2)}\n`,
    );
  }

  const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  const lines: string[] = [];
  lines.push(`${started.toISOString()}, node ${process.version}, ${cpus().length} cores, load average ${loadBefore.toFixed(1)} before / ${loadavg()[0]!.toFixed(1)} after; worker concurrency ${CONCURRENCY}`);
  lines.push('');
  lines.push('| endpoints | service: event → first attempt p50 / p99 | floor: request p50 / p99 | service burst | deliveries/s | CPU ms per delivery: service / PostgreSQL / receiver | new receiver connections in the burst | floor requests/s | service / floor |');
  lines.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    lines.push(
      `| ${r.endpoints} | ${f(r.latency.p50)} / ${f(r.latency.p99)} ms | ${f(r.floor.p50, 2)} / ${f(r.floor.p99, 2)} ms | ${r.burst.total} in ${f(r.burst.seconds, 2)} s | ${f(r.burst.rps, 0)} | ${f(r.burst.cpuMsPer, 3)} / ${f(r.burst.dbCpuMsPer, 3)} / ${f(r.burst.receiverCpuMsPer, 3)} | ${r.burst.connections} | ${f(r.floor.rps, 0)} | ${f((r.burst.rps / r.floor.rps) * 100)}% |`,
    );
  }
  lines.push('');
  for (const r of rows) lines.push(`- ${r.endpoints} endpoint(s): ${f(r.burst.rps, 0)} deliveries/s, target ≥ 1 000: ${r.burst.rps >= 1000 ? 'met' : 'missed'}`);
  console.log(lines.join('\n'));
  await admin.end();
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
} finally {
  await stopAll();
}
process.exit(failed ? 1 : 0);
