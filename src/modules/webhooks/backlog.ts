import type { Kernel } from '../../core/deps.js';
import { sql } from '../../db/sql.js';

/**
 * Deliveries waiting for an attempt (a retry scheduled, or the first attempt not made yet) and when the
 * oldest of them was created: one statement over the partial index of due deliveries, for the metrics
 * scrape (docs/operations.md, "Metrics").
 */
export async function webhookBacklog(app: Pick<Kernel, 'orm'>): Promise<{ waiting: number; oldestCreatedAt: Date | null }> {
  const [row] = await sql<{ waiting: number | string; oldest: Date | string | null }>(
    app.orm.em,
    'select count(*) as waiting, min(created_at) as oldest from webhook_delivery where next_attempt_at is not null',
  );
  return { waiting: Number(row?.waiting ?? 0), oldestCreatedAt: row?.oldest ? new Date(row.oldest) : null };
}
