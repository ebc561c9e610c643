/**
 * The server's CPU per chat turn at one client, and optionally where it goes (issue 28). The app runs in this
 * process, the client in a process of its own (bench/support/chat-load.ts), the scripted model in this one
 * (its share is small and the same before and after a change). Prints the process CPU (user + system) per
 * turn over the measured turns, plain then streamed, and the load average before and after.
 *
 *   npx tsx bench/chat-turn-cpu.ts                 (TURNS=300 per route)
 *   PROFILE=/tmp/turn.cpuprofile npx tsx bench/chat-turn-cpu.ts
 *   CHECKOUT=/work/base-x npx tsx bench/chat-turn-cpu.ts   (the app of another checkout: bench/support/checkout.ts)
 *   ROUTES=plain PROFILE=/tmp/plain.cpuprofile npx tsx bench/chat-turn-cpu.ts      (one route only)
 *
 * With PROFILE set, the measured turns (not the start-up or the warm-up) are profiled with the inspector and
 * the profile written there (open it in Chrome's DevTools, or summarise it with bench/support/profile-top.ts).
 * CPU per turn is a ratio to compare back to back on the same machine, not a latency.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { checkoutSupport } from './support/checkout.js';

const TURNS = Number(process.env.TURNS ?? 300);
const WARMUP = Number(process.env.WARMUP ?? 50);
const PROFILE = process.env.PROFILE;
const ROUTES = (process.env.ROUTES ?? 'plain,stream').split(',').map((r) => r.trim());

const { root, api, startTestApp, startScriptedModelServer } = await checkoutSupport();
const model = await startScriptedModelServer({ delayMs: 1 });
model.setDefault({ chunks: ['The ', 'answer ', 'is ', '42.'], usage: { prompt: 400, completion: 4 } });
const t = await startTestApp({
  env: { SVC_MODEL_BASE_URL: model.baseUrl, SVC_MODEL_API_KEY: 'bench', SVC_MODEL: 'scripted-model', SVC_RATE_AGENT_CHAT: '1000000' },
});
const load = (spec: { turns: number; stream: boolean; warmup: number; targets: { key: string; path: string }[] }) =>
  new Promise<void>((resolve, reject) => {
    const body = JSON.stringify({ message: 'What is the answer?', context: [{ category: 'note', data: { project: 'bench' } }] });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./support/chat-load.ts', import.meta.url)), JSON.stringify({ baseUrl: t.baseUrl, body, clients: 1, own: false, ...spec })],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`chat-load exited ${code}`))));
  });
try {
  const tenant = await t.tenant({ seats: 1000 });
  const created = await api(t.baseUrl, tenant.key).post('/v1/agents', {
    name: 'Bench',
    role: 'Analyst',
    personality: 'Brief',
    mission: 'Answer quickly',
    decisionStyle: 'Direct',
    systemPrompt: 'Be short.',
  });
  const targets = [{ key: tenant.key, path: `/v1/agents/${created.body.agent.id}/chat` }];
  // The child's own start-up (tsx) is outside the measured window: it warms up first, then measures.
  const session = PROFILE ? new Session() : undefined;
  const before = loadavg()[0]!.toFixed(1);
  const rows: string[] = [];
  const streams = [false, true].filter((stream) => ROUTES.includes(stream ? 'stream' : 'plain'));
  for (const stream of streams) {
    await load({ turns: 0, stream, warmup: WARMUP, targets });
    if (session && stream === streams[0]) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
    }
    // The measured turns run in a second child; its start-up is idle time for this process.
    const cpu = process.cpuUsage();
    await load({ turns: TURNS, stream, warmup: 0, targets });
    const used = process.cpuUsage(cpu);
    rows.push(`| ${stream ? 'stream' : 'plain'} | ${TURNS} | ${((used.user + used.system) / 1000 / TURNS).toFixed(3)} | ${(used.user / 1000 / TURNS).toFixed(3)} |`);
  }
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(PROFILE!, JSON.stringify(profile));
    session.disconnect();
  }
  process.stdout.write(`Server CPU per chat turn, one client, app of ${root} (load average ${before} before, ${loadavg()[0]!.toFixed(1)} after)\n\n`);
  process.stdout.write('| Route | Turns | CPU ms per turn | of which user |\n| --- | ---: | ---: | ---: |\n');
  process.stdout.write(`${rows.join('\n')}\n`);
} finally {
  await t.close();
  await model.close();
}
