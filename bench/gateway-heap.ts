/**
 * Where a gateway call's garbage comes from (issue 28): the canned model and one service (checkout HEAP_ROOT,
 * default this one) in processes of their own, as in bench/gateway-ab.ts; after a warm-up, a sampling heap
 * profile of the service (bench/support/heap-sampler.mjs: every allocation, the objects GC collected since
 * included) over CALLS calls, then the bytes allocated per call and the top allocation sites.
 *
 *   BENCH_SCENARIOS=stream-100,plain-100 npx tsx bench/gateway-heap.ts
 *
 * A number of calls, not a duration, so that the process has done the same work whatever the machine's load
 * (how much V8 has optimised, and so what escapes to the heap, depends on the calls made, not on the time):
 * WARMUP_CALLS (default 8000) unprofiled, then CALLS (default 4000) profiled, per scenario.
 *
 * Per scenario: the service's bytes allocated per call (the profile's total over the calls answered), then
 * the sites by bytes per call: the allocating function (its own frame, `self`), and the first frame of this
 * project's code above it (`src/`, `rest/`: which of our lines made a library allocate). TOP (default 25)
 * rows each. HEAP_PROFILE_DIR keeps the .heapprofile files (Chrome DevTools opens them).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopChildren } from './support/processes.js';
import { createTestDatabase, type TestDatabase } from '../test/support/database.js';

const WARMUP_CALLS = Number(process.env.WARMUP_CALLS ?? 8000);
const CALLS = Number(process.env.CALLS ?? 4000);
const TOP = Number(process.env.TOP ?? 25);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const root = resolvePath(process.env.HEAP_ROOT ?? '.');
const profileDir = process.env.HEAP_PROFILE_DIR ?? tmpdir();

const children: ChildProcess[] = [];
const dbs: TestDatabase[] = [];
let serviceErr = '';

function start(cwd: string, file: string, env: Record<string, string>, name: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr?.on('data', (d: Buffer) => {
    if (name === 'service') serviceErr += d;
    else process.stderr.write(`[${name}] ${d}`);
  });
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

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const frameName = (f: ProfileNode['callFrame']) => {
  const at = f.url.replace(/^file:\/\//, '').replace(`${root}/`, '').replace(/^.*node_modules\//, '~/');
  return `${f.functionName || '(anonymous)'} ${at ? `${at}:${f.lineNumber + 1}` : ''}`.trim();
};
const ours = (f: ProfileNode['callFrame']) => /\/(src|rest)\//.test(f.url) && !f.url.includes('node_modules');

function summarise(head: ProfileNode, calls: number): string[] {
  const self = new Map<string, number>();
  const byOurs = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode, ourFrame: string | undefined) => {
    const mine = ours(node.callFrame) ? frameName(node.callFrame) : ourFrame;
    if (node.selfSize > 0) {
      total += node.selfSize;
      const name = frameName(node.callFrame);
      self.set(name, (self.get(name) ?? 0) + node.selfSize);
      const key = mine ?? '(no frame of ours)';
      byOurs.set(key, (byOurs.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, mine);
  };
  walk(head, undefined);
  const rows = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([k, v]) => `| ${k.replace(/\|/g, '\\|')} | ${(v / calls).toFixed(0)} | ${((100 * v) / total).toFixed(1)} % |`);
  return [
    `bytes allocated per call: **${(total / calls).toFixed(0)}** (${calls} calls, ${(total / 1e6).toFixed(1)} MB sampled)`,
    '',
    '| allocating function (self) | bytes per call | share |',
    '| --- | ---: | ---: |',
    ...rows(self),
    '',
    '| first frame of ours above the allocation | bytes per call | share |',
    '| --- | ---: | ---: |',
    ...rows(byOurs),
  ];
}

async function main(): Promise<void> {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const model = start(cwd, here('./support/canned-model.ts'), { PORT: '0' }, 'canned model');
  const modelOrigin = await new Promise<string>((resolve, reject) => {
    let buf = '';
    model.stdout?.on('data', (d: Buffer) => {
      buf += d;
      const m = /\{"port":(\d+)\}/.exec(buf);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    model.on('exit', () => reject(new Error('canned model exited')));
  });
  const db = await createTestDatabase();
  if (!db.url) throw new Error('PostgreSQL does not answer at TEST_DATABASE_URL');
  dbs.push(db);
  const created = JSON.parse(
    await run(root, 'npm', ['run', '--silent', 'svc', '--', 'workspace', 'create', '--name', 'bench', '--plan', 'cabinet', '--seats', '100000'], { DATABASE_URL: db.url, LOG_LEVEL: 'warn' }),
  ) as { key: { secret: string } };
  const port = await freePort();
  const out = join(profileDir, `gateway-heap-${process.pid}.heapprofile`);
  const service = start(
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
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${here('./support/heap-sampler.mjs')}`.trim(),
      HEAP_SAMPLER_OUT: out,
    },
    'service',
  );
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (!(await fetch(`${origin}/health`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline || service.exitCode !== null) throw new Error(`service did not become healthy: ${serviceErr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const url = `${origin}/v1/chat/completions`;
  const only = process.env.BENCH_SCENARIOS?.split(',') ?? ['stream-100', 'plain-100'];
  process.stderr.write(`${root}; load average ${loadavg()[0]!.toFixed(2)}\n`);
  for (const scenario of only) {
    const [mode, c] = scenario.split('-') as [string, string];
    const stream = mode === 'stream';
    const body = JSON.stringify({
      model: 'svc-auto',
      messages: [{ role: 'user', content: 'What is the answer to everything?' }],
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    });
    const spec = (amount: number) => JSON.stringify({ url, connections: Number(c), durationS: 600, amount, warmupS: 0, body, headers: { authorization: `Bearer ${created.key.secret}` }, stream });
    const loader = here('./support/load.ts');
    const loadBefore = loadavg()[0]!;
    if (WARMUP_CALLS > 0) await run(cwd, process.execPath, ['--import', 'tsx', loader, spec(WARMUP_CALLS)]);
    service.kill('SIGUSR2');
    while (!serviceErr.includes('"heapSampling":"started"')) await new Promise((r) => setTimeout(r, 20));
    serviceErr = '';
    const result = JSON.parse((await run(cwd, process.execPath, ['--import', 'tsx', loader, spec(CALLS)])).trim().split('\n').pop()!) as { ok: number; rps: number; errors: number; mismatches: number; non2xx: number };
    service.kill('SIGUSR2');
    while (!serviceErr.includes('"heapProfile"')) await new Promise((r) => setTimeout(r, 20));
    const written = (JSON.parse(serviceErr.trim().split('\n').find((l) => l.includes('"heapProfile"'))!) as { heapProfile: string }).heapProfile;
    serviceErr = '';
    if (!existsSync(written)) throw new Error(`no profile at ${written}`);
    const file = written.replace('.heapprofile', `-${scenario}.heapprofile`);
    renameSync(written, file);
    const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode };
    console.log(
      [
        `### ${scenario} (${new Date().toISOString()}, load average ${loadBefore.toFixed(1)} before / ${loadavg()[0]!.toFixed(1)} after; ${result.rps.toFixed(0)} calls/s, ${result.errors + result.mismatches + result.non2xx} errors; profile ${file})`,
        '',
        ...summarise(profile.head, result.ok),
        '',
      ].join('\n'),
    );
  }
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
