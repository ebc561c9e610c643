import cron from 'node-cron';
import type { Deps } from '../../core/deps.js';
import { publishEvent } from '../webhooks/index.js';

/** SPEC: at most 20 facts per `knowledge.stale` payload. */
export const STALE_FACTS_PER_EVENT = 20;
/** Every day at 03:00 UTC. */
export const STALE_WATCH_CRON = '0 3 * * *';

export interface StaleWatchReport {
  /** Events published (one per uploader with newly stale facts). */
  events: number;
  /** Facts reported, over all events. */
  facts: number;
}

/**
 * Finds facts past their validity date (`validUntil` before the UTC day of `now`) not reported yet, in
 * ready sources, and publishes one `knowledge.stale` per workspace and uploader: `count` is the number
 * of newly stale facts, `facts` the first 20 by validity date. Each fact is reported once; the facts
 * are marked in the same transaction as the events are written, with SKIP LOCKED so that several
 * processes running the watch never report a fact twice.
 */
export async function runStaleWatch(app: Deps, now: Date = app.clock.now()): Promise<StaleWatchReport> {
  const today = now.toISOString().slice(0, 10);
  return app.orm.em.fork().transactional(async (tx) => {
    const rows = await tx.execute<{ id: string; valid_until: string; workspace_id: string; source_name: string; user_id: string }[]>(
      `select f.id, f.valid_until::text as valid_until, f.workspace_id, s.name as source_name, s.user_id
         from knowledge_fact f join knowledge_source s on s.id = f.source_id
        where f.valid_until is not null and f.valid_until < ?::date and f.stale_notified_at is null and s.status = 'ready'
        order by f.workspace_id, s.user_id, f.valid_until, f.id
        for update of f skip locked`,
      [today],
    );
    if (rows.length === 0) return { events: 0, facts: 0 };
    const groups = new Map<string, typeof rows>();
    for (const r of rows) {
      const key = `${r.workspace_id}\u0000${r.user_id}`;
      const group = groups.get(key);
      if (group) group.push(r);
      else groups.set(key, [r]);
    }
    for (let i = 0; i < rows.length; i += 500) {
      const ids = rows.slice(i, i + 500).map((r) => r.id);
      await tx.execute(`update knowledge_fact set stale_notified_at = ? where id in (${ids.map(() => '?').join(', ')})`, [now, ...ids]);
    }
    for (const group of groups.values()) {
      const first = group[0];
      await publishEvent({ em: tx, clock: app.clock, app }, {
        name: 'knowledge.stale',
        workspaceId: first.workspace_id,
        actorUserId: first.user_id,
        payload: {
          count: group.length,
          facts: group.slice(0, STALE_FACTS_PER_EVENT).map((r) => ({ id: r.id, source: r.source_name, validUntil: r.valid_until })),
        },
      });
    }
    await tx.flush();
    app.log.info({ events: groups.size, facts: rows.length }, 'knowledge staleness watch reported stale facts');
    return { events: groups.size, facts: rows.length };
  });
}

/** The daily node-cron task; stopped when the app closes. */
export function startStaleWatch(app: Deps): void {
  const task = cron.schedule(
    STALE_WATCH_CRON,
    async () => {
      try {
        await runStaleWatch(app);
      } catch (err) {
        app.log.error({ err }, 'knowledge staleness watch failed');
      }
    },
    { timezone: 'UTC', noOverlap: true, name: 'knowledge-stale-watch' },
  );
  app.onClose(() => task.destroy());
}
