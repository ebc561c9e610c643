/**
 * A gateway call's model request sent beside its admission (`SVC_ADMISSION_OVERLAP`, docs/gateway.md "The model
 * call beside its admission"): a key whose last admission was granted sends its next call to the model at once,
 * and nothing (no header, no byte) reaches the client before the admission succeeds; an admission that refuses
 * aborts the model request and the client gets the refusal exactly as before. The admission is held up here by
 * a transaction of the test's that locks the workspace's row (`svc_admit` takes it). PostgreSQL only.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionHistory, GRANTED_FOR_MS } from '../../src/modules/gateway/early-call.js';
import { postgresAvailable } from '../support/database.js';
import { exhaustAllowance, startGateway, startGatewayWithTenant, type GatewayHarness } from '../support/gateway.js';
import type { TestTenant } from '../support/app.js';

const onPostgres = await postgresAvailable();

const chat = (h: GatewayHarness, key: string, stream = false) =>
  fetch(`${h.t.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Answer?' }], ...(stream ? { stream: true } : {}) }),
  });

async function connect(h: GatewayHarness): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: h.t.db.url! });
  await client.connect();
  return client;
}

async function queryOnce<T extends pg.QueryResultRow>(h: GatewayHarness, text: string, params: unknown[]): Promise<T[]> {
  const client = await connect(h);
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Locks the workspace's row in a transaction of its own: every admission of the workspace waits until `release`. */
async function holdAdmissions(h: GatewayHarness, tenant: TestTenant): Promise<{ waiting(): Promise<number>; release(): Promise<void> }> {
  const client = await connect(h);
  await client.query('begin');
  await client.query('select 1 from workspace where id = $1 for update', [tenant.workspaceId]);
  const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
  return {
    // Statements blocked by this transaction (an admission waiting for its decision).
    waiting: async () => (await client.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [pid])).rows[0].n,
    release: async () => {
      await client.query('commit');
      await client.end();
    },
  };
}

/** A response promise, and whether it has settled (headers received, or failed). */
const tracked = (p: Promise<Response>) => {
  const state = { settled: false, response: p };
  void p.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
};

const streamedText = (body: string): string =>
  body
    .split('\n\n')
    .filter((e) => e.startsWith('data: {'))
    .map((e) => (JSON.parse(e.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
    .join('');

describe('AdmissionHistory', () => {
  it('lets a key overlap only within a minute of its last granted admission, and forgets it when refused', () => {
    const history = new AdmissionHistory(true);
    expect(history.mayOverlap('key_a', 1_000)).toBe(false);
    history.admitted('key_a', 1_000);
    expect(history.mayOverlap('key_a', 1_000 + GRANTED_FOR_MS - 1)).toBe(true);
    expect(history.mayOverlap('key_a', 1_000 + GRANTED_FOR_MS)).toBe(false);
    expect(history.mayOverlap('key_b', 1_000)).toBe(false);
    history.refused('key_a');
    expect(history.mayOverlap('key_a', 1_001)).toBe(false);
    const off = new AdmissionHistory(false);
    off.admitted('key_a', 1_000);
    expect(off.mayOverlap('key_a', 1_000)).toBe(false);
  });
});

describe.runIf(onPostgres)('the model call beside its admission (SVC_ADMISSION_OVERLAP)', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGateway({ SVC_RATE_GATEWAY: '1000' });
  });
  afterAll(() => h.close());

  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'plain'}: the model answers while the admission waits; the client gets nothing before it is admitted`, async () => {
      const tenant = await h.t.tenant();
      const first = await chat(h, tenant.key, stream);
      expect(first.status).toBe(200); // granted: the key's next call overlaps
      await first.text();
      const before = h.models.requests.length;
      h.models.enqueue({ chunks: ['Early ', 'answer.'] });
      const lock = await holdAdmissions(h, tenant);
      const call = tracked(chat(h, tenant.key, stream));
      // The model request arrived while the admission is still blocked by the lock.
      await expect.poll(() => h.models.requests.length, { timeout: 5_000 }).toBe(before + 1);
      await expect.poll(() => lock.waiting(), { timeout: 5_000 }).toBeGreaterThan(0);
      expect(call.settled).toBe(false);
      await lock.release();
      const res = await call.response;
      expect(res.status).toBe(200);
      expect(res.headers.get('x-svc-proof')).toMatch(/^prf_/);
      const body = await res.text();
      if (stream) {
        expect(streamedText(body)).toBe('Early answer.');
        expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
      } else expect((JSON.parse(body) as { choices: { message: { content: string } }[] }).choices[0].message.content).toBe('Early answer.');
      const [cert] = await queryOnce<{ n: number }>(h, 'select count(*)::int as n from proof_certificate where id = $1', [res.headers.get('x-svc-proof')]);
      expect(cert.n).toBe(1);
    });
  }

  it('off: the model request waits for the admission', async () => {
    const off = await startGatewayWithTenant({ SVC_RATE_GATEWAY: '1000', SVC_ADMISSION_OVERLAP: 'off' });
    try {
      const first = await chat(off.h, off.a.key);
      expect(first.status).toBe(200);
      await first.text();
      const before = off.h.models.requests.length;
      const lock = await holdAdmissions(off.h, off.a);
      const call = chat(off.h, off.a.key);
      await expect.poll(() => lock.waiting(), { timeout: 5_000 }).toBeGreaterThan(0);
      expect(off.h.models.requests.length).toBe(before);
      await lock.release();
      const res = await call;
      expect(res.status).toBe(200);
      await res.text();
      expect(off.h.models.requests.length).toBe(before + 1);
    } finally {
      await off.h.close();
    }
  });

  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'plain'}: a refused admission aborts the model request and answers the exact refusal; the next call waits for its admission`, async () => {
      const tenant = await h.t.tenant();
      const first = await chat(h, tenant.key, stream);
      expect(first.status).toBe(200);
      await first.text();
      await exhaustAllowance(h.t, tenant);
      const certificates = async () =>
        (await queryOnce<{ n: number }>(h, 'select count(*)::int as n from proof_certificate where workspace_id = $1', [tenant.workspaceId]))[0].n;
      const certified = await certificates();
      const before = h.models.requests.length;
      const abandoned = h.models.abandoned;
      // The model would never finish: only the refusal ends the call.
      h.models.enqueue({ hang: true, chunks: ['never ', 'sent'] });
      const res = await chat(h, tenant.key, stream);
      expect(res.status).toBe(402);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-svc-proof')).toBeNull();
      expect(await res.json()).toEqual({ error: { message: expect.any(String), type: 'insufficient_quota', code: 'insufficient_quota', param: null } });
      expect(h.models.requests.length).toBe(before + 1);
      await expect.poll(() => h.models.abandoned, { timeout: 5_000 }).toBe(abandoned + 1);
      expect(await certificates()).toBe(certified);
      // Refused: the key's next call is decided before any model request.
      const again = await chat(h, tenant.key, stream);
      expect(again.status).toBe(402);
      await again.text();
      expect(h.models.requests.length).toBe(before + 1);
    });
  }

  it('a key revoked (by another process) after a granted call gets 401 at its next call, its model request aborted', async () => {
    const tenant = await h.t.tenant();
    const child = await fetch(`${h.t.baseUrl}/developer/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'revoked mid-burst' }),
    });
    expect(child.status).toBe(201);
    const { key } = (await child.json()) as { key: { id: string; secret: string } };
    const granted = await chat(h, key.secret);
    expect(granted.status).toBe(200);
    await granted.text();
    // Revoked in the database, as another process revokes it: this process still remembers the key.
    await queryOnce(h, 'update api_key set revoked_at = now() where id = $1', [key.id]);
    const before = h.models.requests.length;
    const abandoned = h.models.abandoned;
    h.models.enqueue({ hang: true });
    const res = await chat(h, key.secret);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-svc-proof')).toBeNull();
    // Authentication's native shape, as a call refused before any model request gets it (below).
    const refusal = (await res.json()) as unknown;
    expect(refusal).toEqual({ error: 'Invalid or revoked API key' });
    expect(h.models.requests.length).toBe(before + 1);
    await expect.poll(() => h.models.abandoned, { timeout: 5_000 }).toBe(abandoned + 1);
    // Refused: its next call (streamed) is decided before any model request, and gets no stream.
    const streamed = await chat(h, key.secret, true);
    expect(streamed.status).toBe(401);
    expect(streamed.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await streamed.json()).toEqual(refusal);
    expect(h.models.requests.length).toBe(before + 1);
  });
});
