/**
 * A second server process for multi-process tests: the real app on DATABASE_URL (its own pool),
 * with a fixed clock from SVC_TEST_CLOCK. Prints `{"port":N}` once listening; exits when stdin
 * closes or on SIGTERM. Run with `node --import tsx test/support/usage-server.ts`.
 */
import type { AddressInfo } from 'node:net';
import { createApp, listen } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';

const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'silent',
  SVC_DEPLOYMENT: 'onprem',
  SVC_BACKGROUND_JOBS: 'off',
  SVC_DATA_DIR: 'memory://',
});
if (!config.databaseUrl) throw new Error('DATABASE_URL is required');
const app = await createApp({ config, clock: new ManualClock(process.env.SVC_TEST_CLOCK) });
const server = await listen(app.http, 0, '127.0.0.1');
process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n');

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close();
  process.exit(0);
}
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
