/**
 * The gateway side by side (issue 11, "Done means" 1): in one run, each in a process of its own,
 *   - a canned OpenAI-compatible model (bench/support/canned-model.ts),
 *   - a bare pass-through in front of it (bench/support/pass-through.ts: node:http + undici keep-alive Pool),
 *   - the service itself (src/main.ts) on a fresh PostgreSQL database, its model pointed at the canned one,
 * and the load generator (autocannon, bench/support/load.ts) in a process of its own for every run.
 *
 *   npx tsx bench/gateway-side-by-side.ts       (DURATION_S=10, WARMUP_S=2 per run; about 2 minutes)
 *
 * For each target: `POST /v1/chat/completions` plain and streamed at 1 and 100 connections; the targets are interleaved per scenario so that machine load hits them alike. Prints a
 * markdown table and the ratios of issue 11: service / pass-through throughput at 100 connections
 * (target ≥ 15%), added p50 at 1 connection (target ≤ 1 ms), p99 ratio at 100 connections (target ≤ 3×).
 *
 * The service keeps every feature of the hot path on: key check (the workspace's unrestricted key, made
 * by the admin CLI), route ceiling (SVC_RATE_GATEWAY set to 1e9 so that it never refuses, but it is still
 * counted), allowance (cabinet plan, 100 000 seats: 10^8 questions, never spent here), ledger, proof chain.
 * SVC_BACKGROUND_JOBS=off: it stops only the webhook and ingestion workers and the minutely rate-counter
 * sweep, none of which is on the gateway's path. Needs PostgreSQL on 127.0.0.1:5432 (TEST_DATABASE_URL).
 * Every child is stopped and the database dropped at the end, also on failure.
 *
 * CPU per call is the whole target process's (every thread); "of which its main thread" is the event loop's
 * alone, the rest being V8's worker threads (concurrent compilation and GC) and libuv's pool. At one
 * connection the rest was 18 % of the service's CPU some 2 500 calls into a process's life and 6 % after
 * 8 000 (docs/performance.md, "A gateway call at one connection, second pass"): WARMUP_S=30 shows the
 * figures of a warm process.
 *
 * BENCH_TRACING=1 adds a fourth target: the same service in a second process with tracing on
 * (OTEL_EXPORTER_OTLP_ENDPOINT pointed at bench/support/otlp-sink.ts, a loopback OTLP receiver in a
 * process of its own that counts what it gets), measured in the same interleaved runs; the output gains
 * the cost of tracing (throughput, latency and CPU per call, on against off) and what the sink received.
 *
 * BENCH_STAGE_LOG=<file> runs the service with stage timing on (SVC_STAGE_TIMING=on, LOG_LEVEL=info) and
 * writes its log to <file> instead of stderr: one `request finished` line per call with its stages, which
 * `npx tsx bench/stage-tail.ts <file>` breaks down for all calls and for the slowest 1 % (docs/performance.md,
 * "The gateway's p99: where the slowest calls wait").
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, freePort, mainThreadCpuSeconds, stopChildren } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from '../test/support/database.js';

const DURATION_S = Number(process.env.DURATION_S ?? 10);
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const root = fileURLToPath(new URL('..', import.meta.url));
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

interface Load {
  rps: number;
  p50: number;
  p99: number;
  responses: number;
  ok: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
}
type TargetName = 'canned model' | 'pass-through' | 'service' | 'service (traced)';
interface Target {
  name: TargetName;
  url: string;
  child: ChildProcess;
  headers: Record<string, string>;
  model: string;
}

const children: ChildProcess[] = [];
let db: TestDatabase | undefined;

/** A node process running a TypeScript file through tsx (no wrapper process: the pid is the server's). */
function startTs(file: string, env: Record<string, string>, name: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
  child.on('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`[${name}] exited early (code ${code}, signal ${signal})\n`);
  });
  return child;
}

/** The first JSON line `{"port":N}` a support server prints. */
function portOf(child: ChildProcess, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 30 s`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      buf += d;
      const m = /\{"port":(\d+)\}/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', () => reject(new Error(`${name} exited before listening`)));
  });
}


/** Runs a command to its end; resolves stdout, rejects with stderr on a non-zero exit. */
function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d));
    child.stderr?.on('data', (d: Buffer) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))));
  });
}


async function load(t: Target, connections: number, stream: boolean): Promise<Load & { cpuMsPerCall: number; mainCpuMsPerCall: number }> {
  const body = JSON.stringify({
    model: t.model,
    messages: [{ role: 'user', content: 'What is the answer to everything?' }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
  const spec = (durationS: number) => JSON.stringify({ url: t.url, connections, durationS, warmupS: 0, body, headers: t.headers, stream });
  const loader = here('./support/load.ts');
  if (WARMUP_S > 0) await run(process.execPath, ['--import', 'tsx', loader, spec(WARMUP_S)]);
  const cpuBefore = cpuSeconds(t.child.pid);
  const mainBefore = mainThreadCpuSeconds(t.child.pid);
  const out = await run(process.execPath, ['--import', 'tsx', loader, spec(DURATION_S)]);
  const cpu = cpuSeconds(t.child.pid) - cpuBefore;
  const main = mainThreadCpuSeconds(t.child.pid) - mainBefore;
  const r = JSON.parse(out.trim().split('\n').pop()!) as Load;
  return { ...r, cpuMsPerCall: r.ok > 0 ? (cpu * 1000) / r.ok : Number.NaN, mainCpuMsPerCall: r.ok > 0 ? (main * 1000) / r.ok : Number.NaN };
}

let stopping = false;
let cleaning: Promise<void> | undefined;
/** Stops every child (SIGTERM, SIGKILL after 5 s) and drops the database; once, whoever calls it first. */
function cleanUp(): Promise<void> {
  cleaning ??= stopAll();
  return cleaning;
}
async function stopAll(): Promise<void> {
  stopping = true;
  await stopChildren(children, 5_000);
  if (db) await db.drop().catch((err) => process.stderr.write(`dropping the database failed: ${err}\n`));
  db = undefined;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

async function main(): Promise<void> {
  db = await createTestDatabase();
  if (!db.url) throw new Error('PostgreSQL does not answer at TEST_DATABASE_URL (default 127.0.0.1:5432): the targets apply on PostgreSQL');
  const dbUrl = db.url;
  process.stderr.write(`database ${new URL(dbUrl).pathname.slice(1)} (dropped at the end)\n`);

  // 1. The canned model.
  const model = startTs(here('./support/canned-model.ts'), { PORT: '0' }, 'canned model');
  const modelOrigin = `http://127.0.0.1:${await portOf(model, 'canned model')}`;

  // 2. The bare pass-through.
  const pass = startTs(here('./support/pass-through.ts'), { PORT: '0', UPSTREAM: modelOrigin }, 'pass-through');
  const passOrigin = `http://127.0.0.1:${await portOf(pass, 'pass-through')}`;

  // 3. The service: workspace and key through the admin CLI (it also migrates the new database), then src/main.ts.
  const created = JSON.parse(
    await run('npm', ['run', '--silent', 'svc', '--', 'workspace', 'create', '--name', 'bench', '--plan', 'cabinet', '--seats', '100000'], { DATABASE_URL: dbUrl, LOG_LEVEL: 'warn' }),
  ) as { workspace: { id: string }; key: { secret: string; ratePerMinute?: number | null } };
  if (created.key.ratePerMinute) throw new Error('the bench key must have no ratePerMinute');
  const auth = { authorization: `Bearer ${created.key.secret}` };
  const stageLog = process.env.BENCH_STAGE_LOG;
  const svcOrigin = await startService({}, 'service');
  const svc = children.at(-1)!;
  // BENCH_TRACING=1: a second service process, alike but with tracing on (docs/operations.md, "Traces"),
  // exporting to a loopback OTLP sink in a process of its own; both are measured in the same runs.
  const tracing = process.env.BENCH_TRACING === '1';
  let sinkOrigin: string | undefined;
  let traced: { origin: string; child: ChildProcess } | undefined;
  if (tracing) {
    const sink = startTs(here('./support/otlp-sink.ts'), { PORT: '0' }, 'otlp sink');
    sinkOrigin = `http://127.0.0.1:${await portOf(sink, 'otlp sink')}`;
    const origin = await startService({ OTEL_EXPORTER_OTLP_ENDPOINT: sinkOrigin }, 'service (traced)');
    traced = { origin, child: children.at(-1)! };
  }

  /** Starts src/main.ts with the bench's settings (and `extra`), waits for /health, checks one call of each kind. */
  async function startService(extra: Record<string, string>, name: string): Promise<string> {
    const svcPort = await freePort();
    const child = startTs(
      here('../src/main.ts'),
      {
        // BENCH_DB_SOCKET=/var/run/postgresql: the service reaches PostgreSQL over its Unix socket instead of TCP.
        DATABASE_URL: process.env.BENCH_DB_SOCKET ? `${dbUrl}?host=${encodeURIComponent(process.env.BENCH_DB_SOCKET)}` : dbUrl,
        PORT: String(svcPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        SVC_BACKGROUND_JOBS: 'off',
        SVC_RATE_GATEWAY: '1000000000',
        SVC_MODEL_BASE_URL: `${modelOrigin}/v1`,
        SVC_MODEL_API_KEY: 'bench',
        SVC_MODEL: 'canned-model',
        SVC_MODEL_CLASS: 'standard',
        SVC_SHUTDOWN_GRACE_MS: '3000',
        // BENCH_WORKERS=N runs the service as N server processes (SVC_WORKERS); BENCH_SERVICE_NODE_OPTIONS
        // passes Node options to it (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof for a profile of the run).
        SVC_WORKERS: process.env.BENCH_WORKERS ?? '1',
        ...(process.env.BENCH_SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVICE_NODE_OPTIONS } : {}),
        ...(stageLog ? { SVC_STAGE_TIMING: 'on', LOG_LEVEL: 'info' } : {}),
        ...extra,
      },
      name,
    );
    if (stageLog) child.stdout?.pipe(createWriteStream(stageLog));
    else child.stdout?.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
    const origin = `http://127.0.0.1:${svcPort}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${origin}/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${name} did not become healthy within 60 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // One call of each kind, checked, before measuring anything.
    for (const stream of [false, true]) {
      const res = await fetch(`${origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Hello?' }], ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) }),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${name} check (${stream ? 'stream' : 'plain'}): ${res.status} ${text}`);
    }
    return origin;
  }

  const targets: Target[] = [
    { name: 'canned model', url: `${modelOrigin}/v1/chat/completions`, child: model, headers: {}, model: 'canned-model' },
    { name: 'pass-through', url: `${passOrigin}/v1/chat/completions`, child: pass, headers: {}, model: 'canned-model' },
    { name: 'service', url: `${svcOrigin}/v1/chat/completions`, child: svc, headers: auth, model: 'svc-auto' },
    ...(traced ? [{ name: 'service (traced)' as const, url: `${traced.origin}/v1/chat/completions`, child: traced.child, headers: auth, model: 'svc-auto' }] : []),
  ];
  // BENCH_SCENARIOS=plain-1,stream-1 runs only those (default: all four).
  const only = process.env.BENCH_SCENARIOS?.split(',');
  const scenarios = (
    [
      { mode: 'plain', connections: 1, stream: false },
      { mode: 'stream', connections: 1, stream: true },
      { mode: 'plain', connections: 100, stream: false },
      { mode: 'stream', connections: 100, stream: true },
    ] as const
  ).filter((s) => !only || only.includes(`${s.mode}-${s.connections}`));

  const started = new Date();
  const loadBefore = loadavg()[0]!;
  process.stderr.write(`node ${process.version}, ${cpus().length} cores, load average ${loadBefore.toFixed(2)}, ${DURATION_S} s per run after ${WARMUP_S} s of warm-up\n`);
  const results = new Map<string, Load & { cpuMsPerCall: number; mainCpuMsPerCall: number }>();
  for (const s of scenarios) {
    for (const t of targets) {
      const r = await load(t, s.connections, s.stream);
      results.set(`${t.name}|${s.mode}|${s.connections}`, r);
      process.stderr.write(`${t.name} ${s.mode} ${s.connections}: ${r.rps.toFixed(0)}/s p50 ${r.p50.toFixed(2)} p99 ${r.p99.toFixed(2)} errors ${r.errors + r.timeouts + r.non2xx + r.mismatches}\n`);
    }
  }
  const loadAfter = loadavg()[0]!;

  const f = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  const lines: string[] = [];
  lines.push(`${started.toISOString()}, node ${process.version}, ${cpus().length} cores, load average ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after; ${DURATION_S} s per run after ${WARMUP_S} s of warm-up`);
  lines.push('');
  lines.push('| target | mode | connections | requests/s | p50 ms | p99 ms | errors / non-2xx | target CPU ms per call | of which its main thread |');
  lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const s of scenarios) {
    for (const t of targets) {
      const r = results.get(`${t.name}|${s.mode}|${s.connections}`)!;
      const errs = r.errors + r.timeouts + r.mismatches;
      lines.push(`| ${t.name} | ${s.mode} | ${s.connections} | ${f(r.rps, 0)} | ${f(r.p50)} | ${f(r.p99)} | ${errs} / ${r.non2xx} | ${f(r.cpuMsPerCall, 3)} | ${f(r.mainCpuMsPerCall, 3)} |`);
    }
  }
  const get = (t: TargetName, mode: string, c: number) => results.get(`${t}|${mode}|${c}`)!;
  const ratio = (mode: 'plain' | 'stream') => get('service', mode, 100).rps / get('pass-through', mode, 100).rps;
  const p99x = (mode: 'plain' | 'stream') => get('service', mode, 100).p99 / get('pass-through', mode, 100).p99;
  const addedAt1 = (mode: 'plain' | 'stream') => get('service', mode, 1).p50 - get('pass-through', mode, 1).p50;
  const added = results.has('service|plain|1') ? addedAt1('plain') : Number.NaN;
  const verdict = (ok: boolean) => (ok ? 'met' : 'missed');
  const totalErrors = [...results.entries()]
    .filter(([k]) => k.startsWith('service|'))
    .reduce((n, [, r]) => n + r.errors + r.timeouts + r.non2xx + r.mismatches, 0);
  lines.push('');
  lines.push('| ratio (issue 11) | measured | target | |');
  lines.push('| --- | ---: | ---: | --- |');
  const ran = (mode: string, c: number) => results.has(`service|${mode}|${c}`);
  if (ran('plain', 100)) lines.push(`| service / pass-through throughput, plain, 100 connections | ${f(ratio('plain') * 100, 1)}% | ≥ 15% | ${verdict(ratio('plain') >= 0.15)} |`);
  if (ran('stream', 100)) lines.push(`| service / pass-through throughput, streamed, 100 connections | ${f(ratio('stream') * 100, 1)}% | ≥ 15% | ${verdict(ratio('stream') >= 0.15)} |`);
  if (ran('plain', 1)) lines.push(`| added p50, plain, 1 connection (service − pass-through) | ${f(added)} ms | ≤ 1 ms | ${verdict(added <= 1)} |`);
  if (ran('stream', 1)) lines.push(`| added p50, streamed, 1 connection (service − pass-through) | ${f(addedAt1('stream'))} ms | ≤ 1 ms | ${verdict(addedAt1('stream') <= 1)} |`);
  if (ran('plain', 100)) lines.push(`| p99 service / pass-through, plain, 100 connections | ${f(p99x('plain'), 1)}× | ≤ 3× | ${verdict(p99x('plain') <= 3)} |`);
  if (ran('stream', 100)) lines.push(`| p99 service / pass-through, streamed, 100 connections | ${f(p99x('stream'), 1)}× | ≤ 3× | ${verdict(p99x('stream') <= 3)} |`);
  lines.push(`| service errors / non-2xx, all runs | ${totalErrors} | 0 | ${verdict(totalErrors === 0)} |`);
  if (traced && sinkOrigin) {
    // What tracing costs: the traced service against the untraced one, run for run (issue 30).
    const stats = (await fetch(`${sinkOrigin}/stats`).then((r) => r.json())) as { exports: number; bytes: number };
    lines.push('');
    lines.push('| tracing on / off (issue 30) | throughput on / off | added p50 ms | added p99 ms | added CPU ms per call |');
    lines.push('| --- | ---: | ---: | ---: | ---: |');
    for (const sc of scenarios) {
      const on = get('service (traced)', sc.mode, sc.connections);
      const off = get('service', sc.mode, sc.connections);
      lines.push(`| ${sc.mode}, ${sc.connections} connection${sc.connections > 1 ? 's' : ''} | ${f((on.rps / off.rps) * 100, 1)}% | ${f(on.p50 - off.p50)} | ${f(on.p99 - off.p99)} | ${f(on.cpuMsPerCall - off.cpuMsPerCall, 3)} |`);
    }
    const tracedErrors = [...results.entries()]
      .filter(([k]) => k.startsWith('service (traced)|'))
      .reduce((n, [, r]) => n + r.errors + r.timeouts + r.non2xx + r.mismatches, 0);
    lines.push('');
    lines.push(`Traced service: ${tracedErrors} errors / non-2xx; the OTLP sink had received ${stats.exports} exports, ${(stats.bytes / 1e3).toFixed(0)} kB by the end of the runs (http/protobuf, batch span processor defaults: an export every 5 s).`);
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
  await cleanUp();
}
process.exit(failed ? 1 : 0);
