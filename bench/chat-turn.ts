/**
 * What the service adds to a chat turn. The scripted OpenAI-compatible model answers after a fixed
 * delay; we measure the turn's latency minus that delay (p50/p99) and, on the streamed route, the
 * time to the first token minus the delay, at 1, 10 and 50 concurrent clients.
 *
 *   npx tsx bench/chat-turn.ts            (real PostgreSQL on 127.0.0.1:5432 when it answers)
 *   CLIENTS=1 TURNS=200 npx tsx bench/chat-turn.ts     (only the one-client cells, 200 turns each: for A/B runs)
 *   CHECKOUT=/work/base-x …   (the app of another checkout, a base worktree for A/B runs: bench/support/checkout.ts)
 *   AGENTS=30 …            (the shared workspace holds 30 agents: the answering one and 29 colleagues; default 1)
 *
 * Loopback only; bounded (a few hundred turns per cell, well under two minutes). The server (the test app)
 * runs here; the clients of each cell run in a process of their own (bench/support/chat-load.ts).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { checkoutSupport } from './support/checkout.js';

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
  const { root, api, startTestApp, startScriptedModelServer } = await checkoutSupport();
  const loadBefore = loadavg()[0]!.toFixed(1);
  const model = await startScriptedModelServer({ delayMs: MODEL_DELAY_MS });
  model.setDefault({ chunks: ['The ', 'answer ', 'is ', '42.'], usage: { prompt: 400, completion: 4 } });
  const t = await startTestApp({
    env: {
      SVC_MODEL_BASE_URL: model.baseUrl,
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
    const load = (spec: { clients: number; turns: number; own: boolean; stream: boolean; warmup: number }) =>
      new Promise<{ samples: Sample[]; wallS: number }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/chat-load.ts', import.meta.url)), JSON.stringify({ baseUrl: t.baseUrl, body, targets: workspaces, ...spec })], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`chat-load exited ${code}`))));
      });

    await load({ clients: 1, turns: 0, own: false, stream: false, warmup: WARMUP_TURNS / 2 });
    await load({ clients: 1, turns: 0, own: false, stream: true, warmup: WARMUP_TURNS / 2 });

    const rows: string[] = [];
    for (const route of ['plain', 'stream'] as const) {
      for (const cell of CELLS) {
        const { samples, wallS: wall } = await load({ ...cell, stream: route === 'stream', warmup: 0 });
        const added = samples.map((s) => s.totalMs - MODEL_DELAY_MS);
        const ttft = samples.flatMap((s) => (s.firstTokenMs === undefined ? [] : [s.firstTokenMs - MODEL_DELAY_MS]));
        const fmt = (v: number) => v.toFixed(1);
        rows.push(
          `| ${route} | ${cell.clients} | ${cell.own ? 'one each' : 'shared'} | ${samples.length} | ${fmt(percentile(added, 50))} | ${fmt(percentile(added, 99))} | ${
            ttft.length ? `${fmt(percentile(ttft, 50))} / ${fmt(percentile(ttft, 99))}` : '–'
          } | ${(samples.length / wall).toFixed(0)} |`,
        );
      }
    }
    const db = t.db.url ? 'PostgreSQL' : 'embedded PGlite';
    process.stdout.write(`Chat turn overhead (model delay ${MODEL_DELAY_MS} ms subtracted), app of ${root}, ${db}, ${SHARED_AGENTS} agent(s) in the shared workspace, load average ${loadBefore} before, ${loadavg()[0]!.toFixed(1)} after\n\n`);
    process.stdout.write('| Route | Clients | Workspace | Turns | p50 added (ms) | p99 added (ms) | TTFT added p50 / p99 (ms) | Turns/s |\n');
    process.stdout.write('| --- | --- | --- | --- | --- | --- | --- | --- |\n');
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    await t.close();
    await model.close();
  }
}

await main();
