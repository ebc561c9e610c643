import type { Kernel } from '../core/deps.js';

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
