/**
 * What the service adds to a chat turn. The scripted OpenAI-compatible model answers after a fixed
 * delay, in a process of its own (bench/support/serve-scripted-model.ts). Each cell's clients (a process of their
 * own, bench/support/chat-load.ts) alternate the service's turns with the floor: the same request the service sends
 * the model (captured from the model server after the warm-up), sent to the model directly. Per cell: the floor's and
 * the service's p50/p99 (the whole call; on the streamed route also the time to the first token), added = service p50
 * − floor p50, and beside it the earlier figure, the service's time minus the nominal model delay (which counted the
 * model's late timer and the loopback call as the service's), at 1, 10 and 50 concurrent clients.
 *
 *   npx tsx bench/chat-turn.ts            (real PostgreSQL on 127.0.0.1:5432 when it answers)
 *   CLIENTS=1 TURNS=200 npx tsx bench/chat-turn.ts     (only the one-client cells, 200 turns each: for A/B runs)
 *   CHECKOUT=/work/base-x …   (the app of another checkout, a base worktree for A/B runs: bench/support/checkout.ts)
 *   AGENTS=30 …            (the shared workspace holds 30 agents: the answering one and 29 colleagues; default 1)
 *
 * Loopback only; bounded (a few hundred turns per cell and as many model calls). The server (the test app) runs here,
 * the model and the clients each in a process of their own.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { checkoutSupport } from './support/checkout.js';
import { stopChildren } from './support/processes.js';

const MODEL_DELAY_MS = 50;
/** Clients, turns per client, and whether each client has a workspace of its own. */
const ONLY = process.env.CLIENTS?.split(',').map(Number);
const ONE_CLIENT_TURNS = Number(process.env.TURNS ?? 50);
const CELLS = [
  { clients: 1, turns: ONE_CLIENT_TURNS, own: false },
  { clients: 10, turns: 15, own: false },
  { clients: 50, turns: 6, own: false },
  { clients: 50, turns: 6, own: true },
].filter((cell) => !ONLY || ONLY.includes(cell.clients));
const WARMUP_TURNS = 20;
/** Agents of the shared workspace (the one- and ten-client cells): the answering one and its colleagues. */
const SHARED_AGENTS = Number(process.env.AGENTS ?? 1);

interface Sample {
  totalMs: number;
  firstTokenMs?: number;
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
};

async function main(): Promise<void> {
  const { root, api, startTestApp } = await checkoutSupport();
  const loadBefore = loadavg()[0]!.toFixed(1);
  // The model in a process of its own (its timer no longer shares this process with the service), with an IPC
  // channel that answers the last request it received.
  const model = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/serve-scripted-model.ts', import.meta.url))], {
    env: { ...process.env, DELAY_MS: String(MODEL_DELAY_MS) },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const modelBaseUrl = await new Promise<string>((resolve, reject) => {
    model.stdout!.once('data', (d: Buffer) => resolve(String(d).trim()));
    model.once('exit', (code) => reject(new Error(`model server exited ${code}`)));
  });
  const lastModelRequest = async (): Promise<string> => {
    const reply = once(model, 'message');
    model.send('last');
    const [{ lastRequest }] = (await reply) as [{ lastRequest: unknown }];
    if (!lastRequest) throw new Error('the model server received no request');
    return JSON.stringify(lastRequest);
  };
  const t = await startTestApp({
    env: {
      SVC_MODEL_BASE_URL: modelBaseUrl,
      SVC_MODEL_API_KEY: 'bench',
      SVC_MODEL: 'scripted-model',
      SVC_RATE_AGENT_CHAT: '1000000',
      SVC_DB_POOL_MAX: '30',
    },
  });
  try {
    // One agent per workspace; the shared workspace is the first one.
    const workspaces = await Promise.all(
      Array.from({ length: 51 }, async () => {
        const tenant = await t.tenant({ seats: 1000 });
        const created = await api(t.baseUrl, tenant.key).post('/v1/agents', {
          name: 'Bench',
          role: 'Analyst',
          personality: 'Brief',
          mission: 'Answer quickly',
          decisionStyle: 'Direct',
          systemPrompt: 'Be short.',
        });
        return { key: tenant.key, path: `/v1/agents/${created.body.agent.id}/chat` };
      }),
    );
    for (let i = 1; i < SHARED_AGENTS; i++) {
      await api(t.baseUrl, workspaces[0]!.key).post('/v1/agents', {
        name: `Colleague ${i}`,
        role: 'Clerk',
        personality: 'Careful',
        mission: `Keep ledger ${i} in order`,
        decisionStyle: 'By the book',
        systemPrompt: 'Answer from the ledger.',
      });
    }
    const body = JSON.stringify({ message: 'What is the answer?', context: [{ category: 'note', data: { project: 'bench' } }] });
    // The clients run in a process of their own (bench/support/chat-load.ts), one per cell.
    const load = (spec: { clients: number; turns: number; own: boolean; stream: boolean; warmup: number; floor?: { url: string; body: string } }) =>
      new Promise<{ samples: Sample[]; floor: Sample[]; wallS: number }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/chat-load.ts', import.meta.url)), JSON.stringify({ baseUrl: t.baseUrl, body, targets: workspaces, ...spec })], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`chat-load exited ${code}`))));
      });

    // The warm-up's last turn of each route gives the floor its request: exactly what the service sent the model.
    const modelUrl = `${modelBaseUrl}/chat/completions`;
    await load({ clients: 1, turns: 0, own: false, stream: false, warmup: WARMUP_TURNS / 2 });
    const floorPlain = { url: modelUrl, body: await lastModelRequest() };
    await load({ clients: 1, turns: 0, own: false, stream: true, warmup: WARMUP_TURNS / 2 });
    const floorStream = { url: modelUrl, body: await lastModelRequest() };

    const fmt = (v: number) => v.toFixed(1);
    const p50p99 = (v: number[]) => (v.length ? `${fmt(percentile(v, 50))} / ${fmt(percentile(v, 99))}` : '–');
    const rows: string[] = [];
    for (const route of ['plain', 'stream'] as const) {
      for (const cell of CELLS) {
        const { samples, floor } = await load({ ...cell, stream: route === 'stream', warmup: 0, floor: route === 'stream' ? floorStream : floorPlain });
        await lastModelRequest(); // empties the model server's record of requests
        const measures = [
          { name: 'whole', of: (s: Sample) => s.totalMs },
          ...(route === 'stream' ? [{ name: 'first token', of: (s: Sample) => s.firstTokenMs }] : []),
        ];
        for (const m of measures) {
          const service = samples.flatMap((s) => m.of(s) ?? []);
          const base = floor.flatMap((s) => m.of(s) ?? []);
          const nominal = service.map((v) => v - MODEL_DELAY_MS);
          const meanMs = samples.reduce((n, s) => n + s.totalMs, 0) / samples.length;
          rows.push(
            `| ${route} | ${m.name} | ${cell.clients} | ${cell.own ? 'one each' : 'shared'} | ${service.length} / ${base.length} | ${p50p99(base)} | ${p50p99(service)} | **${fmt(
              percentile(service, 50) - percentile(base, 50),
            )}** | ${p50p99(nominal)} | ${((cell.clients * 1000) / meanMs).toFixed(0)} |`,
          );
        }
      }
    }
    const db = t.db.url ? 'PostgreSQL' : 'embedded PGlite';
    process.stdout.write(
      `Chat turn overhead beside its floor (the model called directly, same clients, same run; model delay ${MODEL_DELAY_MS} ms), app of ${root}, ${db}, ${SHARED_AGENTS} agent(s) in the shared workspace, load average ${loadBefore} before, ${loadavg()[0]!.toFixed(1)} after\n\n`,
    );
    process.stdout.write(
      '| Route | Measure | Clients | Workspace | Turns / floor calls | Floor p50 / p99 (ms) | Service p50 / p99 (ms) | Added p50 (service − floor, ms) | Minus nominal delay p50 / p99 (ms, earlier figure) | Turns/s |\n',
    );
    process.stdout.write('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n');
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    await t.close();
    model.disconnect();
    await stopChildren([model], 5_000);
  }
}

await main();
