/**
 * Where POST /v1/verify spends its time besides the engine (issue 26/28): bench/verify.ts's first case sent
 * RUNS times by a client process of its own (bench/support/post-load.ts) to a server in this process, which
 * is profiled when PROFILE names a file (a .cpuprofile of the measured calls only, after one warm-up call);
 * prints the server's CPU per call (`process.cpuUsage()`, user + system) and the engine's alone on the same
 * input, as a ratio.
 *
 *   RUNS=15 PROFILE=/tmp/verify-http.cpuprofile npx tsx bench/verify-http-profile.ts
 */
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { loadTagger } from '../src/lib/language/entities.js';
import { Verifier } from '../src/modules/verify/engine.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { issueKey } from '../src/modules/keys/keys.service.js';
import { createTestDatabase } from '../test/support/database.js';
import { verifyInput } from './support/verify-input.js';

const RUNS = Number(process.env.RUNS ?? 15);
const db = await createTestDatabase();
const config = loadConfig({ LOG_LEVEL: 'silent', SVC_BACKGROUND_JOBS: 'off', SVC_DATA_DIR: db.dataDir, SVC_RATE_VERIFY: '100000', ...(db.url ? { DATABASE_URL: db.url } : {}) });
const app = await createApp({ config, log: createLogger('silent') });
const server = await listen(app.http, 0, '127.0.0.1');
loadTagger();
try {
  const services = app.services;
  const actx = () => ({ em: services.orm.em.fork(), clock: services.clock });
  const { workspace, user } = await createWorkspace(actx(), { name: 'bench', plan: 'cabinet', seats: 10 });
  const { secret } = await issueKey(actx(), { workspaceId: workspace.id, userId: user.id }, {});
  const { text, passages } = verifyInput(10_000, 200);
  const bodyFile = join(tmpdir(), `verify-http-${process.pid}.json`);
  writeFileSync(bodyFile, JSON.stringify({ text, passages }));
  const spec = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/verify`,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    bodyFile,
  };
  const calls = (runs: number) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/post-load.ts', import.meta.url)), JSON.stringify({ ...spec, runs })], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`post-load exited ${code}`))));
    });
  await calls(1);
  const session = new Session();
  if (process.env.PROFILE) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const cpu0 = process.cpuUsage();
  await calls(RUNS);
  const http = process.cpuUsage(cpu0);
  if (process.env.PROFILE) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(process.env.PROFILE, JSON.stringify(profile));
    session.disconnect();
  }
  rmSync(bodyFile, { force: true });
  const cpu1 = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const v = new Verifier(text);
    await v.addPassages(passages);
    await v.verify(text);
  }
  const engine = process.cpuUsage(cpu1);
  const per = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000 / RUNS;
  console.log(JSON.stringify({ runs: RUNS, serverCpuPerCallMs: +per(http).toFixed(1), engineCpuPerRunMs: +per(engine).toFixed(1), ratio: +(per(http) / per(engine)).toFixed(2) }));
} finally {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close();
  await db.drop();
}
