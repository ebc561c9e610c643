import type { Em } from '../../db/types.js';
import type { Period } from './periods.js';

/** Ledger queries. Sums come back from PostgreSQL as bigint text: always through `num`. */
const num = (v: unknown): number => Number(v ?? 0);

export interface LedgerBalance {
  allowanceUsed: number;
  allowanceLeft: number;
  packsBought: number;
  packsUsed: number;
  packsLeft: number;
}

/**
 * The workspace's balance as `svc_balance` (Migration20261126200100) computes it for admission and
 * recording too: the allowance used in the window and what is left of `allowance`, packs bought, used
 * and left. One round trip.
 */
export async function readLedgerBalance(em: Em, workspaceId: string, window: Period, allowance: number): Promise<LedgerBalance> {
  const [row] = await em.execute<Record<'allowance_used' | 'allowance_left' | 'packs_bought' | 'packs_used' | 'packs_left', unknown>[]>(
    'select allowance_used, allowance_left, packs_bought, packs_used, packs_left from svc_balance(?, ?, ?, ?)',
    [workspaceId, window.start, window.end, allowance],
  );
  return {
    allowanceUsed: num(row?.allowance_used),
    allowanceLeft: num(row?.allowance_left),
    packsBought: num(row?.packs_bought),
    packsUsed: num(row?.packs_used),
    packsLeft: num(row?.packs_left),
  };
}

/**
 * Questions consumed through one meter (`usage_ledger.key_id`) in a calendar month (UTC), from its running
 * total (`usage_key_month`, kept by the ledger's trigger, Migration20261126231203): one row per workspace.
 */
export async function keyQuestions(em: Em, keyId: string, month: Period): Promise<number> {
  const [row] = await em.execute<{ total: unknown }[]>(
    'select coalesce(sum(questions), 0) as total from usage_key_month where key_id = ? and month_start = ?',
    [keyId, month.start],
  );
  return num(row?.total);
}

/** Questions per meter of one workspace in a calendar month (UTC), for many meters at once. Meters without use are absent. */
export async function questionsByKeyIds(em: Em, workspaceId: string, keyIds: readonly string[], month: Period): Promise<Map<string, number>> {
  if (keyIds.length === 0) return new Map();
  const rows = await em.execute<{ key_id: string; total: unknown }[]>(
    `select key_id, questions as total from usage_key_month
      where workspace_id = ? and month_start = ? and key_id in (${keyIds.map(() => '?').join(', ')})`,
    [workspaceId, month.start, ...keyIds],
  );
  return new Map(rows.map((r) => [r.key_id, num(r.total)]));
}

/** When each of these keys of the workspace last had a call metered (its newest ledger entry), in one query. */
export async function lastUseByKeyIds(em: Em, workspaceId: string, keyIds: readonly string[]): Promise<Map<string, Date>> {
  if (keyIds.length === 0) return new Map();
  const rows = await em.execute<{ key_id: string; last: Date | string }[]>(
    `select key_id, max(created_at) as last from usage_ledger
      where workspace_id = ? and key_id in (${keyIds.map(() => '?').join(', ')})
      group by key_id`,
    [workspaceId, ...keyIds],
  );
  return new Map(rows.map((r) => [r.key_id, new Date(r.last)]));
}

export interface WindowTotals {
  questions: number;
  fromAllowance: number;
  fromPacks: number;
  answers: number;
  controls: number;
}

export async function windowTotals(em: Em, workspaceId: string, period: Period): Promise<WindowTotals> {
  const [row] = await em.execute<Record<string, unknown>[]>(
    `select
       coalesce(sum(questions) filter (where kind = 'question'), 0) as questions,
       coalesce(sum(from_allowance) filter (where kind = 'question'), 0) as from_allowance,
       coalesce(sum(from_packs) filter (where kind = 'question'), 0) as from_packs,
       count(*) filter (where kind = 'question') as answers,
       count(*) filter (where kind = 'control') as controls
     from usage_ledger where workspace_id = ? and created_at >= ? and created_at < ?`,
    [workspaceId, period.start, period.end],
  );
  return {
    questions: num(row?.questions),
    fromAllowance: num(row?.from_allowance),
    fromPacks: num(row?.from_packs),
    answers: num(row?.answers),
    controls: num(row?.controls),
  };
}

export async function countControls(em: Em, workspaceId: string, period: Period): Promise<number> {
  const [row] = await em.execute<{ total: unknown }[]>(
    `select count(*) as total from usage_ledger where workspace_id = ? and kind = 'control' and created_at >= ? and created_at < ?`,
    [workspaceId, period.start, period.end],
  );
  return num(row?.total);
}

export interface KeyUsageRow {
  keyId: string | null;
  questions: number;
  answers: number;
  controls: number;
}

export async function usageByKey(em: Em, workspaceId: string, period: Period): Promise<KeyUsageRow[]> {
  const rows = await em.execute<{ key_id: string | null; questions: unknown; answers: unknown; controls: unknown }[]>(
    `select key_id,
            coalesce(sum(questions), 0) as questions,
            count(*) filter (where kind = 'question') as answers,
            count(*) filter (where kind = 'control') as controls
       from usage_ledger where workspace_id = ? and created_at >= ? and created_at < ?
      group by key_id order by questions desc, key_id`,
    [workspaceId, period.start, period.end],
  );
  return rows.map((r) => ({ keyId: r.key_id, questions: num(r.questions), answers: num(r.answers), controls: num(r.controls) }));
}

export interface DayUsageRow {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  questions: number;
  answers: number;
  controls: number;
}

export async function usageByDay(em: Em, workspaceId: string, period: Period): Promise<DayUsageRow[]> {
  const rows = await em.execute<{ day: string; questions: unknown; answers: unknown; controls: unknown }[]>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
            coalesce(sum(questions), 0) as questions,
            count(*) filter (where kind = 'question') as answers,
            count(*) filter (where kind = 'control') as controls
       from usage_ledger where workspace_id = ? and created_at >= ? and created_at < ?
      group by day order by day`,
    [workspaceId, period.start, period.end],
  );
  return rows.map((r) => ({ date: r.day, questions: num(r.questions), answers: num(r.answers), controls: num(r.controls) }));
}
