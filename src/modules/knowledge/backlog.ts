import type { Kernel } from '../../core/deps.js';
import { sql } from '../../db/sql.js';

/**
 * Ingestion jobs not over (queued, running) and when the oldest was created: one statement over the
 * partial index of pending jobs, for the metrics scrape.
 */
export async function ingestionBacklog(app: Pick<Kernel, 'orm'>): Promise<{ queued: number; running: number; oldestCreatedAt: Date | null }> {
  const rows = await sql<{ status: string; n: number | string; oldest: Date | string | null }>(
    app.orm.em,
    `select status, count(*) as n, min(created_at) as oldest from knowledge_ingestion_job where status in ('queued', 'running') group by status`,
  );
  const of = (status: string) => rows.find((r) => r.status === status);
  const oldest = rows.map((r) => (r.oldest ? new Date(r.oldest).getTime() : Infinity)).reduce((a, b) => Math.min(a, b), Infinity);
  return { queued: Number(of('queued')?.n ?? 0), running: Number(of('running')?.n ?? 0), oldestCreatedAt: Number.isFinite(oldest) ? new Date(oldest) : null };
}
