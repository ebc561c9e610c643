import type { Em } from '../../db/types.js';
import type { Period } from '../usage/index.js';

const num = (v: unknown): number => Number(v ?? 0);

export interface WorkspaceTotals {
  questions: number;
  answers: number;
  controls: number;
}

/** Questions, answers and controls of many workspaces in a period, in one query (absent: no use). */
export async function totalsByWorkspace(em: Em, workspaceIds: readonly string[], period: Period): Promise<Map<string, WorkspaceTotals>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await em.execute<{ workspace_id: string; questions: unknown; answers: unknown; controls: unknown }[]>(
    `select workspace_id,
            coalesce(sum(questions) filter (where kind = 'question'), 0) as questions,
            count(*) filter (where kind = 'question') as answers,
            count(*) filter (where kind = 'control') as controls
       from usage_ledger
      where workspace_id in (${workspaceIds.map(() => '?').join(', ')}) and created_at >= ? and created_at < ?
      group by workspace_id`,
    [...workspaceIds, period.start, period.end],
  );
  return new Map(rows.map((r) => [r.workspace_id, { questions: num(r.questions), answers: num(r.answers), controls: num(r.controls) }]));
}

/** Questions of one workspace per calendar month (UTC) from `from` on, in one query. */
export async function questionsByMonth(em: Em, workspaceId: string, period: Period): Promise<Map<string, number>> {
  const rows = await em.execute<{ month: string; questions: unknown }[]>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM') as month, coalesce(sum(questions), 0) as questions
       from usage_ledger where workspace_id = ? and kind = 'question' and created_at >= ? and created_at < ?
      group by month`,
    [workspaceId, period.start, period.end],
  );
  return new Map(rows.map((r) => [r.month, num(r.questions)]));
}
