/**
 * Two builds of the service side by side, in alternation (issue 28): the canned model in a process of its own,
 * then the service of checkout A and of checkout B (each `src/main.ts` of its own directory, on a fresh
 * database of its own, with bench/gateway-side-by-side.ts's settings), measured round after round in
 * alternating order (A B, B A, A B...) so that the machine's load hits both alike. Per round and build: the
 * calls/s, p50, the server process's CPU per call and its PostgreSQL backends' CPU per call (both from /proc:
 * the backends are the connections to that build's database, `pg_stat_activity`), by scenario.
 *
 *   AB_A=/work/main AB_B=. ROUNDS=3 DURATION_S=6 BENCH_SCENARIOS=plain-1,plain-100,stream-1,stream-100 \
 *     npx tsx bench/gateway-ab.ts
 *
 * AB_A_ENV / AB_B_ENV: settings of that build's service only, `NAME=value` separated by spaces (for example
 * `AB_A=. AB_B=. AB_B_ENV=SVC_ANSWER_COMMIT=committed`: one checkout under two settings).
 *
 * Prints a markdown table with each round and the medians, and the load average before and after. The
 * ratios between the two columns are what it measures; the absolute figures are this machine's at that moment.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cpuSeconds, freePort, stopChildren } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from '../test/support/database.js';

const DURATION_S = Number(process.env.DURATION_S ?? 6);
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const roots = { A: resolvePath(process.env.AB_A ?? '/work/main'), B: resolvePath(process.env.AB_B ?? '.') };

const children: ChildProcess[] = [];
const dbs: TestDatabase[] = [];

function start(cwd: string, file: string, env: Record<string, string>, name: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
  return child;
}

function run(cwd: string, cmd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d));
    child.stderr?.on('data', (d: Buffer) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

interface Target {
  url: string;
  child: ChildProcess;
  auth: string;
  /** The service's database, whose backends' CPU is counted. */
  dbUrl: string;
}

async function sqlOn<R extends pg.QueryResultRow>(dbUrl: string, text: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** CPU seconds used so far by the PostgreSQL backends connected to `dbUrl`'s database, per backend pid. */
async function backendSeconds(dbUrl: string): Promise<Map<number, number>> {
  const rows = await sqlOn<{ pid: number }>(dbUrl, 'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  return new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid)]));
}

/** The backends' CPU seconds between two readings (a backend that started in between counts from zero). */
const backendDelta = (before: Map<number, number>, after: Map<number, number>): number =>
  [...after].reduce((sum, [pid, s]) => sum + (Number.isFinite(s) ? s - (before.get(pid) ?? 0) : 0), 0);

async function service(label: 'A' | 'B', modelOrigin: string): Promise<Target> {
  const root = roots[label];
  const db = await createTestDatabase();
  if (!db.url) throw new Error('PostgreSQL does not answer at TEST_DATABASE_URL');
  dbs.push(db);
  // AB_PG_FUNCTIONS=1: PostgreSQL times the service's functions (pg_stat_user_functions), printed at the end.
  if (process.env.AB_PG_FUNCTIONS === '1') await sqlOn(db.url, `alter database ${new URL(db.url).pathname.slice(1)} set track_functions = 'all'`);
  const created = JSON.parse(
    await run(root, 'npm', ['run', '--silent', 'svc', '--', 'workspace', 'create', '--name', 'bench', '--plan', 'cabinet', '--seats', '100000'], { DATABASE_URL: db.url, LOG_LEVEL: 'warn' }),
  ) as { key: { secret: string } };
  const port = await freePort();
  const child = start(
    root,
    `${root}/src/main.ts`,
    {
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SVC_BACKGROUND_JOBS: 'off',
      SVC_RATE_GATEWAY: '1000000000',
      SVC_MODEL_BASE_URL: `${modelOrigin}/v1`,
      SVC_MODEL_API_KEY: 'bench',
      SVC_MODEL: 'canned-model',
      SVC_MODEL_CLASS: 'standard',
      SVC_SHUTDOWN_GRACE_MS: '3000',
      SVC_WORKERS: '1',
      ...(process.env[`AB_${label}_NODE_OPTIONS`] ? { NODE_OPTIONS: process.env[`AB_${label}_NODE_OPTIONS`]! } : {}),
      ...Object.fromEntries((process.env[`AB_${label}_ENV`] ?? '').split(/\s+/).filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
    },
    `service ${label}`,
  );
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (!(await fetch(`${origin}/health`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`service ${label} did not become healthy`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url: `${origin}/v1/chat/completions`, child, auth: `Bearer ${created.key.secret}`, dbUrl: db.url };
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
  cpuMsPerCall: number;
  /** The PostgreSQL backends' CPU per call. */
  dbMsPerCall: number;
}

async function measure(t: Target, connections: number, stream: boolean): Promise<Measured> {
  const body = JSON.stringify({
    model: 'svc-auto',
    messages: [{ role: 'user', content: 'What is the answer to everything?' }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
  const spec = (durationS: number) => JSON.stringify({ url: t.url, connections, durationS, warmupS: 0, body, headers: { authorization: t.auth }, stream });
  const loader = here('./support/load.ts');
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  if (WARMUP_S > 0) await run(cwd, process.execPath, ['--import', 'tsx', loader, spec(WARMUP_S)]);
  const dbBefore = await backendSeconds(t.dbUrl);
  const before = cpuSeconds(t.child.pid);
  const out = await run(cwd, process.execPath, ['--import', 'tsx', loader, spec(DURATION_S)]);
  const cpu = cpuSeconds(t.child.pid) - before;
  const db = backendDelta(dbBefore, await backendSeconds(t.dbUrl));
  const r = JSON.parse(out.trim().split('\n').pop()!) as { rps: number; p50: number; p99: number; ok: number; errors: number; timeouts: number; non2xx: number; mismatches: number };
  return { rps: r.rps, p50: r.p50, p99: r.p99, ok: r.ok, errors: r.errors + r.timeouts + r.non2xx + r.mismatches, cpuMsPerCall: r.ok > 0 ? (cpu * 1000) / r.ok : Number.NaN, dbMsPerCall: r.ok > 0 ? (db * 1000) / r.ok : Number.NaN };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const model = start(fileURLToPath(new URL('..', import.meta.url)), here('./support/canned-model.ts'), { PORT: '0' }, 'canned model');
  const modelOrigin = await new Promise<string>((resolve, reject) => {
    let buf = '';
    model.stdout?.on('data', (d: Buffer) => {
      buf += d;
      const m = /\{"port":(\d+)\}/.exec(buf);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    model.on('exit', () => reject(new Error('canned model exited')));
  });
  const targets = { A: await service('A', modelOrigin), B: await service('B', modelOrigin) };
  const only = process.env.BENCH_SCENARIOS?.split(',') ?? ['plain-1', 'plain-100', 'stream-1', 'stream-100'];
  const loadBefore = loadavg()[0]!;
  process.stderr.write(`A = ${roots.A}${process.env.AB_A_ENV ? ` (${process.env.AB_A_ENV})` : ''}, B = ${roots.B}${process.env.AB_B_ENV ? ` (${process.env.AB_B_ENV})` : ''}; load average ${loadBefore.toFixed(2)}; ${ROUNDS} rounds of ${DURATION_S} s after ${WARMUP_S} s\n`);
  const results = new Map<string, Measured[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of only) {
      const [mode, c] = scenario.split('-') as [string, string];
      for (const label of round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const m = await measure(targets[label], Number(c), mode === 'stream');
        const key = `${scenario}|${label}`;
        results.set(key, [...(results.get(key) ?? []), m]);
        process.stderr.write(`round ${round + 1} ${scenario} ${label}: ${m.rps.toFixed(0)}/s p50 ${m.p50.toFixed(2)} p99 ${m.p99.toFixed(2)} ms CPU ${m.cpuMsPerCall.toFixed(3)} ms/call, PostgreSQL ${m.dbMsPerCall.toFixed(3)} ms/call, errors ${m.errors} (load ${loadavg()[0]!.toFixed(1)})\n`);
      }
    }
  }
  const loadAfter = loadavg()[0]!;
  if (process.env.AB_PG_FUNCTIONS === '1') {
    for (const label of ['A', 'B'] as const) {
      const rows = await sqlOn<{ funcname: string; calls: string; total_time: number; self_time: number }>(
        targets[label].dbUrl,
        'select funcname, calls, total_time, self_time from pg_stat_user_functions order by total_time desc',
      );
      process.stderr.write(`${label}: PostgreSQL functions (all rounds and scenarios; ms)\n`);
      for (const r of rows) process.stderr.write(`  ${r.funcname}: ${r.calls} calls, total ${r.total_time.toFixed(0)}, self ${r.self_time.toFixed(0)}\n`);
    }
  }
  const lines = [
    `${new Date().toISOString()}: A = ${roots.A}${process.env.AB_A_ENV ? ` (${process.env.AB_A_ENV})` : ''}, B = ${roots.B}${process.env.AB_B_ENV ? ` (${process.env.AB_B_ENV})` : ''}; load average ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after; ${ROUNDS} rounds of ${DURATION_S} s after ${WARMUP_S} s of warm-up, alternating`,
    '',
    '| scenario | build | calls/s per round | p50 ms per round | p99 ms per round | CPU ms per call per round | median CPU ms per call | B / A | PostgreSQL CPU ms per call per round | median | B / A |',
    '| --- | --- | --- | --- | --- | --- | ---: | ---: | --- | ---: | ---: |',
  ];
  for (const scenario of only) {
    const a = results.get(`${scenario}|A`)!;
    const b = results.get(`${scenario}|B`)!;
    for (const [label, ms] of [['A', a], ['B', b]] as const) {
      const ratio = label === 'B' ? (median(b.map((m) => m.cpuMsPerCall)) / median(a.map((m) => m.cpuMsPerCall))).toFixed(3) : '';
      const dbRatio = label === 'B' ? (median(b.map((m) => m.dbMsPerCall)) / median(a.map((m) => m.dbMsPerCall))).toFixed(3) : '';
      lines.push(
        `| ${scenario} | ${label} | ${ms.map((m) => m.rps.toFixed(0)).join(' / ')} | ${ms.map((m) => m.p50.toFixed(2)).join(' / ')} | ${ms.map((m) => m.p99.toFixed(2)).join(' / ')} | ${ms.map((m) => m.cpuMsPerCall.toFixed(3)).join(' / ')} | ${median(ms.map((m) => m.cpuMsPerCall)).toFixed(3)} | ${ratio} | ${ms.map((m) => m.dbMsPerCall.toFixed(3)).join(' / ')} | ${median(ms.map((m) => m.dbMsPerCall)).toFixed(3)} | ${dbRatio} |`,
      );
    }
  }
  console.log(lines.join('\n'));
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
} finally {
  await stopChildren(children, 5_000);
  for (const db of dbs) await db.drop().catch(() => undefined);
}
process.exit(failed ? 1 : 0);
