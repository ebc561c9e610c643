/**
 * What the service adds to each turn of a debate, next to what it adds to a chat turn. The scripted
 * OpenAI-compatible model answers every call after a fixed delay; a debate of two debaters and the
 * devil's advocate makes 3 calls a round plus the synthesis. Overhead per model call = (latency −
 * calls × delay) / calls, at p50 and p99, for plain chat turns and for debates of 1, 2 and 5 rounds.
 *
 *   npx tsx bench/debate-turn.ts            (real PostgreSQL on 127.0.0.1:5432 when it answers)
 *
 * Loopback only, one client at a time, bounded (well under two minutes). The server (the test app) runs
 * here; the client runs in a process of its own (bench/support/post-load.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api } from '../test/support/api.js';
import { startTestApp } from '../test/support/app.js';
import { startScriptedModelServer } from '../test/support/scripted-model-server.js';

const MODEL_DELAY_MS = 50;
const CHAT_TURNS = 60;
const DEBATES = [
  { rounds: 1, runs: 20 },
  { rounds: 2, runs: 15 },
  { rounds: 5, runs: 8 },
];
const WARMUP = 5;

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
};

async function main(): Promise<void> {
  const model = await startScriptedModelServer({ delayMs: MODEL_DELAY_MS });
  model.setDefault({ chunks: ['Trains ', 'are ', 'cheaper ', 'under ', 'four ', 'hours.'], usage: { prompt: 900, completion: 6 } });
  const t = await startTestApp({
    env: { SVC_MODEL_BASE_URL: model.baseUrl, SVC_MODEL_API_KEY: 'bench', SVC_MODEL: 'scripted-model', SVC_RATE_AGENT_CHAT: '1000000', SVC_DB_POOL_MAX: '30' },
  });
  const dir = mkdtempSync(join(tmpdir(), 'debate-bench-'));
  try {
    const tenant = await t.tenant({ seats: 1000 });
    const agent = async (name: string, role: string) =>
      (await api(t.baseUrl, tenant.key).post('/v1/agents', { name, role, personality: 'Brief', mission: `Speak for ${role}`, decisionStyle: 'Direct', systemPrompt: 'Be short.' })).body
        .agent.id as string;
    const ada = await agent('Ada', 'Travel manager');
    const bob = await agent('Bob', 'Sales lead');
    const headers = { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' };

    const run = (path: string, body: unknown, runs: number) =>
      new Promise<{ ms: number[]; statuses: number[] }>((resolve, reject) => {
        const bodyFile = join(dir, `body-${Math.random().toString(36).slice(2)}.json`);
        writeFileSync(bodyFile, JSON.stringify(body));
        const spec = JSON.stringify({ url: t.baseUrl + path, headers, bodyFile, runs });
        const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/post-load.ts', import.meta.url)), spec], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`post-load exited ${code}`))));
      });
    const check = (r: { statuses: number[] }, ok: number) => {
      const bad = r.statuses.find((s) => s !== ok);
      if (bad !== undefined) throw new Error(`unexpected status ${bad}`);
    };

    const chatBody = { message: 'Trains or flights for trips under four hours?' };
    const debateBody = (rounds: number) => ({ topic: 'Trains or flights for trips under four hours?', agentIds: [ada, bob], rounds });
    check(await run(`/v1/agents/${ada}/chat`, chatBody, WARMUP), 200);
    check(await run('/v1/conversations', debateBody(1), WARMUP), 201);

    const fmt = (v: number) => v.toFixed(1);
    const rows: string[] = [];
    const chat = await run(`/v1/agents/${ada}/chat`, chatBody, CHAT_TURNS);
    check(chat, 200);
    const chatAdded = chat.ms.map((ms) => ms - MODEL_DELAY_MS);
    rows.push(`| chat turn | 1 | ${chat.ms.length} | ${fmt(percentile(chatAdded, 50))} | ${fmt(percentile(chatAdded, 99))} | ${fmt(percentile(chatAdded, 50))} |`);
    for (const d of DEBATES) {
      const calls = 3 * d.rounds + 1;
      const res = await run('/v1/conversations', debateBody(d.rounds), d.runs);
      check(res, 201);
      const added = res.ms.map((ms) => ms - calls * MODEL_DELAY_MS);
      const perCall = added.map((a) => a / calls);
      rows.push(`| debate, ${d.rounds} round${d.rounds > 1 ? 's' : ''} | ${calls} | ${res.ms.length} | ${fmt(percentile(perCall, 50))} | ${fmt(percentile(perCall, 99))} | ${fmt(percentile(added, 50))} |`);
    }
    const db = t.db.url ? 'PostgreSQL' : 'embedded PGlite';
    process.stdout.write(`Debate turn overhead next to a chat turn (model delay ${MODEL_DELAY_MS} ms a call subtracted), ${db}, one client\n\n`);
    process.stdout.write('| Request | Model calls | Requests | p50 added per call (ms) | p99 added per call (ms) | p50 added per request (ms) |\n');
    process.stdout.write('| --- | --- | --- | --- | --- | --- |\n');
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
    await model.close();
  }
}

await main();
