import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { certificateHolds } from '../verify/offline.js';
import { untar, verifyArchive } from './archive.js';

const passages = [{ source: 'memo', content: 'The audit was completed in March 2024. The fee is 4 500 EUR.' }];
const verifyBody = (n: number) => ({ text: `The audit was completed in March 2024. Claim ${n}.`, passages });

let t: TestApp;
let ws: TestTenant;
let proofKey: string;
const reports: { id: string; certificateId: string }[] = [];

async function download(key: string, path = '/v1/registre/export'): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  t = await startTestApp();
  ws = await t.tenant({ plan: 'cabinet' });
  proofKey = await t.key(ws, { scopes: ['proof'] });
  const client = api(t.baseUrl, ws.key);
  for (let i = 0; i < 3; i++) reports.push((await client.post('/v1/verify', verifyBody(i))).body.report);
  // A gateway call on the built-in local model: a certificate of kind gateway.
  const call = await client.post('/v1/chat/completions', { model: 'svc-sensitive', messages: [{ role: 'user', content: 'Hello' }] });
  expect(call.status).toBe(200);
  t.clock.advance(40 * 86_400_000); // next month
  reports.push((await api(t.baseUrl, proofKey).post('/v1/verify', verifyBody(3))).body.report);
});
afterAll(() => t.close());

describe('plan and scope', () => {
  it('answers 402 PLAN_UPGRADE_REQUIRED naming proofJournal and cabinet on plans without it', async () => {
    const pro = await t.tenant({ plan: 'pro' });
    for (const path of ['/v1/registre', '/v1/registre/summary', '/v1/registre/export']) {
      const res = await api(t.baseUrl, pro.key).get(path);
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', feature: 'proofJournal', requiredPlan: 'cabinet' });
    }
    // The verifier itself stays open to the plan.
    expect((await api(t.baseUrl, pro.key).post('/v1/verify', verifyBody(9))).status).toBe(201);
  });

  it('refuses keys without the proof scope; read-only keys may read', async () => {
    const other = await t.key(ws, { scopes: ['knowledge'] });
    for (const path of ['/v1/registre', '/v1/registre/summary', '/v1/registre/export']) {
      const res = await api(t.baseUrl, other).get(path);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('scope_denied');
    }
    const readOnly = await t.key(ws, { scopes: ['proof'], readonly: true });
    expect((await api(t.baseUrl, readOnly).get('/v1/registre/summary')).status).toBe(200);
  });
});

describe('GET /v1/registre', () => {
  it('lists every certificate newest first, with its kind', async () => {
    const res = await api(t.baseUrl, ws.key).get('/v1/registre');
    expect(res.status).toBe(200);
    const list = res.body.certificates as { id: string; seq: number; kind: string; hash: string; signature: string }[];
    expect(list.map((c) => c.seq)).toEqual([5, 4, 3, 2, 1]);
    expect(list.map((c) => c.kind)).toEqual(['verify', 'gateway', 'verify', 'verify', 'verify']);
    expect(list[0]!.id).toBe(reports[3]!.certificateId);
    expect(res.body.nextCursor).toBeNull();
  });

  it('filters by kind, period and key, and pages with a cursor', async () => {
    const client = api(t.baseUrl, ws.key);
    const ids = async (q: string) => ((await client.get(`/v1/registre?${q}`)).body.certificates as { seq: number }[]).map((c) => c.seq);
    expect(await ids('kind=gateway')).toEqual([4]);
    expect(await ids('kind=verify,gateway')).toEqual([5, 4, 3, 2, 1]);
    expect(await ids('from=2026-12-01')).toEqual([5]);
    expect(await ids('to=2026-12-01&kind=verify')).toEqual([3, 2, 1]);
    const [key] = await t.app.services.orm.em.fork().execute<{ id: string }[]>(
      `select id from api_key where workspace_id = ? and scopes = '["proof"]'::jsonb and readonly = false`,
      [ws.workspaceId],
    );
    expect(await ids(`keyId=${key!.id}`)).toEqual([5]);
    const first = await client.get('/v1/registre?limit=2');
    expect(first.body.certificates.map((c: { seq: number }) => c.seq)).toEqual([5, 4]);
    await client.post('/v1/verify', verifyBody(10)); // arrives between the pages
    const second = await client.get(`/v1/registre?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.certificates.map((c: { seq: number }) => c.seq)).toEqual([3, 2]);
  });

  it.each([
    ['kind=model', /kind/],
    ['from=yesterday', /from/],
    ['to=2026-13-45', /to/],
    ['limit=0', /limit/],
    ['cursor=%%%', /cursor/],
  ])('400 naming the field: %s', async (q, field) => {
    const res = await api(t.baseUrl, ws.key).get(`/v1/registre?${q}`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(field);
  });
});

describe('GET /v1/registre/summary', () => {
  it('counts by month and kind, and checks the chain end to end', async () => {
    const res = await api(t.baseUrl, ws.key).get('/v1/registre/summary');
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual([
      { month: '2026-11', kind: 'gateway', count: 1 },
      { month: '2026-11', kind: 'verify', count: 3 },
      { month: '2026-12', kind: 'verify', count: 2 },
    ]);
    const list = (await api(t.baseUrl, ws.key).get('/v1/registre')).body.certificates;
    expect(res.body.chain).toEqual({ length: 6, firstHash: list[5].hash, lastHash: list[0].hash, valid: true, firstBroken: null });
  });

  it('names the first broken link of a tampered chain', async () => {
    const other = await t.tenant({ plan: 'cabinet' });
    const client = api(t.baseUrl, other.key);
    for (let i = 0; i < 4; i++) await client.post('/v1/verify', verifyBody(i));
    await t.app.services.orm.em.fork().execute(`update proof_certificate set answer_hash = repeat('0', 64) where workspace_id = ? and seq = 2`, [other.workspaceId]);
    const res = await client.get('/v1/registre/summary');
    expect(res.body.chain).toMatchObject({ length: 4, valid: false, firstBroken: { seq: 2, check: 'hash' } });
  });
});

describe('GET /v1/registre/export', () => {
  it('streams a signed tar.gz that verifies offline, and fails verification once tampered', async () => {
    const res = await download(ws.key);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/gzip');
    const files = untar(res.bytes);
    expect([...files.keys()]).toEqual(['certificates.jsonl', 'public-key.pem', 'public-keys.json', 'VERIFY.md', 'manifest.json', 'manifest.sig']);
    expect(verifyArchive(files)).toEqual({ ok: true, count: 6 });
    const manifest = JSON.parse(files.get('manifest.json')!.toString());
    expect(manifest).toMatchObject({ format: 'svc.registre/v1', count: 6, firstSeq: 1, lastSeq: 6, chainValid: true, algorithm: 'Ed25519' });
    expect(files.get('VERIFY.md')!.toString()).toMatch(/openssl pkeyutl -verify/);

    // One figure changed in a certificate: its file no longer matches the manifest.
    const jsonl = files.get('certificates.jsonl')!.toString();
    const tampered = new Map(files);
    tampered.set('certificates.jsonl', Buffer.from(jsonl.replace('"seq":3', '"seq":33')));
    expect(verifyArchive(tampered)).toEqual({ ok: false, reason: 'file certificates.jsonl' });
    // The manifest rewritten to match: its signature no longer holds.
    const forged = new Map(tampered);
    const m = JSON.parse(files.get('manifest.json')!.toString());
    m.files['certificates.jsonl'].sha256 = (await import('node:crypto')).createHash('sha256').update(tampered.get('certificates.jsonl')!).digest('hex');
    forged.set('manifest.json', Buffer.from(JSON.stringify(m)));
    expect(verifyArchive(forged)).toEqual({ ok: false, reason: 'manifest signature' });
    // A certificate changed in place fails its own hash and signature, whatever the manifest says.
    const keyPem = files.get('public-key.pem')!.toString();
    const cert = JSON.parse(jsonl.split('\n')[1]!);
    expect(certificateHolds(cert, keyPem)).toEqual({ hash: true, signature: true });
    expect(certificateHolds({ ...cert, route: 'POST /v1/forged' }, keyPem)).toEqual({ hash: false, signature: false });
  });

  it('exports an empty chain as a valid archive', async () => {
    const empty = await t.tenant({ plan: 'cabinet' });
    const res = await download(empty.key);
    expect(res.status).toBe(200);
    expect(verifyArchive(untar(res.bytes))).toEqual({ ok: true, count: 0 });
  });
});
