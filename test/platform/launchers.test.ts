/**
 * Draining however the service is started (issue 25): `npm start` with SIGTERM sent to its process
 * group (as systemd and a terminal's Ctrl-C do: npm and node each get a copy, and npm relays its own),
 * and the compose service's exec-form command line (read from docker-compose.yml) with SIGTERM sent to
 * npm alone (as `init: true`'s PID 1 passes it on). A request in flight when the signal comes completes
 * with 200, and the server drains and closes cleanly, not exiting at the relayed copy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const available = await postgresAvailable();
let models: ScriptedModelServer;

beforeAll(async () => {
  if (available) models = await startScriptedModelServer();
});
afterAll(() => models?.close());

/** The `command` of a compose service in exec form (a JSON array in YAML flow style). */
function composeCommand(service: string): string[] {
  const text = readFileSync(`${ROOT}/docker-compose.yml`, 'utf8');
  const block = text.split(/\n  (?=[\w-]+:\n)/).find((b) => b.startsWith(`${service}:`));
  const line = /\n\s+command: (\[.*\])\n/.exec(block ?? '')?.[1];
  if (!line) throw new Error(`no exec-form command for ${service} in docker-compose.yml`);
  return JSON.parse(line) as string[];
}

interface Started {
  child: ChildProcess;
  db: TestDatabase;
  baseUrl: string;
  key: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function start(argv: string[]): Promise<Started> {
  const db = await createTestDatabase();
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: ROOT,
    detached: true, // a process group of its own, as a service manager gives it
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: db.url!,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SVC_DEPLOYMENT: 'onprem',
      SVC_MODEL_BASE_URL: models.baseUrl,
      SVC_MODEL_API_KEY: 'scripted',
      SVC_MODEL: 'scripted-standard',
      SVC_SHUTDOWN_GRACE_MS: '30000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (text += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (text += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 240_000;
  let port: number | undefined;
  let key: string | undefined;
  while (Date.now() < deadline && (port === undefined || key === undefined)) {
    port ??= Number(/"msg":"svc listening"[^\n]*"port":(\d+)|"port":(\d+)[^\n]*"msg":"svc listening"/.exec(text)?.slice(1).find(Boolean)) || undefined;
    key ??= /^\s+(svc_\S+)\s*$/m.exec(text)?.[1];
    if (child.exitCode !== null) throw new Error(`exited before listening:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (port === undefined || key === undefined) throw new Error(`not listening in time:\n${text}`);
  return { child, db, baseUrl: `http://127.0.0.1:${port}`, key, output: () => text, exited };
}

async function drainsWith(argv: string[], send: (child: ChildProcess) => void): Promise<void> {
  const s = await start(argv);
  try {
    let release!: () => void;
    models.enqueue({ content: 'Drained answer.', until: new Promise<void>((r) => (release = r)) });
    const inFlight = fetch(`${s.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Hold on' }] }),
    });
    const before = models.requests.length;
    while (models.requests.length === before) await new Promise((r) => setTimeout(r, 20));
    send(s.child);
    // The relayed copies arrive within a moment; the request must still be served after them.
    await new Promise((r) => setTimeout(r, 1000));
    release();
    const res = await inFlight;
    expect(res.status, s.output()).toBe(200);
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('Drained answer.');
    // npm may exit at the signal before its child: the server's own end is in its log.
    const until = Date.now() + 60_000;
    while (!/"msg":"shutdown complete"/.test(s.output()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(s.output()).toMatch(/"msg":"drained: every request and worker finished"/);
    expect(s.output()).toMatch(/"msg":"shutdown complete"/);
    expect(s.output()).not.toMatch(/second signal during shutdown/);
  } finally {
    try {
      process.kill(-s.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await s.db.drop();
  }
}

describe.skipIf(!available)('draining as operators start the service', () => {
  it('npm start, SIGTERM to the process group', async () => {
    await drainsWith(['npm', 'start'], (child) => process.kill(-child.pid!, 'SIGTERM'));
  }, 300_000);

  it("the compose replica's command line, SIGTERM to the server as init passes it on", async () => {
    const argv = composeCommand('svc-replica');
    expect(argv).toEqual(['node', '--import', 'tsx', 'src/main.ts']);
    expect(composeCommand('svc')).toEqual(['sh', '-c', expect.stringMatching(/&& exec node --import tsx src\/main\.ts$/)]);
    await drainsWith(argv, (child) => child.kill('SIGTERM'));
  }, 300_000);
});
