/**
 * Webhook delivery benchmark, loopback only: `npx tsx bench/webhooks.ts`.
 *
 * Runs the real app (background worker on, real clock, PostgreSQL on 127.0.0.1 when it answers, embedded
 * otherwise) against a local receiver answering 200, with 1 and then 100 endpoints subscribed:
 * - delay from an event's commit to its first attempt reaching the receiver (p50, p99), events published
 *   one at a time in their own transactions (the next once the previous one's deliveries have all arrived);
 * - deliveries per second for a burst of events committed together.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { systemClock } from '../src/lib/clock.js';
import { createLogger } from '../src/lib/logger.js';
import { publishEvent } from '../src/modules/webhooks/events.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase } from '../test/support/database.js';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Receiver: answers 200 at once and notes when each (event, endpoint) arrived. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  let count = 0;
  let onCount: (() => void) | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = now();
      const { runId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { runId: string };
      arrivals.set(`${runId}|${req.url}`, at);
      count += 1;
      onCount?.();
      res.writeHead(200).end('ok');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    arrivals,
    count: () => count,
    /** Resolves when `total` requests have arrived in all. */
    until(total: number, timeoutMs: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${count} of ${total} deliveries arrived`)), timeoutMs);
        onCount = () => {
          if (count >= total) {
            clearTimeout(timer);
            onCount = undefined;
            resolve();
          }
        };
        onCount();
      });
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function main() {
  const db = await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SVC_DEPLOYMENT: 'onprem',
    SVC_BACKGROUND_JOBS: 'on',
    SVC_DATA_DIR: db.dataDir,
    SVC_DB_POOL_MAX: '20',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  });
  const app = await createApp({ config, clock: systemClock, log: createLogger('silent') });
  const server = await listen(app.http, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const receiver = await startReceiver();
  const rows: string[] = [];
  console.log(`database: ${db.url ? 'PostgreSQL (127.0.0.1)' : 'embedded PGlite (memory)'}; node ${process.version}`);

  try {
    for (const endpointCount of [1, 100]) {
      const created = await createWorkspace({ em: app.services.orm.em.fork(), clock: systemClock }, { name: `bench-${endpointCount}`, plan: 'cabinet', seats: 1 });
      const key = created.issued.secret;
      for (let i = 0; i < endpointCount; i++) {
        const res = await fetch(`${base}/v1/webhooks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: receiver.url(`/e${endpointCount}-${i}`), events: ['flow.run.finished'] }),
        });
        if (res.status !== 201) throw new Error(`endpoint creation: ${res.status} ${await res.text()}`);
      }
      const publish = async (runIds: string[]) => {
        await app.services.orm.em.fork().transactional(async (em) => {
          for (const runId of runIds) {
            await publishEvent({ em, clock: app.services.clock, app: app.services }, {
              name: 'flow.run.finished',
              workspaceId: created.workspace.id,
              actorUserId: null,
              payload: { runId, flowId: 'flw_bench', flowName: 'Bench', status: 'succeeded', actionable: false },
            });
          }
        });
        return now();
      };

      // Delay from commit to first attempt: one event at a time, the next once every delivery of the
      // previous one has arrived, so the figure is the fan-out's own delay, not a queue's.
      const events = endpointCount === 1 ? 300 : 30;
      const committed = new Map<string, number>();
      for (let i = 0; i < events; i++) {
        const runId = `lat-${endpointCount}-${i}`;
        const before = receiver.count();
        committed.set(runId, await publish([runId]));
        await receiver.until(before + endpointCount, 30_000);
        await sleep(5);
      }
      const delays: number[] = [];
      for (const [key, at] of receiver.arrivals) {
        const runId = key.split('|')[0]!;
        const t0 = committed.get(runId);
        if (t0 !== undefined) delays.push(at - t0);
      }
      delays.sort((x, y) => x - y);

      // Throughput: a burst committed in one transaction.
      const burstEvents = endpointCount === 1 ? 2000 : 30;
      const burstTotal = burstEvents * endpointCount;
      const before = receiver.count();
      const t0 = await publish(Array.from({ length: burstEvents }, (_, i) => `burst-${endpointCount}-${i}`));
      await receiver.until(before + burstTotal, 90_000);
      const seconds = (now() - t0) / 1000;
      const rate = burstTotal / seconds;

      const row = `| ${endpointCount} | ${delays.length} | ${percentile(delays, 50).toFixed(1)} ms | ${percentile(delays, 99).toFixed(1)} ms | ${burstTotal} in ${seconds.toFixed(2)} s = ${Math.round(rate)}/s |`;
      rows.push(row);
      console.log(`endpoints=${endpointCount}: delay p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${percentile(delays, 99).toFixed(1)} ms over ${delays.length} deliveries; burst ${burstTotal} deliveries in ${seconds.toFixed(2)} s (${Math.round(rate)}/s)`);
    }
    console.log('\n| Endpoints subscribed | Deliveries timed | Event → first attempt p50 | p99 | Burst throughput |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
    await receiver.close();
    await db.drop();
  }
}

await main();
