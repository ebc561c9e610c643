/**
 * Draining however the service is started (issue 25): `npm start` with SIGTERM sent to its process
 * group (as systemd and a terminal's Ctrl-C do: npm and node each get a copy, and npm relays its own)
 * or to npm alone, with one server process or several (`SVC_WORKERS`), and the compose service's
 * exec-form command line (read from docker-compose.yml) with SIGTERM sent to the server as `init: true`'s
 * PID 1 passes it on. Requests in flight when the signal comes complete with 200, open streams get their
 * `server_restarting` event, an in-flight webhook test answers, an automatic delivery's claim is given
 * back, and every process of the group exits by itself, none at a relayed copy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { api } from '../support/api.js';
import { persona } from '../support/agents.js';
import { dataOf, readSse } from '../support/sse.js';
import { createApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/lib/logger.js';
import { runDueDeliveries } from '../../src/modules/webhooks/dispatcher.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const available = await postgresAvailable();
let models: ScriptedModelServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  if (!available) return;
  models = await startScriptedModelServer();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await models?.close();
  await receiver?.close();
});

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

async function start(argv: string[], extraEnv: Record<string, string> = {}): Promise<Started> {
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
      ...extraEnv,
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

/** The processes of a process group still alive (zombies left out: their parent may reap them late). */
function liveMembers(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces, so read after its closing parenthesis.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') pids.push(Number(entry));
  }
  return pids;
}

/** Resolves once no process of the group is left, or fails with what still runs. */
async function groupExits(s: Started, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (liveMembers(s.child.pid!).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  expect(liveMembers(s.child.pid!), `processes of the group still running ${timeoutMs} ms after the signal:\n${s.output()}`).toEqual([]);
}

const count = (text: string, msg: string) => text.split('\n').filter((l) => l.includes(`"msg":"${msg}"`)).length;

/** Two server processes under `npm start`, both listening. */
async function startWorkers(env: Record<string, string> = {}): Promise<Started> {
  const s = await start(['npm', 'start'], { SVC_WORKERS: '2', SVC_RATE_GATEWAY: '1000', SVC_RATE_AGENT_CHAT: '1000', ...env });
  const until = Date.now() + 120_000;
  while (!/"msg":"svc listening with several server processes"/.test(s.output()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  expect(s.output()).toMatch(/"msg":"svc listening with several server processes"/);
  return s;
}

async function stopped(s: Started): Promise<void> {
  try {
    process.kill(-s.child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  models.setDefault(undefined);
  await s.db.drop();
}

/** Fifty requests held by the model when the signal comes; each completes with 200, every process exits by itself. */
async function drainsFiftyWithWorkers(send: (child: ChildProcess) => void): Promise<void> {
  const s = await startWorkers();
  try {
    let release!: () => void;
    models.setDefault({ content: 'Drained answer.', until: new Promise<void>((r) => (release = r)) });
    const before = models.requests.length;
    const inFlight = Array.from({ length: 50 }, (_, i) =>
      fetch(`${s.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: `Hold on ${i}` }] }),
      }).then(async (res) => ({ status: res.status, text: await res.text() }), (err: unknown) => ({ status: 0, text: String(err) })),
    );
    const until = Date.now() + 60_000;
    while (models.requests.length - before < 50 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(models.requests.length - before).toBe(50);
    send(s.child);
    // The relayed copies (npm's, the supervisor's) arrive within a moment; the requests must outlive them.
    await new Promise((r) => setTimeout(r, 1000));
    release();
    const answers = await Promise.all(inFlight);
    expect(answers.filter((a) => a.status !== 200), s.output()).toEqual([]);
    expect(answers.every((a) => (JSON.parse(a.text) as { choices: { message: { content: string } }[] }).choices[0]!.message.content === 'Drained answer.')).toBe(true);
    await groupExits(s, 60_000);
    const out = s.output();
    expect(count(out, 'drained: every request and worker finished'), out).toBe(2);
    expect(count(out, 'shutdown complete'), out).toBe(2);
    expect(out).not.toMatch(/second signal during shutdown|server process exited: starting another|shutdown failed/);
    expect(out.split('\n').find((l) => l.includes('"msg":"every server process stopped"'))).toMatch(/"failed":false/);
  } finally {
    await stopped(s);
  }
}

async function dbRows<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
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

  it('npm start with SVC_WORKERS=2, SIGTERM to the process group: 50 requests in flight complete', async () => {
    await drainsFiftyWithWorkers((child) => process.kill(-child.pid!, 'SIGTERM'));
  }, 300_000);

  it('npm start with SVC_WORKERS=2, SIGTERM to npm alone: 50 requests in flight complete', async () => {
    await drainsFiftyWithWorkers((child) => child.kill('SIGTERM'));
  }, 300_000);

  it('npm start with SVC_WORKERS=2: a chat stream gets server_restarting, a webhook test answers, an automatic claim is given back', async () => {
    const graceMs = 6000;
    const s = await startWorkers({ SVC_SHUTDOWN_GRACE_MS: String(graceMs), SVC_STREAM_PING_MS: '60000' });
    try {
      const client = api(s.baseUrl, s.key);
      const agent = await client.post('/v1/agents', persona('Ada'));
      expect(agent.status).toBe(201);
      const tested = await client.post('/v1/webhooks', { url: receiver.url('/launch-test'), events: ['source.ingested'] });
      const automatic = await client.post('/v1/webhooks', { url: receiver.url('/launch-auto'), events: ['source.ingested'] });
      expect([tested.status, automatic.status]).toEqual([201, 201]);

      // An automatic delivery whose receiver never answers: its attempt is in flight at the signal.
      receiver.behave('/launch-auto', { kind: 'hang' });
      const [{ workspace_id: workspaceId }] = await dbRows<{ workspace_id: string }>(s.db.url!, `select workspace_id from webhook_endpoint limit 1`);
      await dbRows(
        s.db.url!,
        `insert into webhook_delivery (id, workspace_id, endpoint_id, event_id, event, body, attempts, response_body, success, next_attempt_at, created_at)
         values ('whd_launch', '${workspaceId}', '${automatic.body.webhook.id}', 'evt_launch', 'source.ingested', '{"event":"source.ingested"}', 0, '', false, now(), now())`,
      );
      await receiver.waitFor(1, { path: '/launch-auto', timeoutMs: 20_000 });
      const claimed = await dbRows<{ lease_until: Date | null }>(s.db.url!, `select lease_until from webhook_delivery where id = 'whd_launch'`);
      expect(claimed[0]!.lease_until).not.toBeNull();

      // A chat stream whose model falls silent after a token: still open when the drain time is over.
      models.enqueue({ chunks: ['Hello '], hang: true });
      const stream = readSse(
        await fetch(`${s.baseUrl}/v1/agents/${agent.body.agent.id}/chat/stream`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'Hi' }),
        }),
      );
      const until = Date.now() + 30_000;
      while (!stream.frames.some((f) => dataOf(f).type === 'token') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(stream.frames.some((f) => dataOf(f).type === 'token')).toBe(true);

      // A webhook test whose receiver is slow: in flight at the signal.
      let releaseReceiver!: () => void;
      receiver.behave('/launch-test', { kind: 'status', status: 200, body: 'ok', until: new Promise<void>((r) => (releaseReceiver = r)) });
      const test = client.post(`/v1/webhooks/${tested.body.webhook.id}/test`);
      await receiver.waitFor(1, { path: '/launch-test', timeoutMs: 20_000 });

      const sentAt = Date.now();
      process.kill(-s.child.pid!, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
      releaseReceiver();
      expect((await test).status, s.output()).toBe(200);
      expect((await test).body).toMatchObject({ success: true, statusCode: 200 });

      await stream.done;
      expect(dataOf(stream.frames.at(-1)!), s.output()).toEqual({
        type: 'error',
        data: { status: 503, error: 'The server is restarting; retry the request', code: 'server_restarting' },
      });
      await groupExits(s, graceMs + 30_000);
      expect(Date.now() - sentAt).toBeLessThan(graceMs + 30_000);
      const out = s.output();
      expect(count(out, 'shutdown complete'), out).toBe(2);
      expect(out).not.toMatch(/second signal during shutdown|shutdown grace period over|shutdown failed/);
      expect(out.split('\n').find((l) => l.includes('"msg":"every server process stopped"'))).toMatch(/"failed":false/);

      // The claim was given back, not left to its lease: the attempt is due for anyone, and uncounted.
      const [row] = await dbRows<{ lease_until: Date | null; lease_token: string | null; attempts: number; success: boolean }>(
        s.db.url!,
        `select lease_until, lease_token, attempts, success from webhook_delivery where id = 'whd_launch'`,
      );
      expect(row).toEqual({ lease_until: null, lease_token: null, attempts: 0, success: false });
      receiver.behave('/launch-auto', { kind: 'status', status: 200, body: 'ok' });
      const config = loadConfig({ LOG_LEVEL: 'silent', SVC_DEPLOYMENT: 'onprem', SVC_BACKGROUND_JOBS: 'off', DATABASE_URL: s.db.url! });
      const other = await createApp({ config, log: createLogger('silent') });
      try {
        expect(await runDueDeliveries(other.services, new Date())).toEqual({ attempted: 1, succeeded: 1 });
      } finally {
        await other.close();
      }
    } finally {
      await stopped(s);
    }
  }, 300_000);
});
