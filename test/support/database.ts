import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
let reachable: Promise<boolean> | undefined;

/** Whether a real PostgreSQL answers at TEST_DATABASE_URL (default: the local server). */
export function postgresAvailable(): Promise<boolean> {
  if (process.env.SVC_TEST_EMBEDDED === '1') return Promise.resolve(false);
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 1500 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

export interface TestDatabase {
  /** DATABASE_URL for the app, or undefined for the embedded database. */
  url?: string;
  /** `memory://` when embedded. */
  dataDir: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh database for one test file: a new database on the real server, else an in-memory PGlite. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!(await postgresAvailable())) return { dataDir: 'memory://', drop: async () => {} };
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir: 'memory://',
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}
