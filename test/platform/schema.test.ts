/**
 * The schema in one place (docs/architecture.md, "Where the schema is"): the migrations are listed in
 * name order, every table they create has an entity and every entity property a column of the same kind
 * and nullability, and docs/schema.sql is what the migrations produce (`npm run db:schema`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Orm } from '../../src/db/orm.js';
import { migrationsList } from '../../src/db/migrations/index.js';
import { dumpSchema } from '../../src/db/schema-dump.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/** A column type reduced to what the entity and the database must agree on (lengths may differ). */
function kindOf(type: string): string {
  const t = type.toLowerCase().replace(/\(.*\)$/, '').trim();
  if (['varchar', 'character varying', 'text', 'character', 'char'].includes(t)) return 'text';
  if (['int', 'integer', 'int4', 'smallint', 'int2'].includes(t)) return 'integer';
  if (['bigint', 'int8', 'bigserial'].includes(t)) return 'bigint';
  if (['timestamptz', 'timestamp with time zone'].includes(t)) return 'timestamptz';
  if (['double precision', 'float8'].includes(t)) return 'double';
  return t;
}

interface DbColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
}

let db: TestDatabase;
let orm: Orm;
let columns: DbColumn[];

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await openDatabase({ databaseUrl: db.url, dataDir: db.dataDir });
  const rows = await orm.em.fork().execute<{ table_name: string; column_name: string; data_type: string; is_nullable: string }[]>(
    `select table_name, column_name, data_type, is_nullable from information_schema.columns
      where table_schema = current_schema() and table_name <> 'mikro_orm_migrations' order by table_name, ordinal_position`,
  );
  columns = rows.map((r) => ({ table: r.table_name, column: r.column_name, type: r.data_type, nullable: r.is_nullable === 'YES' }));
});

afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

/** Every persisted scalar property of every entity, as the column it maps to. */
function entityColumns(): DbColumn[] {
  const out: DbColumn[] = [];
  for (const meta of orm.getMetadata().getAll().values()) {
    if (meta.embeddable || meta.virtual) continue;
    for (const prop of meta.props) {
      if (prop.persist === false || prop.kind !== 'scalar') continue;
      out.push({ table: meta.tableName, column: prop.fieldNames[0]!, type: prop.columnTypes[0]!, nullable: !!prop.nullable });
    }
  }
  return out;
}

/** What keeps the entities (MikroORM metadata) and the migrated database from agreeing, one line each. */
function schemaProblems(entity: DbColumn[], database: DbColumn[]): string[] {
  const mapped = new Set(entity.map((c) => `${c.table}.${c.column}`));
  const problems = database.filter((c) => !mapped.has(`${c.table}.${c.column}`)).map((c) => `${c.table}.${c.column}: column of no entity`);
  const byName = new Map(database.map((c) => [`${c.table}.${c.column}`, c]));
  for (const e of entity) {
    const c = byName.get(`${e.table}.${e.column}`);
    if (!c) problems.push(`${e.table}.${e.column}: no such column`);
    else if (kindOf(c.type) !== kindOf(e.type)) problems.push(`${e.table}.${e.column}: entity ${e.type}, database ${c.type}`);
    else if (c.nullable !== e.nullable) problems.push(`${e.table}.${e.column}: entity ${e.nullable ? 'nullable' : 'not null'}, database ${c.nullable ? 'nullable' : 'not null'}`);
  }
  return problems;
}

describe('the schema in one place', () => {
  it('lists the migrations in name order, every file in src/db/migrations once', () => {
    const names = migrationsList.map((m) => m.name);
    expect(names).toEqual([...names].sort());
    const files = readdirSync(new URL('../../src/db/migrations/', import.meta.url))
      .filter((f) => /^Migration\d+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(names).toEqual(files);
  });

  it('every table the migrations create has an entity, every column a property of the same kind and nullability', () => {
    expect(schemaProblems(entityColumns(), columns)).toEqual([]);
  });

  it('the agreement check fails on a table without an entity, a column of another kind, a nullability change', () => {
    const entity: DbColumn[] = [
      { table: 'a', column: 'id', type: 'varchar(255)', nullable: false },
      { table: 'a', column: 'n', type: 'int', nullable: false },
      { table: 'a', column: 'note', type: 'text', nullable: true },
    ];
    const database: DbColumn[] = [
      { table: 'a', column: 'id', type: 'character varying', nullable: false },
      { table: 'a', column: 'n', type: 'text', nullable: false },
      { table: 'a', column: 'note', type: 'text', nullable: false },
      { table: 'b', column: 'id', type: 'text', nullable: false },
    ];
    expect(schemaProblems(entity, database)).toEqual([
      'b.id: column of no entity',
      'a.n: entity int, database text',
      'a.note: entity nullable, database not null',
    ]);
  });

  // pg_dump needs a PostgreSQL server: the embedded smoke run (SVC_TEST_EMBEDDED=1) checks the rest.
  it.skipIf(process.env.SVC_TEST_EMBEDDED === '1')('docs/schema.sql is what the migrations produce (run `npm run db:schema`)', async () => {
    const stored = readFileSync(new URL('../../docs/schema.sql', import.meta.url), 'utf8');
    expect(stored).toBe(await dumpSchema(db.url!));
  });
});
