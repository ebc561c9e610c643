/**
 * The service process of bench/webhooks-throughput.ts: the real app (src/app/create-app.ts, configured
 * from the environment like src/main.ts, background worker on) listening on PORT, plus the event producer
 * that production runs inside the service (flow runs, ingestion): on a JSON-line command on stdin it
 * publishes events through `publishEvent` in one transaction and answers the commit time. Prints
 * `{"port":N}` once listening. Commands (one JSON line answered on stdout each):
 *   {"cmd":"workspace","name":"..."}                      → {"workspaceId","key"}
 *   {"cmd":"publish","workspaceId":"...","runIds":[...]}  → {"committedAt":t}
 * Under a CPU profile: `BENCH_CPU_PROF=1` in the benchmark's environment starts this process with
 * `--cpu-prof` (profile written at exit, in /tmp/webhooks-prof).
 */
import { createInterface } from 'node:readline';
import { createApp, listen } from '../src/app/create-app.js';
import { publishEvent } from '../src/modules/webhooks/events.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';

const now = () => performance.timeOrigin + performance.now();
const app = await createApp();
const { orm, clock, config } = app.services;
const server = await listen(app.http, config.port, '127.0.0.1');
const reply = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
const address = server.address();
reply({ port: typeof address === 'object' && address ? address.port : 0 });

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  queue = queue.then(async () => {
    const cmd = JSON.parse(line) as { cmd: string; name?: string; workspaceId?: string; runIds?: string[] };
    try {
      if (cmd.cmd === 'workspace') {
        const created = await createWorkspace({ em: orm.em.fork(), clock }, { name: cmd.name ?? 'bench', plan: 'cabinet', seats: 1 });
        reply({ workspaceId: created.workspace.id, key: created.issued.secret });
      } else if (cmd.cmd === 'publish') {
        await orm.em.fork().transactional(async (em) => {
          for (const runId of cmd.runIds ?? []) {
            await publishEvent({ em, clock, app: app.services }, {
              name: 'flow.run.finished',
              workspaceId: cmd.workspaceId!,
              actorUserId: null,
              payload: { runId, flowId: 'flw_bench', flowName: 'Bench', status: 'succeeded', actionable: false },
            });
          }
        });
        reply({ committedAt: now() });
      }
    } catch (err) {
      reply({ error: String(err) });
    }
  });
});

process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void app.close().then(() => process.exit(0)));
});
