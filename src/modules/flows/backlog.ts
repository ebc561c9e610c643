import type { Kernel } from '../../core/deps.js';
import { sql } from '../../db/sql.js';
import type { RunStatus } from './flow.entity.js';

/** The states of a run that is not over, each counted by the metrics scrape. */
export const ACTIVE_RUN_STATES = ['queued', 'running', 'waiting', 'waiting_approval'] as const satisfies readonly RunStatus[];

/**
 * Runs not over, by state, and approvals waiting for a person (open or claimed): two statements over the
 * partial indexes of claimable runs and of open approvals (a run waiting for approval is counted through
 * its approvals), for the metrics scrape. Finished runs are counted as they end (`svc_flow_runs_finished_total`).
 */
export async function flowBacklog(
  app: Pick<Kernel, 'orm'>,
): Promise<{ runs: Record<(typeof ACTIVE_RUN_STATES)[number], number>; approvalsWaiting: number }> {
  const runs = { queued: 0, running: 0, waiting: 0, waiting_approval: 0 };
  const rows = await sql<{ status: string; n: number | string }>(
    app.orm.em,
    `select status, count(*) as n from flow_run where status in ('queued', 'running', 'waiting') group by status`,
  );
  for (const row of rows) if (row.status in runs) runs[row.status as keyof typeof runs] = Number(row.n);
  const [approvals] = await sql<{ approvals: number | string; runs: number | string }>(
    app.orm.em,
    `select count(*) as approvals, count(distinct run_id) as runs from flow_approval where status in ('open', 'claimed')`,
  );
  runs.waiting_approval = Number(approvals?.runs ?? 0);
  return { runs, approvalsWaiting: Number(approvals?.approvals ?? 0) };
}
