/**
 * Admission reads a bounded number of rows whatever the ledger's size (issue 25): the workspace's balance
 * and a key's month total come from running totals kept by the ledger's triggers (Migration20261126231203),
 * not from sums over the ledger. Measured as blocks fetched (buffer hits or reads of every table and index of
 * the schema) by the metering's real statements, with a ledger of 0 and of 40 000 answers; then the totals
 * are checked against the ledger's own sums after inserts, updates, deletes, packs and a window boundary.
 *
 * The database is used by one connection only, so the statistics counted are those of the statements
 * measured (each measurement forces this backend's statistics out first: `pg_stat_force_next_flush`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../src/core/deps.js';
import { openDatabase, type Orm } from '../../src/db/orm.js';
import { ManualClock } from '../../src/lib/clock.js';
import { admitBatch, readBalance, recordBatch } from '../../src/modules/usage/metering.service.js';
import { allowanceWindow, calendarMonth } from '../../src/modules/usage/periods.js';
import { keyQuestions } from '../../src/modules/usage/usage.repository.js';
import { Workspace } from '../../src/modules/workspaces/workspace.entity.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';

const real = await postgresAvailable();
let db: TestDatabase;
let orm: Orm;
let kernel: Kernel;
const clock = new ManualClock(new Date('2026-03-10T12:00:00Z'));
let seq = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await openDatabase({ databaseUrl: db.url, dataDir: db.dataDir, poolMax: 1 });
  kernel = { orm, clock } as unknown as Kernel;
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

const em = () => orm.em.fork();
const one = async <T>(query: string, params: unknown[] = []): Promise<T> => (await em().execute<T[]>(query, params))[0];

/** A paid workspace (Pro, 1 seat: 400 questions a month) whose window starts on the 1st. */
async function workspace(id: string): Promise<Workspace> {
  await em().execute(
    `insert into workspace (id, name, plan, seats, subscription_started_at, created_at) values (?, ?, 'pro', 1, ?, ?)`,
    [id, id, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z')],
  );
  return em().findOneOrFail(Workspace, { id });
}

/** Seeds `n` answers of one question each, from the allowance, through `keyId`, at `at`. */
async function seed(wsId: string, keyId: string, n: number, at: Date, fromPacks = 0): Promise<void> {
  const base = ++seq;
  await em().execute(
    `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, questions, from_allowance, from_packs, created_at)
     select 'use_seed_' || ? || '_' || g, ?, ?, 'usr_x', 'question', 'seed', 'light', 1, 1 - ?, ?, ? from generate_series(1, ?) g`,
    [base, wsId, keyId, fromPacks, fromPacks, at, n],
  );
}

/** One gateway answer's metering, as the hot path makes it: the admission, the record, the key's month total. */
async function meterOneAnswer(ws: Workspace, keyId: string): Promise<void> {
  const [hold] = await admitBatch(kernel, ws.id, [{ workspace: ws, required: 1 }]);
  if (typeof hold !== 'string') throw hold;
  const [recorded] = await recordBatch(kernel, ws.id, [
    {
      workspace: ws,
      keyId,
      userId: 'usr_x',
      limited: true,
      holdIds: [hold],
      entry: { route: 'POST /v1/chat/completions', modelClass: 'light', usage: { promptTokens: 10, completionTokens: 10, totalTokens: 20 } },
      questions: 1,
    },
  ]);
  if (recorded instanceof Error) throw recorded;
  await keyQuestions(em(), keyId, calendarMonth(clock.now()));
}

/** Blocks fetched so far by the statements on tables and indexes of the schema. */
async function blocksSoFar(): Promise<number> {
  await em().execute('select pg_stat_force_next_flush()');
  const row = await one<{ n: string }>(
    `select coalesce(sum(pg_stat_get_blocks_fetched(c.oid)), 0)::bigint as n from pg_class c where c.relnamespace = 'public'::regnamespace`,
  );
  return Number(row.n);
}

async function blocksOfOneAnswer(ws: Workspace, keyId: string): Promise<number> {
  await meterOneAnswer(ws, keyId); // warm: the window's row exists, the plan is cached
  const before = await blocksSoFar();
  await meterOneAnswer(ws, keyId);
  return (await blocksSoFar()) - before;
}

/** The ledger's own sums, to compare the running totals with. */
async function ledgerSums(wsId: string, keyId: string, window: { start: Date; end: Date }) {
  const row = await one<Record<string, string>>(
    `select coalesce(sum(from_allowance) filter (where kind = 'question' and created_at >= ? and created_at < ?), 0) as allowance,
            coalesce(sum(from_packs) filter (where from_packs > 0), 0) as packs,
            coalesce(sum(questions) filter (where kind = 'question' and key_id = ? and created_at >= ? and created_at < ?), 0) as key
       from usage_ledger where workspace_id = ?`,
    [window.start, window.end, keyId, calendarMonth(window.start).start, calendarMonth(window.start).end, wsId],
  );
  const totals = await one<Record<string, string | null>>(
    `select (select allowance_used from usage_window_total where workspace_id = ? and period_start = ? and period_end = ?) as allowance,
            (select packs_used from usage_pack_total where workspace_id = ?) as packs,
            (select questions from usage_key_month where workspace_id = ? and key_id = ? and month_start = ?) as key`,
    [wsId, window.start, window.end, wsId, wsId, keyId, calendarMonth(window.start).start],
  );
  return {
    ledger: { allowance: Number(row.allowance), packs: Number(row.packs), key: Number(row.key) },
    totals: { allowance: Number(totals.allowance ?? 0), packs: Number(totals.packs ?? 0), key: Number(totals.key ?? 0) },
  };
}

describe.runIf(real)('admission and the ledger size', () => {
  it('an answer metered with 40 000 answers in the ledger reads as few blocks as with none', async () => {
    const ws = await workspace('ws_rows');
    // Past its allowance, the workspace answers from a pack: the pack rows are summed no more than the others.
    await em().execute(`insert into question_pack (id, workspace_id, questions, created_at) values ('pack_rows', ?, 100000, ?)`, [ws.id, clock.now()]);
    const empty = await blocksOfOneAnswer(ws, 'key_rows');
    // Earlier in the window, through the same key: the rows the previous migrations summed on every call.
    await seed(ws.id, 'key_rows', 40_000, new Date('2026-03-02T00:00:00Z'));
    const large = await blocksOfOneAnswer(ws, 'key_rows');
    expect(empty).toBeLessThan(150);
    expect(large).toBeLessThanOrEqual(empty + 12);
    const sums = await ledgerSums(ws.id, 'key_rows', allowanceWindow(ws, clock.now()));
    expect(sums.totals).toEqual(sums.ledger);
    expect(sums.ledger.key).toBe(40_004);
    expect(sums.ledger.packs).toBe(2);
  });

  it('the totals follow every change of the ledger: inserts, updates, deletes, packs', async () => {
    const ws = await workspace('ws_changes');
    const window = allowanceWindow(ws, clock.now());
    await seed(ws.id, 'key_c', 398, new Date('2026-03-05T00:00:00Z'));
    await meterOneAnswer(ws, 'key_c'); // opens the window's row from the ledger's sum: 399
    expect((await readBalance(em(), ws, clock.now())).allowanceLeft).toBe(1);
    await em().execute(`insert into question_pack (id, workspace_id, questions, created_at) values ('pack_c', ?, 5, ?)`, [ws.id, clock.now()]);
    await meterOneAnswer(ws, 'key_c'); // the allowance's last question
    await meterOneAnswer(ws, 'key_c'); // from the pack
    await meterOneAnswer(ws, 'key_c');
    let balance = await readBalance(em(), ws, clock.now());
    expect(balance).toMatchObject({ allowanceUsed: 400, allowanceLeft: 0, packsBought: 5, packsUsed: 2, packsLeft: 3, available: 3 });
    expect((await ledgerSums(ws.id, 'key_c', window)).totals).toEqual((await ledgerSums(ws.id, 'key_c', window)).ledger);

    await em().execute(`delete from usage_ledger where id in (select id from usage_ledger where workspace_id = ? and route = 'seed' limit 10)`, [ws.id]);
    await em().execute(`update usage_ledger set from_allowance = 0, from_packs = 1 where id = (select id from usage_ledger where workspace_id = ? and route = 'seed' limit 1)`, [ws.id]);
    await em().execute(`update usage_ledger set questions = 3 where id = (select id from usage_ledger where workspace_id = ? and route = 'seed' limit 1)`, [ws.id]);
    const sums = await ledgerSums(ws.id, 'key_c', window);
    expect(sums.totals).toEqual(sums.ledger);
    balance = await readBalance(em(), ws, clock.now());
    expect(balance).toMatchObject({ allowanceUsed: 389, allowanceLeft: 11, packsUsed: 3, packsLeft: 2 });
    expect(await keyQuestions(em(), 'key_c', calendarMonth(clock.now()))).toBe(sums.ledger.key);
  });

  it('a new window starts from zero at its boundary, and a window without a row is read from the ledger', async () => {
    const ws = await workspace('ws_boundary');
    const march = allowanceWindow(ws, clock.now());
    clock.set(new Date(march.end.getTime() - 1));
    await seed(ws.id, 'key_b', 100, new Date(march.end.getTime() - 1000));
    await meterOneAnswer(ws, 'key_b');
    expect((await readBalance(em(), ws, clock.now())).allowanceUsed).toBe(101);
    clock.set(march.end);
    // April's window has no row yet: read from the ledger (nothing in it), then opened by the admission.
    expect((await readBalance(em(), ws, clock.now())).allowanceUsed).toBe(0);
    await meterOneAnswer(ws, 'key_b');
    expect((await readBalance(em(), ws, clock.now())).allowanceUsed).toBe(1);
    expect(await keyQuestions(em(), 'key_b', calendarMonth(clock.now()))).toBe(1);
    expect(await keyQuestions(em(), 'key_b', calendarMonth(march.start))).toBe(101);
    // A change of plan moves the window: the trial's 14 days are opened from the ledger's sum.
    await em().execute(`update workspace set plan = 'trial', subscription_started_at = ? where id = ?`, [new Date(march.end.getTime() - 500), ws.id]);
    const trial = await em().findOneOrFail(Workspace, { id: ws.id });
    expect((await readBalance(em(), trial, clock.now())).allowanceUsed).toBe(2);
    await meterOneAnswer(trial, 'key_b');
    const sums = await ledgerSums(ws.id, 'key_b', allowanceWindow(trial, clock.now()));
    expect(sums.totals.allowance).toBe(3);
    expect(sums.ledger.allowance).toBe(3);
    clock.set(new Date('2026-03-10T12:00:00Z'));
  });

  it('a batch recorded in one svc_record is split between allowance and packs row by row, with the totals trigger run once', async () => {
    const ws = await workspace('ws_batch');
    const window = allowanceWindow(ws, clock.now());
    await seed(ws.id, 'key_batch', 398, new Date('2026-03-05T00:00:00Z')); // 2 questions of the allowance left
    await em().execute(`insert into question_pack (id, workspace_id, questions, created_at) values ('pack_batch', ?, 2, ?)`, [ws.id, clock.now()]);
    // The one connection counts its own calls of PL/pgSQL functions (the server's setting is left alone).
    await em().execute(`set track_functions = 'pl'`);
    const triggerRuns = async () => {
      await em().execute('select pg_stat_force_next_flush()');
      const row = await one<{ n: string | null }>(`select sum(calls) as n from pg_stat_user_functions where funcname = 'svc_ledger_totals'`);
      return Number(row.n ?? 0);
    };
    const before = await triggerRuns();
    const entries = [1, 2, 3, 4, 5].map((i) => ({
      workspace: ws,
      keyId: 'key_batch',
      userId: 'usr_x',
      limited: false,
      holdIds: [],
      entry: { route: `batch ${i}`, modelClass: 'light' as const, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
      questions: 1,
    }));
    const recorded = await recordBatch(kernel, ws.id, entries);
    expect(recorded.filter((r) => r instanceof Error)).toEqual([]);
    expect((await triggerRuns()) - before).toBe(1); // one insert statement for the batch (it was one per row)
    await em().execute(`set track_functions = 'none'`);
    const rows = await em().execute<{ route: string; from_allowance: number; from_packs: number }[]>(
      `select route, from_allowance, from_packs from usage_ledger where workspace_id = ? and route like 'batch %' order by route`,
      [ws.id],
    );
    // The allowance's last two, the pack's two, then past both: counted against the allowance, as the loop did.
    expect(rows.map((r) => [Number(r.from_allowance), Number(r.from_packs)])).toEqual([[1, 0], [1, 0], [0, 1], [0, 1], [1, 0]]);
    const sums = await ledgerSums(ws.id, 'key_batch', window);
    expect(sums.totals).toEqual(sums.ledger);
    expect(sums.ledger).toMatchObject({ allowance: 401, packs: 2 });
  });
});

