import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * The hot path's invariants with several server processes on one database (issue 11, "What must not
 * change"), on the real entry point: the proof chain stays one line under 200 concurrent calls from two
 * processes, a revoked key is refused at its very next call in every process while a burst runs, and
 * `SVC_WORKERS=2` serves from two processes, replaces one that dies and stops cleanly. PostgreSQL only.
 */
const available = await postgresAvailable();

let models: ScriptedModelServer;
const started: ServerProcess[] = [];
const databases: TestDatabase[] = [];

beforeAll(async () => {
  if (available) models = await startScriptedModelServer();
});

afterEach(async () => {
  for (const proc of started.splice(0)) await proc.kill();
  for (const db of databases.splice(0)) await db.drop();
});

afterAll(async () => {
  await models?.close();
});

const serverEnv = (db: TestDatabase, extra: Record<string, string> = {}) => ({
  DATABASE_URL: db.url!,
  SVC_MODEL_BASE_URL: models.baseUrl,
  SVC_MODEL_API_KEY: 'scripted',
  SVC_MODEL: 'scripted-standard',
  SVC_RATE_GATEWAY: '100000',
  LOG_LEVEL: 'warn',
  ...extra,
});

async function start(db: TestDatabase, extra: Record<string, string> = {}): Promise<ServerProcess> {
  // A server process's start (tsx, migrations) took over 30 s at a load average of 16 to 22: up to 2 minutes here.
  const proc = await startServerProcess({ ...serverEnv(db, extra), LOG_LEVEL: 'info' }, { startTimeoutMs: 120_000 });
  started.push(proc);
  return proc;
}

/** Two server processes on one new database; the first one made the workspace and printed its key. */
async function twoProcesses(): Promise<{ db: TestDatabase; a: ServerProcess; b: ServerProcess; key: string }> {
  const db = await createTestDatabase();
  databases.push(db);
  const a = await start(db);
  await expect.poll(() => a.firstKey).not.toBe('');
  const b = await start(db);
  return { db, a, b, key: a.firstKey };
}

const chatCall = (baseUrl: string, key: string, n: number) =>
  fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: `Question ${n}` }] }),
  });

/** Every certificate of the database's only workspace, in chain order, checked link by link. */
async function chainOf(db: TestDatabase): Promise<{ seq: number; hash: string; prev_hash: string | null }[]> {
  const client = new pg.Client({ connectionString: db.url! });
  await client.connect();
  try {
    const { rows } = await client.query<{ workspace_id: string; seq: number; hash: string; prev_hash: string | null }>(
      'select workspace_id, seq, hash, prev_hash from proof_certificate order by seq',
    );
    return rows;
  } finally {
    await client.end();
  }
}

async function countOf(db: TestDatabase, query: string): Promise<number> {
  const client = new pg.Client({ connectionString: db.url! });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(query);
    return rows[0].n;
  } finally {
    await client.end();
  }
}

// Each test starts two or three server processes: slow on a loaded machine, hence the long timeouts.
describe.runIf(available)('several server processes on one database', { timeout: 420_000 }, () => {
  it('200 concurrent gateway calls from two processes leave one unbroken chain', async () => {
    const { db, a, b, key } = await twoProcesses();
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => chatCall(i % 2 === 0 ? a.baseUrl : b.baseUrl, key, i).then(async (r) => ({ status: r.status, proof: r.headers.get('x-svc-proof'), body: await r.text() }))),
    );
    expect(responses.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    const chain = await chainOf(db);
    expect(chain).toHaveLength(200);
    chain.forEach((link, i) => {
      expect(link.seq).toBe(i + 1);
      expect(link.prev_hash).toBe(i === 0 ? null : chain[i - 1].hash);
    });
    // Every call's certificate is in the chain, once.
    expect(new Set(responses.map((r) => r.proof)).size).toBe(200);
    // The ledger entries are written in the certificates' statement (a batch that lost the race to the
    // chain's head is rolled back and sent again): each call recorded once, every hold given back.
    expect(await countOf(db, `select count(*)::int as n from usage_ledger where route = 'POST /v1/chat/completions'`)).toBe(200);
    expect(await countOf(db, 'select count(*)::int as n from question_hold')).toBe(0);
  });

  it('a key revoked in the middle of a burst is refused at its very next call in both processes', async () => {
    const { a, b, key } = await twoProcesses();
    const child = await api(a.baseUrl, key).post('/developer/api-keys', { name: 'burst' });
    expect(child.status).toBe(201);
    const secret = child.body.key.secret as string;
    let revokedAt: number | undefined;
    const after: number[] = [];
    let okBefore = 0;
    // 8 clients, each sending one call after another, alternately to each process.
    const client = async (c: number) => {
      for (let n = 0; ; n++) {
        const sentAt = performance.now();
        const r = await chatCall((c + n) % 2 === 0 ? a.baseUrl : b.baseUrl, secret, n);
        await r.arrayBuffer();
        if (revokedAt !== undefined && sentAt > revokedAt) {
          after.push(r.status);
          if (after.length >= 40) return;
        } else if (r.status === 200) okBefore++;
      }
    };
    const burst = Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
    await expect.poll(() => okBefore, { timeout: 20_000 }).toBeGreaterThanOrEqual(30);
    const revoked = await api(a.baseUrl, key).delete(`/developer/api-keys/${child.body.key.id}`);
    expect(revoked.status).toBe(200);
    revokedAt = performance.now();
    await burst;
    expect(after.length).toBeGreaterThanOrEqual(40);
    expect(new Set(after)).toEqual(new Set([401]));
  });

  it('SVC_WORKERS=2 serves from two processes, replaces one that dies and stops on SIGTERM', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const proc = await start(db, { SVC_WORKERS: '2' });
    await proc.waitForLog('svc listening with several server processes', 120_000);
    await expect.poll(() => proc.firstKey).not.toBe('');
    // The first start's key is printed once, by the first server process only.
    expect(proc.output().match(/^\s+svc_\S+\s*$/gm)).toHaveLength(1);
    const children = () =>
      readFileSync(`/proc/${proc.child.pid}/task/${proc.child.pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    expect(children()).toHaveLength(2);

    const calls = await Promise.all(Array.from({ length: 20 }, (_, i) => chatCall(proc.baseUrl, proc.firstKey, i)));
    expect(calls.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await chainOf(db)).toHaveLength(20);

    const [victim] = children();
    process.kill(victim, 'SIGKILL');
    await proc.waitForLog('server process exited: starting another');
    await expect.poll(() => children().filter((pid) => pid !== victim).length, { timeout: 120_000 }).toBe(2);
    await expect.poll(() => proc.logs.filter((l) => l.msg === 'svc listening').length, { timeout: 120_000 }).toBe(3);
    await expect.poll(async () => (await chatCall(proc.baseUrl, proc.firstKey, 99)).status, { timeout: 20_000 }).toBe(200);

    proc.signal('SIGTERM');
    const exit = await proc.exited;
    expect(exit.code, proc.output().slice(-3000)).toBe(0);
  });
});
