import { CompiledQuery } from 'kysely';
import type { Em } from './types.js';

/**
 * One statement with bound parameters (`$1`, `$2`…), sent as is through the ORM's connection pool: for the
 * hot path's few statements (key check, rate counts, metering, the proof chain). The ORM's `execute`
 * inlines every value into the SQL text (escaped on our side, parsed and planned anew by PostgreSQL, and
 * arrays spread into lists); bound parameters skip both, on PostgreSQL and on the embedded database alike.
 * Errors come back as the driver's (`code` is PostgreSQL's SQLSTATE).
 */
export async function sql<R = Record<string, unknown>>(em: Em, text: string, params: readonly unknown[] = []): Promise<R[]> {
  const result = await em.getConnection().getClient().executeQuery(CompiledQuery.raw(text, [...params]));
  return result.rows as R[];
}
