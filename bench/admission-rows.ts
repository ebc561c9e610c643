/**
 * What one admission and one record read as the ledger grows (issue 25, "throughput falls under steady
 * load"). A throwaway migrated database on PostgreSQL (127.0.0.1:5432, or DATABASE_URL's server); one
 * workspace on a paid plan whose ledger is seeded by SQL with N answers in the current allowance window
 * (every answer through one key with a monthly ceiling). For each N it measures, inside a transaction:
 *   - the blocks (shared buffers hit or read, every table and index of the schema) fetched by
 *     `svc_admit` for one answer, by `svc_record` for one answer, and by the read of the key's month total
 *     that follows a record (`pg_stat_get_xact_blocks_fetched`, so nothing else on the server counts);
 *   - the mean time of one admission + record + key total, over `CALLS` calls.
 *
 *   npx tsx bench/admission-rows.ts                 sizes 10000,100000,1000000
 *   SIZES=1000,10000 CALLS=100 npx tsx bench/admission-rows.ts
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { openDatabase } from '../src/db/orm.js';
import { calendarMonth } from '../src/modules/usage/periods.js';
import { questionsByKeyIds } from '../src/modules/usage/usage.repository.js';
import type { Em } from '../src/db/orm.js';

const SIZES = (process.env.SIZES ?? '10000,100000,1000000').split(',').map(Number);
const CALLS = Number(process.env.CALLS ?? 200);
const adminUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `svc_bench_${randomBytes(4).toString('hex')}`;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const BLOCKS = `select coalesce(sum(pg_stat_get_xact_blocks_fetched(c.oid)), 0)::bigint as n
                  from pg_class c where c.relnamespace = 'public'::regnamespace`;
const blocks = async (em: Em): Promise<number> => Number((await em.execute<{ n: string }[]>(BLOCKS))[0].n);

const now = new Date();
// A paid plan anchored on the 1st: the allowance window is the calendar month.
const window = calendarMonth(now);
const ws = 'ws_bench';
const key = 'key_bench';
let seq = 0;

const admitSql = `select svc_admit(?, ?, ?, ?, ?, ?::int[], ?::text[], ?) as available`;
const recordSql = `select svc_record(?, ?, ?, ?, ?, ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::int[], ?::int[])`;

/** One admission, one record and the key's month total, as the gateway's metering makes them. */
async function oneCall(em: Em, measure: (step: string, n: number) => void): Promise<void> {
  const hold = `hold_bench_${++seq}`;
  let before = await blocks(em);
  await em.execute(admitSql, [ws, now, window.start, window.end, 1_000_000_000, '{1}', `{${hold}}`, new Date(now.getTime() + 300_000)]);
  let after = await blocks(em);
  measure('admit', after - before);
  before = await blocks(em);
  await em.execute(recordSql, [ws, now, window.start, window.end, 1_000_000_000, `{${hold}}`, `{use_bench_${seq}}`, `{${key}}`, '{usr_bench}', '{"POST /v1/chat/completions"}', '{light}', '{canned}', '{10}', '{10}', '{20}', '{1}']);
  after = await blocks(em);
  measure('record', after - before);
  before = await blocks(em);
  await questionsByKeyIds(em, ws, [key], calendarMonth(now));
  after = await blocks(em);
  measure('keyTotal', after - before);
}

await admin(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const orm = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://', poolMax: 2 });
try {
  const em = orm.em.fork();
  await em.execute(
    `insert into workspace (id, name, plan, seats, subscription_started_at, created_at) values (?, 'bench', 'pro', 1, ?, ?)`,
    [ws, window.start, window.start],
  );
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  let seeded = 0;
  for (const size of SIZES) {
    // Answers spread over the window so far, one question each, all from the allowance (100 000 at a time).
    for (let from = seeded + 1; from <= size; from += 100_000) {
      await em.execute(
        `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, model, prompt_tokens, completion_tokens,
                                   total_tokens, questions, from_allowance, from_packs, created_at)
         select 'use_seed_' || g, ?, ?, 'usr_bench', 'question', 'POST /v1/chat/completions', 'light', 'canned', 10, 10, 20, 1, 1, 0,
                ?::timestamptz + (g % 1000) * interval '1 second'
           from generate_series(?::int, ?::int) g`,
        [ws, key, window.start, from, Math.min(size, from + 99_999)],
      );
    }
    seeded = size;
    await em.execute('vacuum analyze usage_ledger');
    const steps = new Map<string, number[]>();
    const measure = (step: string, n: number) => steps.set(step, [...(steps.get(step) ?? []), n]);
    await oneCall(em, () => {}); // warm the cache: the figures below are of a steady state
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) await em.transactional((tx) => oneCall(tx, measure));
    const ms = (performance.now() - started) / CALLS;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      JSON.stringify({
        ledgerRows: size,
        blocksPerCall: Object.fromEntries([...steps].map(([k, v]) => [k, median(v)])),
        msPerCall: Number(ms.toFixed(2)),
      }),
    );
  }
} finally {
  await orm.close(true);
  await admin(`drop database if exists ${name} with (force)`);
}
