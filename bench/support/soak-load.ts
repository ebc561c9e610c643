/**
 * The load generator of bench/soak.ts, run in a process of its own (never inside the server's), with the
 * webhook receiver the service delivers to:
 *
 *   node --import tsx bench/support/soak-load.ts '<spec JSON>'
 *
 * spec: { baseUrl, key, agentId, flowId, webhookId, receiverPort, durationS, intervalS, clients: { gateway,
 * chat, flow, webhookTest } }. Each kind has its own clients, each sending one request after the other for
 * `durationS`: gateway calls (`POST /v1/chat/completions`, every other one streamed), chat streams
 * (`POST /v1/agents/:id/chat/stream`, read to the `done` event), flow runs (`POST /engine/flows/:id/run`;
 * each finished run is a `flow.run.finished` webhook delivery to the receiver) and webhook tests
 * (`POST /v1/webhooks/:id/test`, a delivery made while the request waits). Prints one JSON line per
 * interval: { t, gateway, chat, flow, webhookTest, delivered, errors, firstError? } (counts in that interval),
 * then { done: true }.
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';

interface Spec {
  baseUrl: string;
  key: string;
  agentId: string;
  flowId: string;
  webhookId: string;
  receiverPort: number;
  durationS: number;
  intervalS: number;
  clients: { gateway: number; chat: number; flow: number; webhookTest: number };
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const counts = { gateway: 0, chat: 0, flow: 0, webhookTest: 0, delivered: 0, errors: 0 };
let firstError: string | undefined;

// The receiver: answers every delivery 200 at once.
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    counts.delivered++;
    res.writeHead(200).end('ok');
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => receiver.listen(spec.receiverPort, '127.0.0.1', resolve));

const total = Object.values(spec.clients).reduce((a, b) => a + b, 0);
const pool = new Pool(spec.baseUrl, { connections: total });
const headers = { authorization: `Bearer ${spec.key}`, 'content-type': 'application/json' };

async function post(path: string, body: unknown, ok: (status: number, text: string) => boolean): Promise<boolean> {
  try {
    const res = await pool.request({ path, method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.body.text();
    if (ok(res.statusCode, text)) return true;
    firstError ??= `${path}: ${res.statusCode} ${text.slice(0, 200)}`;
  } catch (err) {
    firstError ??= `${path}: ${(err as Error).message}`;
  }
  counts.errors++;
  return false;
}

const kinds: Record<keyof Spec['clients'], (n: number) => Promise<boolean>> = {
  gateway: (n) =>
    post(
      '/v1/chat/completions',
      { model: 'svc-auto', messages: [{ role: 'user', content: `Soak question ${n}?` }], ...(n % 2 ? { stream: true } : {}) },
      (status, text) => status === 200 && (n % 2 ? text.trimEnd().endsWith('data: [DONE]') : text.includes('"choices"')),
    ),
  chat: (n) => post(`/v1/agents/${spec.agentId}/chat/stream`, { message: `Soak turn ${n}` }, (status, text) => status === 200 && text.includes('"type":"done"')),
  flow: (n) => post(`/engine/flows/${spec.flowId}/run`, { input: { n } }, (status) => status === 202),
  webhookTest: () => post(`/v1/webhooks/${spec.webhookId}/test`, {}, (status, text) => status === 200 && text.includes('"success":true')),
};

const end = performance.now() + spec.durationS * 1000;
const started = performance.now();
const interval = setInterval(() => {
  process.stdout.write(`${JSON.stringify({ t: Math.round((performance.now() - started) / 1000), ...counts, ...(firstError ? { firstError } : {}) })}\n`);
  for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] = 0;
  firstError = undefined;
}, spec.intervalS * 1000);

await Promise.all(
  (Object.keys(spec.clients) as (keyof Spec['clients'])[]).flatMap((kind) =>
    Array.from({ length: spec.clients[kind] }, async () => {
      let n = 0;
      while (performance.now() < end) if (await kinds[kind](n++)) counts[kind]++;
    }),
  ),
);
clearInterval(interval);
await pool.close();
process.stdout.write(`${JSON.stringify({ done: true })}\n`);
receiver.closeAllConnections();
receiver.close();
