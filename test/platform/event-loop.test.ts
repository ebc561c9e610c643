import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preloadBeforeListening } from '../../src/app/preload.js';
import { CHAT_LIMITS } from '../../src/modules/chat/chat.schemas.js';
import { GATEWAY_LIMITS } from '../../src/modules/gateway/gateway.schemas.js';
import { VERIFY_LIMITS } from '../../src/modules/verify/verify.schemas.js';
import { countTextTokens, countTextTokensAsync, encodeText } from '../../src/modules/models/tokenizer.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { persona } from '../support/agents.js';

/**
 * Issue 20, high: one request must not hold the event loop. Token counting was quadratic in the length
 * of one unbroken run (12 000 × "x" held every tenant 12 s); text fields had no bound. Each route that
 * takes text gets 1 MB of adversarial text (over its limit: refused with 400 naming the field) and the
 * largest adversarial text it accepts, while the server's event-loop delay is measured.
 */

const MB = 1_000_000;
/** Adversarial runs: one unbroken piece each, for the byte-pair merge. */
const runs = {
  letters: (n: number) => 'x'.repeat(n),
  spaces: (n: number) => ' '.repeat(n),
  punctuation: (n: number) => '!'.repeat(n),
  // Random letters never repeat a slice, so nothing is served from the piece cache.
  random: (n: number) =>
    Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join(''),
};

let t: TestApp;
let key: string;
let agentId: string;

beforeAll(async () => {
  preloadBeforeListening(); // as the server does before it listens (src/app/serve.ts)
  t = await startTestApp();
  ({ key } = await t.tenant());
  const created = await api(t.baseUrl, key).post('/v1/agents', persona('Ada'));
  agentId = created.body.agent?.id ?? created.body.id;
});
afterAll(() => t.close());

/** CPU milliseconds this thread (the server runs in it) has spent since `from`. */
function threadCpuMs(from?: NodeJS.CpuUsage): number {
  const used = process.threadCpuUsage(from);
  return (used.user + used.system) / 1000;
}

/**
 * Runs `work` and returns the longest stretch of CPU time the thread spent between two turns of its event
 * loop. It is the loop's delay without what a loaded machine adds: a stall caused by the request is CPU spent
 * without yielding and comes back whatever else runs; a pause of the whole process (other test files, other
 * jobs on the machine) costs no CPU here and is not counted. A bound on wall-clock delay failed at load 15.
 */
async function longestStretchCpuMs(work: () => Promise<void>): Promise<number> {
  let last = process.threadCpuUsage();
  let worst = 0;
  let running = true;
  const turn = () => {
    worst = Math.max(worst, threadCpuMs(last));
    last = process.threadCpuUsage();
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await work();
  } finally {
    running = false;
  }
  return Math.max(worst, threadCpuMs(last));
}

describe('tokenizer', () => {
  it('counts a long unbroken run in linear time (was quadratic)', () => {
    for (const make of Object.values(runs)) {
      const text = make(200_000);
      const before = process.threadCpuUsage();
      countTextTokens(text);
      // The quadratic merge took ~30 s of CPU on 20k letters; linear counting does 200k in well under a second.
      expect(threadCpuMs(before)).toBeLessThan(5_000);
    }
  });

  it('treats special-token strings as ordinary text', () => {
    expect(countTextTokens('<|endoftext|> and <|fim_prefix|>')).toBeGreaterThan(2);
  });

  it('gives the same count synchronously and asynchronously, and the async counter yields', async () => {
    const text = runs.random(300_000) + ' hello world '.repeat(1000);
    const sync = countTextTokens(text);
    expect(await countTextTokensAsync(text)).toBe(sync);
    expect(encodeText('Hello world')).toEqual([13225, 2375]);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await countTextTokensAsync(runs.random(MB));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});

describe('routes that take text stay responsive under adversarial input', () => {
  const huge = runs.random(MB);
  const cases: { name: string; method: 'post' | 'put'; path: () => string; body: () => unknown; field: RegExp; status?: number }[] = [
    { name: 'agent chat', method: 'post', path: () => `/v1/agents/${agentId}/chat`, body: () => ({ message: huge }), field: /message/ },
    { name: 'auto-pick chat', method: 'post', path: () => '/v1/agents/chat', body: () => ({ message: huge }), field: /message/ },
    { name: 'streamed chat', method: 'post', path: () => `/v1/agents/${agentId}/chat/stream`, body: () => ({ message: huge }), field: /message/ },
    { name: 'chat context', method: 'post', path: () => `/v1/agents/${agentId}/chat`, body: () => ({ message: 'hi', context: [{ category: 'c', data: huge }] }), field: /data/ },
    { name: 'agent create', method: 'post', path: () => '/v1/agents', body: () => ({ name: 'a', role: 'b', personality: 'c', mission: 'd', decisionStyle: 'e', systemPrompt: huge }), field: /systemPrompt/ },
    { name: 'agent update', method: 'put', path: () => `/v1/agents/${agentId}`, body: () => ({ personality: huge }), field: /personality/ },
    { name: 'knowledge query', method: 'post', path: () => '/v1/knowledge/query', body: () => ({ query: huge }), field: /query/ },
    { name: 'tool create', method: 'post', path: () => '/v1/tools', body: () => ({ name: 'get', description: huge, inputSchema: { type: 'object' }, urlTemplate: 'https://api.example.com/x' }), field: /description/ },
    { name: 'openai gateway', method: 'post', path: () => '/v1/chat/completions', body: () => ({ model: 'svc-auto', messages: [{ role: 'user', content: huge }] }), field: /content/ },
    { name: 'anthropic gateway', method: 'post', path: () => '/v1/messages', body: () => ({ model: 'svc-auto', max_tokens: 100, messages: [{ role: 'user', content: huge }] }), field: /content/ },
    { name: 'count_tokens', method: 'post', path: () => '/v1/messages/count_tokens', body: () => ({ model: 'svc-auto', system: huge, messages: [{ role: 'user', content: 'hi' }] }), field: /system/ },
    // SPEC: the verifier's text over its maximum is 413 text_too_large (the message names the field).
    { name: 'verifier text', method: 'post', path: () => '/v1/verify', body: () => ({ text: huge, passages: [{ source: 's', content: 'c' }] }), field: /text/, status: 413 },
    { name: 'verifier passage', method: 'post', path: () => '/v1/verify', body: () => ({ text: 'The fee is 5 EUR.', passages: [{ source: 's', content: huge }] }), field: /content/ },
  ];

  it.each(cases)('$name: 1 MB over the limit is a 400 naming the field, without stalling', async ({ method, path, body, field, status }) => {
    const client = api(t.baseUrl, key);
    const payload = JSON.stringify(body());
    const stretch = await longestStretchCpuMs(async () => {
      const res = await client[method](path(), payload);
      expect(res.status).toBe(status ?? 400);
      expect(JSON.stringify(res.body)).toMatch(field);
    });
    expect(stretch).toBeLessThan(100);
  });

  const accepted: { name: string; path: string; body: () => unknown; status?: number }[] = [
    { name: 'chat message at its limit', path: '/v1/agents/chat', body: () => ({ message: runs.random(CHAT_LIMITS.messageChars - 10) }) },
    { name: 'gateway content at its limit', path: '/v1/chat/completions', body: () => ({ model: 'svc-sensitive', messages: [{ role: 'user', content: runs.random(GATEWAY_LIMITS.textChars) }] }) },
    { name: 'count_tokens at its limit', path: '/v1/messages/count_tokens', body: () => ({ model: 'svc-auto', messages: [{ role: 'user', content: runs.letters(GATEWAY_LIMITS.textChars - 200_000) + runs.spaces(200_000) }] }) },
    {
      name: 'verifier text at its limit',
      path: '/v1/verify',
      status: 201,
      body: () => ({
        text: 'Revenue rose 12 % in 2023 to 1.2 million euros. '.repeat(VERIFY_LIMITS.textChars / 50).slice(0, VERIFY_LIMITS.textChars),
        passages: Array.from({ length: 200 }, (_, i) => ({ source: `p${i}`, content: `Revenue rose ${i} % in 2023 to ${i}.2 million euros. ${runs.random(2000)}` })),
      }),
    },
    { name: 'verifier adversarial text', path: '/v1/verify', status: 201, body: () => ({ text: runs.letters(VERIFY_LIMITS.textChars), passages: [{ source: 's', content: runs.random(50_000) }] }) },
  ];

  it.each(accepted)('$name: answered, and the loop is never held 100 ms of CPU while /health is polled', async ({ path, body, status }) => {
    // The embedded database runs on the server's own thread: storing the answer (a verification report
    // with 200 passages) is itself a stretch of loop time there, up to 125 ms seen in CI.
    // On PostgreSQL the bound is the 100 ms.
    const bound = t.app.services.config.databaseUrl ? 100 : 250;
    const client = api(t.baseUrl, key);
    const payload = JSON.stringify(body()); // built before measuring: the test's own work is not the server's
    let healthAnswers = 0;
    const stretch = await longestStretchCpuMs(async () => {
      const call = client.post(path, payload);
      let done = false;
      void call.finally(() => (done = true));
      while (!done) {
        const health = await fetch(`${t.baseUrl}/health`);
        await health.arrayBuffer();
        expect(health.status).toBe(200);
        healthAnswers++;
      }
      expect((await call).status).toBe(status ?? 200);
    });
    expect(healthAnswers).toBeGreaterThan(0);
    expect(stretch).toBeLessThan(bound);
  });
});
