import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgArrayLiteral } from '../../src/db/sql.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/** The former writer (map, join, both escapes on every string): the loop must write the same text. */
const former = (values: readonly (string | number | null)[]): string =>
  `{${values.map((v) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;

function randomValues(rand: () => number): (string | number | null)[] {
  const parts = ['a', 'é', '😀', '"', '\\', ',', '{', '}', ' ', 'NULL', '\n', "'", 'prf_01J'];
  return Array.from({ length: Math.floor(rand() * 6) }, () => {
    const r = rand();
    if (r < 0.15) return null;
    if (r < 0.35) return Math.floor(rand() * 1e6) - 5e5;
    let s = '';
    for (let i = Math.floor(rand() * 5); i > 0; i--) s += parts[Math.floor(rand() * parts.length)];
    return s;
  });
}

describe('pgArrayLiteral', () => {
  let db: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: false });
    client = new pg.Client({ connectionString: db.url! });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('writes the same text as the former map-and-join writer', () => {
    let seed = 29;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 3000; i++) {
      const values = randomValues(rand);
      expect(pgArrayLiteral(values)).toBe(former(values));
    }
  });

  it('is read back by PostgreSQL as the same values (text and int arrays)', async () => {
    let seed = 5;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 50; i++) {
      const texts = randomValues(rand).map((v) => (typeof v === 'number' ? String(v) : v));
      const { rows } = await client.query<{ a: (string | null)[] }>('select $1::text[] as a', [pgArrayLiteral(texts)]);
      expect(rows[0]!.a).toEqual(texts);
    }
    const { rows } = await client.query<{ a: (number | null)[] }>('select $1::int[] as a', [pgArrayLiteral([1, -2, null, 30])]);
    expect(rows[0]!.a).toEqual([1, -2, null, 30]);
  });
});
