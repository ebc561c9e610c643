import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { embeddedDir, lockDataDir, openDatabase } from './orm.js';

/**
 * Backup and restore of the embedded database (docs/operations.md, "Backups"): PGlite's own
 * `dumpDataDir` (a gzipped tar of the data directory) and `loadDataDir`. PGlite is one process: the
 * server holds the directory's lock while it runs, so these run with the server stopped (stop, back up,
 * start), and refuse with the lock's message otherwise. A PostgreSQL deployment uses pg_dump instead.
 */

export interface BackupResult {
  file: string;
  bytes: number;
}

export async function backupEmbedded(dataDir: string, out: string): Promise<BackupResult> {
  const dir = embeddedDir(dataDir);
  if (!existsSync(`${dir}/PG_VERSION`)) throw new Error(`No embedded database in ${dir} (SVC_DATA_DIR=${dataDir})`);
  const release = lockDataDir(dir);
  try {
    const pg = await PGlite.create({ dataDir: dir });
    try {
      // A checkpoint first, so the copy holds every committed change in the data files themselves.
      await pg.exec('checkpoint');
      const tar = await pg.dumpDataDir('gzip');
      const bytes = Buffer.from(await tar.arrayBuffer());
      writeFileSync(out, bytes, { mode: 0o600 });
      return { file: out, bytes: bytes.length };
    } finally {
      await pg.close();
    }
  } finally {
    release();
  }
}

/**
 * Restores a backup into an empty SVC_DATA_DIR (an existing database is never overwritten: move it
 * aside first), then opens it once through the ORM, which applies the migrations a newer version
 * brings, so the server starts on it as on its own.
 */
export async function restoreEmbedded(dataDir: string, from: string): Promise<{ dataDir: string }> {
  const dir = embeddedDir(dataDir);
  if (readdirSync(dir).length > 0) {
    throw new Error(`${dir} is not empty: restore into an empty SVC_DATA_DIR (move the current database aside first)`);
  }
  const tar = new Blob([readFileSync(from)]);
  const release = lockDataDir(dir);
  try {
    const pg = await PGlite.create({ dataDir: dir, loadDataDir: tar });
    try {
      await pg.query('select 1');
    } finally {
      await pg.close();
    }
  } catch (err) {
    throw new Error(`${from} is not a backup of the embedded database: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    release();
  }
  const orm = await openDatabase({ dataDir, poolMax: 1 });
  await orm.close(true);
  return { dataDir };
}
