import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';
import type { Orm } from './types.js';

export type { Em, Orm } from './types.js';

export interface DatabaseOptions {
  /** A PostgreSQL URL; without it the embedded PGlite database under `dataDir` is used. */
  databaseUrl?: string;
  /** Directory of the embedded database, or `memory://` for a throwaway one. */
  dataDir: string;
  poolMax?: number;
  debug?: boolean;
}

export class DataDirLockedError extends Error {}

/** Opens the database (real PostgreSQL or embedded PGlite) and applies pending migrations. */
export async function openDatabase(opts: DatabaseOptions): Promise<Orm> {
  const common = {
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    debug: opts.debug ?? false,
    allowGlobalContext: false,
    ensureDatabase: false,
  };
  let orm: Orm;
  if (opts.databaseUrl) {
    const { MikroORM } = await import('@mikro-orm/postgresql');
    orm = (await MikroORM.init({
      ...common,
      clientUrl: opts.databaseUrl,
      pool: { min: 0, max: opts.poolMax ?? 10 },
    })) as unknown as Orm;
  } else {
    const { MikroORM } = await import('@mikro-orm/pglite');
    const memory = opts.dataDir === 'memory://';
    const dbName = memory ? 'memory://' : embeddedDir(opts.dataDir);
    const release = memory ? () => {} : lockDataDir(dbName);
    try {
      orm = (await MikroORM.init({ ...common, dbName })) as unknown as Orm;
    } catch (err) {
      release();
      throw err;
    }
    const close = orm.close.bind(orm);
    orm.close = async (force?: boolean) => {
      await close(force);
      release();
    };
  }
  await orm.migrator.up();
  return orm;
}

/** The embedded database's directory under SVC_DATA_DIR (`<dir>/pg`), created when missing. */
export function embeddedDir(dataDir: string): string {
  const dir = resolve(dataDir, 'pg');
  mkdirSync(dir, { recursive: true });
  return dir;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite is single-process: a lock file holding the owner's pid keeps a second process (the admin CLI
 * while the server runs) from opening the same directory. A lock left by a dead process is taken over.
 */
const heldHere = new Set<string>();

export function lockDataDir(dir: string): () => void {
  const lockFile = resolve(dir, '..', 'svc.lock');
  if (heldHere.has(lockFile)) {
    throw new DataDirLockedError(`The embedded database in ${dir} is in use by another process (this one).`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      heldHere.add(lockFile);
      return () => {
        heldHere.delete(lockFile);
        rmSync(lockFile, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(lockFile, 'utf8').trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new DataDirLockedError(
          `The embedded database in ${dir} is in use by another process (pid ${owner}, probably the running server). ` +
            'Stop it first, or run the server and this command against PostgreSQL with DATABASE_URL.',
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the embedded database in ${dir}`);
}
