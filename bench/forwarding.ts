/**
 * The OpenAI-compatible provider's two paths side by side (issue 28): the official SDK (chat, agents)
 * and the gateway's forwarding path (undici directly, one keep-alive pool), one call at a time against
 * the scripted model server on loopback, plain and streamed, interleaved so that machine load hits them
 * alike. Prints, per path and mode, the median and p99 wall time of a call and the process CPU per call.
 *
 *   npx tsx bench/forwarding.ts            (CALLS=500 per cell after 50 of warm-up)
 */
import { loadavg } from 'node:os';
import { OpenAICompatibleProvider } from '../src/modules/models/openai-compatible.provider.js';
import type { ModelProvider } from '../src/modules/models/provider.js';
import { startScriptedModelServer } from '../test/support/scripted-model-server.js';

const CALLS = Number(process.env.CALLS ?? 500);
const WARMUP = 50;

const server = await startScriptedModelServer();
server.setDefault({ chunks: ['The', ' answer', ' is', ' forty', '-two', '.'] });
const sdk = new OpenAICompatibleProvider({ model: 'bench', modelClass: 'standard', baseURL: server.baseUrl, apiKey: 'bench', maxRetries: 0, timeoutMs: 10_000 });
const paths: [string, ModelProvider][] = [
  ['official SDK', sdk],
  ['forwarding (undici)', sdk.forwarding],
];
const messages = [{ role: 'user' as const, content: 'What is the answer to everything?' }];

async function once(p: ModelProvider, stream: boolean): Promise<void> {
  if (!stream) {
    await p.complete({ messages });
    return;
  }
  for await (const event of p.stream({ messages })) if (event.type === 'done') break;
}

const cells = new Map<string, { times: number[]; cpuUs: number }>();
const load = loadavg()[0]!;
for (let i = 0; i < WARMUP + CALLS; i++) {
  for (const stream of [false, true]) {
    for (const [name, p] of paths) {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      await once(p, stream);
      const wall = performance.now() - t0;
      const used = process.cpuUsage(cpu);
      if (i < WARMUP) continue;
      const key = `${name}|${stream ? 'stream' : 'plain'}`;
      const cell = cells.get(key) ?? { times: [], cpuUs: 0 };
      cell.times.push(wall);
      // The scripted server runs in this process too: its share is the same for both paths.
      cell.cpuUs += used.user + used.system;
      cells.set(key, cell);
    }
  }
}
await server.close();

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
console.log(`load average ${load.toFixed(1)} before / ${loadavg()[0]!.toFixed(1)} after; ${CALLS} calls per cell, one at a time`);
console.log('| path | mode | p50 ms | p99 ms | CPU ms per call (this process, server included) |');
console.log('| --- | --- | ---: | ---: | ---: |');
for (const [key, cell] of cells) {
  const [name, mode] = key.split('|');
  const sorted = [...cell.times].sort((a, b) => a - b);
  console.log(`| ${name} | ${mode} | ${pct(sorted, 50).toFixed(2)} | ${pct(sorted, 99).toFixed(2)} | ${(cell.cpuUs / 1000 / cell.times.length).toFixed(3)} |`);
}
process.exit(0);
