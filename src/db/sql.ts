import { createHash } from 'node:crypto';
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

/** The `pg` pool behind a PostgreSQL connection (duck-typed: the driver ships its own copy of `pg`). */
interface NativePool {
  totalCount: number;
  connect(): Promise<{ query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>; release(): void }>;
}

/** Per ORM connection: its `pg` pool, or null on the embedded database. */
const pools = new WeakMap<object, NativePool | null>();
/** Statement names by text (texts are constants of the code: a few dozen at most). */
const names = new Map<string, string>();

async function nativePool(em: Em): Promise<NativePool | null> {
  const connection = em.getConnection();
  let pool = pools.get(connection);
  if (pool === undefined) {
    const native = await (connection as unknown as { getNativeClient?: () => Promise<unknown> }).getNativeClient?.();
    pool = native && typeof native === 'object' && 'totalCount' in native && 'connect' in native ? (native as NativePool) : null;
    pools.set(connection, pool);
  }
  return pool;
}

/**
 * `sql` as a named prepared statement on PostgreSQL: each pooled connection parses and plans the text once,
 * then only binds and executes it (planning a chat turn's read cost PostgreSQL two to three times its
 * execution). For hot statements whose text is a constant of the code; on the embedded database, `sql`.
 */
export async function preparedSql<R = Record<string, unknown>>(em: Em, text: string, params: readonly unknown[] = []): Promise<R[]> {
  const pool = await nativePool(em);
  if (!pool) return sql<R>(em, text, params);
  let name = names.get(text);
  if (name === undefined) names.set(text, (name = `svc_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`));
  const client = await pool.connect();
  try {
    const result = await client.query({ name, text, values: [...params] });
    return result.rows as R[];
  } finally {
    client.release();
  }
}

/**
 * The text form of a PostgreSQL array (`{1,2}`, `{"a","b"}`), passed as one parameter and cast in SQL
 * (`$1::int[]`): a batch's values in a statement whose text does not depend on the batch's size, so it can
 * be prepared once (`preparedSql`), and the query builder would spread a JavaScript array into a list of
 * parameters.
 */
export function pgArrayLiteral(values: readonly (string | number | null)[]): string {
  // A loop, not `map` and `join` with a closure per call (issue 28: a gateway call's statements build 29 of
  // these); a string without a backslash or a quote is written as it is.
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (i > 0) out += ',';
    if (v === null) out += 'NULL';
    else if (typeof v === 'number') out += String(v);
    else if (v.indexOf('\\') < 0 && v.indexOf('"') < 0) out += `"${v}"`;
    else out += `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return `${out}}`;
}
