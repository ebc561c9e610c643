/**
 * `npm run db:schema`: migrates a throwaway database on the PostgreSQL at DATABASE_URL's server (default:
 * the local one) and writes its schema to docs/schema.sql.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { openDatabase } from './orm.js';
import { dumpSchema } from './schema-dump.js';

const adminUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `svc_schema_${randomBytes(4).toString('hex')}`;
const admin = async (sql: string) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

await admin(`create database ${name}`);
try {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const orm = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' });
  await orm.close(true);
  writeFileSync(new URL('../../docs/schema.sql', import.meta.url), await dumpSchema(url.toString()));
  console.log('docs/schema.sql written');
} finally {
  await admin(`drop database if exists ${name} with (force)`);
}
