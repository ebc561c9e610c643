/**
 * The official OpenAI SDK's own CPU per call, through Node's global fetch and through `sdkFetch` (issue 28, the
 * chat turn's fifth pass): the scripted model (no delay) in a process of its own, this process the SDK alone.
 * Alternates the two for ROUNDS rounds of N calls, plain then streamed, and prints CPU and wall time per call.
 *
 *   npx tsx bench/sdk-fetch.ts            (N=1000, ROUNDS=3)
 *   CHECKOUT=/work/base-x npx tsx bench/sdk-fetch.ts    (adds that checkout's sdkFetch to the rotation: A/B of a change to it)
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import OpenAI from 'openai';
import { sdkFetch } from '../src/modules/models/sdk-fetch.js';

const N = Number(process.env.N ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/serve-scripted-model.ts', import.meta.url))], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const baseURL = await new Promise<string>((resolve) => server.stdout.once('data', (d: Buffer) => resolve(String(d).trim())));
const params = {
  model: 'scripted-model',
  messages: [
    { role: 'system' as const, content: 'Be short. '.repeat(50) },
    { role: 'user' as const, content: 'What is the answer?' },
  ],
};
const clients: Record<string, OpenAI> = {
  'global fetch': new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 1 }),
  sdkFetch: new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 1, fetch: sdkFetch().fetch }),
};
if (process.env.CHECKOUT) {
  const other = pathToFileURL(`${resolve(process.env.CHECKOUT)}/src/modules/models/sdk-fetch.ts`).href;
  const { sdkFetch: theirs } = (await import(other)) as typeof import('../src/modules/models/sdk-fetch.js');
  clients[`sdkFetch of ${process.env.CHECKOUT}`] = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 1, fetch: theirs().fetch });
}

async function call(client: OpenAI, stream: boolean): Promise<void> {
  if (!stream) {
    const answer = await client.chat.completions.create(params);
    if (!answer.choices[0]) throw new Error('no choice');
    return;
  }
  let text = '';
  for await (const chunk of await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } })) {
    text += chunk.choices[0]?.delta?.content ?? '';
  }
  if (text !== 'The answer is 42.') throw new Error(`unexpected answer: ${text}`);
}

process.stdout.write(`SDK CPU per call (load average ${loadavg()[0]!.toFixed(1)} before)\n\n| round | route | transport | CPU ms/call | wall ms/call |\n| --- | --- | --- | ---: | ---: |\n`);
for (let round = 1; round <= ROUNDS; round++) {
  for (const stream of [false, true]) {
    // Every other round in reverse order, so no transport always runs first (A B C, C B A...).
    const order = Object.entries(clients);
    for (const [name, client] of round % 2 ? order : order.reverse()) {
      for (let i = 0; i < 100; i++) await call(client, stream);
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < N; i++) await call(client, stream);
      const used = process.cpuUsage(cpu);
      process.stdout.write(`| ${round} | ${stream ? 'stream' : 'plain'} | ${name} | ${((used.user + used.system) / 1000 / N).toFixed(3)} | ${((performance.now() - started) / N).toFixed(3)} |\n`);
    }
  }
}
process.stdout.write(`\n(load average ${loadavg()[0]!.toFixed(1)} after)\n`);
server.kill();
