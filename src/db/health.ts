import type { Kernel } from '../core/deps.js';
import { migrationsList } from './migrations/index.js';
import { sql } from './sql.js';

export async function checkDatabase(app: Kernel): Promise<{ ok: boolean; driver: string; latencyMs: number; error?: string }> {
  const started = performance.now();
  const driver = app.config.databaseUrl ? 'postgresql' : 'pglite';
  try {
    await app.orm.em.fork().getConnection().execute('select 1');
    return { ok: true, driver, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    app.log.warn({ err }, 'database health check failed');
    return { ok: false, driver, latencyMs: Math.round(performance.now() - started), error: 'database unreachable' };
  }
}

/**
 * Whether every migration this build knows has been applied to the database (another process of an older
 * build may have opened it, or a start failed halfway): the names of `mikro_orm_migrations` against the
 * build's list. Null when the database cannot be read.
 */
export async function checkMigrations(app: Kernel): Promise<{ applied: boolean; pending: string[] } | null> {
  try {
    const rows = await sql<{ name: string }>(app.orm.em, 'select name from mikro_orm_migrations');
    const done = new Set(rows.map((r) => r.name.replace(/\.[jt]s$/, '')));
    const pending = migrationsList.map((m) => m.name).filter((name) => !done.has(name));
    return { applied: pending.length === 0, pending };
  } catch (err) {
    app.log.warn({ err }, 'readiness: could not read the applied migrations');
    return null;
  }
}
