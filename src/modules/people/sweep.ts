import type { Deps } from '../../core/deps.js';
import { SESSION_IDLE_MS } from './sessions.js';
import { THROTTLE_WINDOW_MS } from './throttle.js';

/** What the people tables no longer need: sessions that are over, links used or expired, throttle windows past. */
export async function sweepPeople(app: Deps): Promise<{ sessions: number; tokens: number; throttle: number }> {
  const now = app.clock.now();
  const conn = app.orm.em.getConnection();
  const run = async (sql: string, params: unknown[]) => (await conn.execute<{ affectedRows?: number }>(sql, params, 'run')).affectedRows ?? 0;
  const sessions = await run('delete from person_session where closed_at is not null or expires_at <= ? or last_seen_at <= ?', [
    now,
    new Date(now.getTime() - SESSION_IDLE_MS),
  ]);
  const tokens = await run('delete from person_token where used_at is not null or expires_at <= ?', [now]);
  const throttle = await run('delete from sign_in_throttle where window_start <= ?', [new Date(now.getTime() - THROTTLE_WINDOW_MS)]);
  return { sessions, tokens, throttle };
}

/** Sweeps every ten minutes while the app runs (only where background jobs are on). */
export function startPeopleSweep(app: Deps): void {
  if (!app.config.backgroundJobs) return;
  const timer = setInterval(() => {
    sweepPeople(app).catch((err) => app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'people sweep failed'));
  }, 10 * 60_000);
  timer.unref();
  app.onClose(() => clearInterval(timer));
}
