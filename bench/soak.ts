/**
 * Soak benchmark (issue 25): does memory stay flat and throughput steady under hours of traffic? The
 * real app runs in this process (background jobs on: the webhook worker and the flow worker, real clock)
 * on PostgreSQL (a throwaway database on 127.0.0.1:5432, or DATABASE_URL; the embedded one otherwise);
 * the canned model server (bench/support/canned-model.ts) and the load generator with the webhook
 * receiver (bench/support/soak-load.ts) run in processes of their own. The load, all at once:
 *   - gateway calls, plain and streamed (`POST /v1/chat/completions`);
 *   - chat streams (`POST /v1/agents/:id/chat/stream`);
 *   - flow runs (`POST /engine/flows/:id/run`, three transform steps), each finished run a
 *     `flow.run.finished` webhook delivered by the worker to the receiver;
 *   - webhook tests (`POST /v1/webhooks/:id/test`, a delivery made while the request waits).
 * Every interval it prints the server's resident memory, heap used and the throughput of each kind;
 * at the end the first and last intervals side by side, and what stays linked to the process's
 * shutdown signal (0 expected) with the live AbortSignal count before and after (a full collection).
 *
 *   npx tsx bench/soak.ts            DURATION_S=300 INTERVAL_S=30 by default
 *   DURATION_S=20 INTERVAL_S=5 npx tsx bench/soak.ts        a smoke run
 *   SOAK_CLIENTS='{"gateway":24,"chat":4,"flow":4,"webhookTest":2}'  clients per kind (these are the defaults)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase } from '../test/support/database.js';
import { freePort, stopChildren } from './support/processes.js';

const DURATION_S = Number(process.env.DURATION_S ?? 300);
const INTERVAL_S = Number(process.env.INTERVAL_S ?? 30);
const CLIENTS = { gateway: 24, chat: 4, flow: 4, webhookTest: 2, ...(JSON.parse(process.env.SOAK_CLIENTS ?? '{}') as Record<string, number>) };
const root = fileURLToPath(new URL('..', import.meta.url));
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const children: ChildProcess[] = [];
let stopping = false;

function startTs(file: string, args: string[], env: Record<string, string>, name: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
  child.on('exit', (code, signal) => {
    if (!stopping && code !== 0) process.stderr.write(`[${name}] exited early (code ${code}, signal ${signal})\n`);
  });
  return child;
}

/** The JSON lines a child prints, one by one. */
function linesOf(child: ChildProcess): AsyncIterableIterator<string> {
  return createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const liveSignals = async (): Promise<number> => {
  v8.queryObjects(AbortSignal as never, { format: 'count' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  return v8.queryObjects(AbortSignal as never, { format: 'count' }) as number;
};

const model = startTs(here('./support/canned-model.ts'), [], { PORT: '0' }, 'canned model');
const modelPort = Number((JSON.parse((await linesOf(model).next()).value as string) as { port: number }).port);

const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, dataDir: 'memory://', drop: async () => {} } : await createTestDatabase();
const config = loadConfig({
  LOG_LEVEL: 'silent',
  SVC_DEPLOYMENT: 'onprem',
  SVC_BACKGROUND_JOBS: 'on',
  SVC_DATA_DIR: db.dataDir,
  SVC_DB_POOL_MAX: '20',
  SVC_RATE_GATEWAY: '1000000000',
  SVC_RATE_AGENT_CHAT: '1000000000',
  SVC_MODEL_BASE_URL: `http://127.0.0.1:${modelPort}/v1`,
  SVC_MODEL: 'canned-model',
  SVC_MODEL_CLASS: 'standard',
  ...(db.url ? { DATABASE_URL: db.url } : {}),
});
const app = await createApp({ config, log: createLogger('silent') });
const server = await listen(app.http, 0, '127.0.0.1');
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function post(key: string, path: string, body: unknown): Promise<Record<string, any>> {
  const res = await fetch(baseUrl + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, any>;
}

try {
  const created = await createWorkspace({ em: app.services.orm.em.fork(), clock: app.services.clock }, { name: 'soak', plan: 'cabinet', seats: 100_000 });
  const key = created.issued.secret;
  const agent = await post(key, '/v1/agents', {
    name: 'Soak',
    role: 'Analyst',
    personality: 'calm',
    mission: 'Answer briefly',
    decisionStyle: 'data first',
    systemPrompt: 'Answer in one sentence.',
  });
  const flow = await post(key, '/engine/flows', {
    name: 'Soak flow',
    graph: {
      nodes: [
        { key: 'start', type: 'trigger.manual' },
        { key: 'a', type: 'transform', config: { template: 'order {{input.n}}' } },
        { key: 'b', type: 'transform', config: { template: '{{steps.a.text}} checked' } },
        { key: 'c', type: 'transform', config: { template: 'done {{run.id}}' } },
      ],
      edges: [
        { from: 'start', to: 'a' },
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
      ],
    },
  });
  const receiverPort = await freePort();
  const webhook = await post(key, '/v1/webhooks', { url: `http://127.0.0.1:${receiverPort}/soak`, events: ['flow.run.finished'] });

  const signalsBefore = await liveSignals();
  const load = startTs(
    here('./support/soak-load.ts'),
    [
      JSON.stringify({
        baseUrl,
        key,
        agentId: agent.agent.id,
        flowId: flow.flow.id,
        webhookId: webhook.webhook.id,
        receiverPort,
        durationS: DURATION_S,
        intervalS: INTERVAL_S,
        clients: CLIENTS,
      }),
    ],
    {},
    'load',
  );

  console.log(`soak: ${DURATION_S} s in ${INTERVAL_S} s intervals, clients ${JSON.stringify(CLIENTS)}, driver=${config.databaseUrl ? 'postgresql' : 'pglite'} node=${process.version}`);
  console.log('    t  rss MB  heap MB | gateway/s  chat/s  flow runs/s  webhook tests/s  delivered/s | errors  load');
  const rows: { rss: number; heap: number; gateway: number; chat: number; flow: number; delivered: number }[] = [];
  for await (const line of linesOf(load)) {
    const r = JSON.parse(line) as Record<string, number | string | boolean>;
    if (r.done) break;
    const mem = process.memoryUsage();
    const per = (k: string) => Number(r[k]) / INTERVAL_S;
    rows.push({ rss: mem.rss, heap: mem.heapUsed, gateway: per('gateway'), chat: per('chat'), flow: per('flow'), delivered: per('delivered') });
    console.log(
      [
        String(r.t).padStart(5),
        mb(mem.rss).padStart(7),
        mb(mem.heapUsed).padStart(8),
        '|',
        per('gateway').toFixed(0).padStart(9),
        per('chat').toFixed(1).padStart(7),
        per('flow').toFixed(1).padStart(12),
        per('webhookTest').toFixed(1).padStart(16),
        per('delivered').toFixed(1).padStart(12),
        '|',
        String(r.errors).padStart(6),
        loadavg()[0]!.toFixed(1).padStart(5),
        r.firstError ? ` first error: ${r.firstError}` : '',
      ].join(' '),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const first = rows[0];
  const last = rows.at(-1);
  if (first && last) {
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
    console.log(
      JSON.stringify({
        bench: 'soak',
        intervals: rows.length,
        rssMb: { first: +mb(first.rss), last: +mb(last.rss) },
        heapMb: { first: +mb(first.heap), last: +mb(last.heap) },
        throughputLastOverFirst: { gateway: ratio(last.gateway, first.gateway), chat: ratio(last.chat, first.chat), flow: ratio(last.flow, first.flow) },
        linkedToShutdown: app.services.shutdown.linkedRequests,
        liveAbortSignals: { before: signalsBefore, after: await liveSignals() },
      }),
    );
  }
} finally {
  stopping = true;
  await stopChildren(children, 5000);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close();
  await db.drop();
}
