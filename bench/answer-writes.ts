/**
 * The gateway's answer writes alone (issue 28, docs/performance.md "seventh pass: overlapping answer writes"):
 * `app.answerWrites` (certificate + ledger entry, one statement per workspace batch) driven in process by
 * 100 closed-loop writers in one workspace, then by one; no HTTP, no model. Prints answers per second, the
 * statements sent (`with chain as …`, re-sent ones included) and answers per statement, p50/p99 of a write,
 * and this process's CPU per answer (the database's is not in it).
 *
 *   npx tsx bench/answer-writes.ts      (ONLY1=1: one writer only)
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import type pg from 'pg';
import { createContext } from '../src/core/context.js';
import type { PendingAnswer } from '../src/modules/gateway/answer-writes.js';
import { authenticateSecret } from '../src/modules/keys/keys.service.js';
import { pendingProof } from '../src/modules/proofs/proofs.service.js';
import { startTestApp } from '../test/support/app.js';

// The ORM's driver has its own copy of pg (as in test/gateway/statements.test.ts).
const here = createRequire(import.meta.url);
const driverPg = createRequire(here.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;

const t = await startTestApp();
const tenant = await t.tenant();
const ctx = createContext(t.app.services, await authenticateSecret(t.app.services.orm.em.fork(), t.clock, tenant.key));
let statements = 0;
const original = driverPg.Client.prototype.query;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
(driverPg.Client.prototype as any).query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  if ((typeof first === 'string' ? first : (first?.text ?? '')).startsWith('with chain as')) statements++;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (original as any).apply(this, args);
};

const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
const answerOf = (i: number): PendingAnswer => ({
  proof: pendingProof(ctx, { route: 'POST /v1/chat/completions', modelAddress: 'svc-auto', model: 'scripted', request: { n: i }, answer: `a ${i}`, usage }),
  consumption: {
    workspace: ctx.caller.workspace,
    keyId: ctx.caller.limits.meter,
    userId: ctx.caller.user.id,
    limited: false,
    holdIds: [],
    entry: { route: 'POST /v1/chat/completions', modelClass: 'standard', usage, model: 'scripted' },
    questions: 1,
  },
});

async function run(writers: number, seconds: number) {
  let done = 0;
  let n = 0;
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const sent = statements;
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        await t.app.services.answerWrites.submit(tenant.workspaceId, answerOf(n++));
        latencies.push(performance.now() - started);
        done++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => +latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))].toFixed(2);
  return {
    writers,
    perS: Math.round(done / seconds),
    statements: statements - sent,
    perStatement: +(done / (statements - sent)).toFixed(1),
    p50: at(0.5),
    p99: at(0.99),
    cpuMsPerAnswer: +((used.user + used.system) / 1000 / done).toFixed(3),
  };
}

await run(100, 2); // warm-up
const load = loadavg()[0].toFixed(1);
const many = process.env.ONLY1 ? undefined : await run(100, 8);
console.log(JSON.stringify({ load, ...(many ? { writers100: many } : {}), writers1: await run(1, 6) }));
await t.close();
