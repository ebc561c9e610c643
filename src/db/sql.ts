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

/**
 * `sql` inside the transaction `em` is in (its Kysely transaction), or on the pool when it is in none: for a
 * statement that must commit with the ORM's writes of the same transaction (a report beside its control).
 */
export async function sqlInTransaction<R = Record<string, unknown>>(em: Em, text: string, params: readonly unknown[] = []): Promise<R[]> {
  const trx = em.isInTransaction() ? (em.getTransactionContext() as { executeQuery?: unknown } | undefined) : undefined;
  if (!trx || typeof trx.executeQuery !== 'function') return sql<R>(em, text, params);
  const result = await (trx as { executeQuery: (q: CompiledQuery) => Promise<{ rows: unknown[] }> }).executeQuery(CompiledQuery.raw(text, [...params]));
  return result.rows as R[];
}
