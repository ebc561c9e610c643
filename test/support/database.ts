import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

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

function urlOf(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const dropDatabase = (name: string): Promise<void> => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {});

/**
 * The template of the run's migrated databases (test/support/global-setup.ts, once per `vitest run`): a
 * database every migration has been applied to, never connected to afterwards, so that `create database
 * ... template` copies it. Migrating a fresh database costs seconds per app; copying the template a
 * fraction of that. Undefined on the embedded database, or where the global setup did not run.
 */
function templateDatabase(): string | undefined {
  try {
    return inject('templateDatabase') || undefined;
  } catch {
    return undefined;
  }
}

/** Creates the template: a new database on the real server with every migration applied. Returns its name and how to drop it. */
export async function createTemplateDatabase(): Promise<{ name: string; drop(): Promise<void> } | undefined> {
  if (!(await postgresAvailable())) return undefined;
  const name = `svc_tpl_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  try {
    const { openDatabase } = await import('../../src/db/orm.js');
    const orm = await openDatabase({ databaseUrl: urlOf(name), dataDir: 'memory://', poolMax: 1 });
    await orm.close(true);
  } catch (err) {
    await dropDatabase(name);
    throw err;
  }
  return { name, drop: () => dropDatabase(name) };
}

/**
 * A fresh database for one test file: a new database on the real server, else an in-memory PGlite.
 * `migrated`: a copy of the run's migrated template when there is one (the app then finds nothing to
 * apply); without it, or without a template, an empty database that the app migrates itself.
 */
export async function createTestDatabase(opts: { migrated?: boolean } = {}): Promise<TestDatabase> {
  if (!(await postgresAvailable())) return { dataDir: 'memory://', drop: async () => {} };
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const template = opts.migrated ? templateDatabase() : undefined;
  await admin((c) => c.query(template ? `create database ${name} template ${template}` : `create database ${name}`));
  return { url: urlOf(name), dataDir: 'memory://', drop: () => dropDatabase(name) };
}
