/**
 * What the service adds to a chat turn. The scripted OpenAI-compatible model answers after a fixed
 * delay; we measure the turn's latency minus that delay (p50/p99) and, on the streamed route, the
 * time to the first token minus the delay, at 1, 10 and 50 concurrent clients.
 *
 *   npx tsx bench/chat-turn.ts            (real PostgreSQL on 127.0.0.1:5432 when it answers)
 *
 * Loopback only; bounded (a few hundred turns per cell, well under two minutes).
 */
import { api } from '../test/support/api.js';
import { startTestApp } from '../test/support/app.js';
import { startScriptedModelServer } from '../test/support/scripted-model-server.js';

const MODEL_DELAY_MS = 50;
/** Clients, turns per client, and whether each client has a workspace of its own. */
const CELLS = [
  { clients: 1, turns: 50, own: false },
  { clients: 10, turns: 15, own: false },
  { clients: 50, turns: 6, own: false },
  { clients: 50, turns: 6, own: true },
];
const WARMUP_TURNS = 20;

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
    const body = JSON.stringify({ message: 'What is the answer?', context: [{ category: 'note', data: { project: 'bench' } }] });
    type Target = (typeof workspaces)[number];
    const headersOf = (w: Target) => ({ authorization: `Bearer ${w.key}`, 'content-type': 'application/json' });

    const plain = async (w: Target): Promise<Sample> => {
      const started = performance.now();
      const res = await fetch(t.baseUrl + w.path, { method: 'POST', headers: headersOf(w), body });
      await res.text();
      if (res.status !== 200) throw new Error(`plain turn failed: ${res.status}`);
      return { totalMs: performance.now() - started };
    };
    const streamed = async (w: Target): Promise<Sample> => {
      const started = performance.now();
      const res = await fetch(`${t.baseUrl}${w.path}/stream`, { method: 'POST', headers: headersOf(w), body });
      if (res.status !== 200 || !res.body) throw new Error(`stream failed: ${res.status}`);
      const decoder = new TextDecoder();
      let text = '';
      let firstTokenMs: number | undefined;
      const reader = res.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        text += decoder.decode(chunk.value, { stream: true });
        if (firstTokenMs === undefined && text.includes('"type":"token"')) firstTokenMs = performance.now() - started;
      }
      if (!text.includes('"type":"done"')) throw new Error('stream ended without done');
      return { totalMs: performance.now() - started, firstTokenMs };
    };

    for (let i = 0; i < WARMUP_TURNS; i++) await (i % 2 ? plain(workspaces[0]!) : streamed(workspaces[0]!));

    const rows: string[] = [];
    for (const [route, turn] of [
      ['plain', plain],
      ['stream', streamed],
    ] as const) {
      for (const cell of CELLS) {
        const samples: Sample[] = [];
        const started = performance.now();
        await Promise.all(
          Array.from({ length: cell.clients }, async (_, c) => {
            const target = workspaces[cell.own ? c + 1 : 0]!;
            for (let i = 0; i < cell.turns; i++) samples.push(await turn(target));
          }),
        );
        const wall = (performance.now() - started) / 1000;
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
    process.stdout.write(`Chat turn overhead (model delay ${MODEL_DELAY_MS} ms subtracted), ${db}\n\n`);
    process.stdout.write('| Route | Clients | Workspace | Turns | p50 added (ms) | p99 added (ms) | TTFT added p50 / p99 (ms) | Turns/s |\n');
    process.stdout.write('| --- | --- | --- | --- | --- | --- | --- | --- |\n');
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    await t.close();
    await model.close();
  }
}

await main();
