import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { ingest } from '../support/knowledge.js';
import { VERIFY_LIMITS } from '../../src/modules/verify/verify.schemas.js';
import { canonical, certificateHolds, sha256Hex } from './offline.js';

const passages = [
  {
    source: 'annual-report-2023',
    content:
      'Acme Corp was founded in 1998 in Lyon. In 2023, revenue rose to €1.2 million, an increase of 12 % over 2022. The company employs 120 people. Acme does not pay dividends.',
  },
  { source: 'travel-policy', content: 'Refunds are granted within 30 days of purchase. Remote work is allowed two days a week.' },
];
const text =
  'Acme Corp was founded in 1998. Revenue rose to 1 200 000 € in 2023. Acme was founded in 2001. Acme pays dividends. Refunds are granted within 45 days of purchase. The moon orbits the earth every month.';

let t: TestApp;
let owner: TestTenant;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_RATE_VERIFY: '1000' } });
  owner = await t.tenant();
});
afterAll(() => t.close());

describe('POST /v1/verify', () => {
  it('gives each claim a verdict with its best evidence, counts and a certificate (201 { report })', async () => {
    const res = await api(t.baseUrl, owner.key).post('/v1/verify', { text, passages });
    expect(res.status).toBe(201);
    const { report } = res.body;
    expect(report.id).toMatch(/^vrf_/);
    expect(report.certificateId).toMatch(/^prf_/);
    expect(report.claims.map((c: { verdict: string }) => c.verdict)).toEqual([
      'supported',
      'supported',
      'contradicted',
      'contradicted',
      'contradicted',
      'unverifiable',
    ]);
    expect(report.counts).toEqual({ supported: 2, contradicted: 3, unverifiable: 1 });
    const money = report.claims[1];
    expect(money.rule).toBe('numbers');
    expect(money.evidence[0]).toMatchObject({ source: 'annual-report-2023', quote: 'In 2023, revenue rose to €1.2 million, an increase of 12 % over 2022.', score: 1 });
    const e = money.evidence[0];
    expect(passages[0]!.content.slice(e.start, e.end)).toBe(e.quote);
    expect(text.slice(money.start, money.end)).toBe(money.text);
    expect(report.claims[3]).toMatchObject({ verdict: 'contradicted', rule: 'negation' });
    expect(report.claims[4]).toMatchObject({ verdict: 'contradicted', rule: 'numbers' });
  });

  it('gives the same report for the same input', async () => {
    const client = api(t.baseUrl, owner.key);
    const a = (await client.post('/v1/verify', { text, passages })).body.report;
    const b = (await client.post('/v1/verify', { text, passages })).body.report;
    expect(b.claims).toEqual(a.claims);
    expect(b.counts).toEqual(a.counts);
    expect(b.id).not.toBe(a.id);
  });

  it('checks against knowledge collections, with the source and passage ids in the evidence', async () => {
    const client = api(t.baseUrl, owner.key);
    const collection = (await client.post('/v1/knowledge-collections', { name: 'Policies' })).body.collection;
    const source = await ingest(t, owner, Buffer.from('Expense policy\n\nThe hotel cap is 150 EUR per night.\nTaxis are not reimbursed.', 'utf8'), 'policy.txt', {
      collectionId: collection.id,
    });
    expect(source.status).toBe('ready');
    const res = await client.post('/v1/verify', { text: 'The hotel cap is 180 EUR per night. Taxis are reimbursed.', collectionIds: [collection.id] });
    expect(res.status).toBe(201);
    const [hotel, taxis] = res.body.report.claims;
    expect(hotel).toMatchObject({ verdict: 'contradicted', rule: 'numbers' });
    expect(hotel.evidence[0]).toMatchObject({ source: 'policy.txt', sourceId: source.id, quote: 'The hotel cap is 150 EUR per night.' });
    expect(hotel.evidence[0].chunkId).toBeTruthy();
    expect(taxis).toMatchObject({ verdict: 'contradicted', rule: 'negation' });
    expect(res.body.report).toMatchObject({ against: 'collections', collectionIds: [collection.id] });
  });

  it("keeps a collection's index between requests, and builds a new one when the collection's sources change", async () => {
    const client = api(t.baseUrl, owner.key);
    const indexes = t.app.services.verify.collectionIndexes;
    const collection = (await client.post('/v1/knowledge-collections', { name: 'Prices' })).body.collection;
    await ingest(t, owner, Buffer.from('Prices\n\nThe service fee is 120 EUR.', 'utf8'), 'prices.txt', { collectionId: collection.id });
    const claim = 'The service fee is 120 EUR. The support line opens at 9.';
    const first = (await client.post('/v1/verify', { text: claim, collectionIds: [collection.id] })).body.report;
    const built = indexes.size;
    const again = (await client.post('/v1/verify', { text: claim, collectionIds: [collection.id] })).body.report;
    expect(indexes.size).toBe(built); // the same index, not a second one
    expect(again.claims).toEqual(first.claims);
    expect(first.claims.map((c: { verdict: string }) => c.verdict)).toEqual(['supported', 'unverifiable']);
    // A new source in the collection: a new index, which sees it.
    await ingest(t, owner, Buffer.from('Support\n\nThe support line opens at 9.', 'utf8'), 'support.txt', { collectionId: collection.id });
    const after = (await client.post('/v1/verify', { text: claim, collectionIds: [collection.id] })).body.report;
    expect(after.claims.map((c: { verdict: string }) => c.verdict)).toEqual(['supported', 'supported']);
  });

  describe('every 400 names its field', () => {
    const cases: { name: string; body: unknown; status?: number; code?: string; field: RegExp }[] = [
      { name: 'text missing', body: { passages }, code: 'text_required', field: /text/ },
      { name: 'text empty', body: { text: '', passages }, code: 'text_required', field: /text/ },
      { name: 'text blank', body: { text: '   ', passages }, code: 'text_required', field: /text/ },
      { name: 'text not a string', body: { text: 12, passages }, field: /text/ },
      { name: 'text with NUL', body: { text: 'a\u0000b c d', passages }, field: /text/ },
      { name: 'text over the maximum', body: { text: 'a '.repeat(VERIFY_LIMITS.textChars), passages }, status: 413, code: 'text_too_large', field: /text/ },
      { name: 'both passages and collectionIds', body: { text, passages, collectionIds: ['col_x'] }, code: 'ambiguous_scope', field: /passages.*collectionIds/ },
      { name: 'neither passages nor collectionIds', body: { text }, field: /passages/ },
      { name: 'passages not a list', body: { text, passages: 'abc' }, code: 'invalid_passages', field: /passages/ },
      { name: 'passages empty', body: { text, passages: [] }, code: 'invalid_passages', field: /passages/ },
      { name: 'passage not an object', body: { text, passages: ['abc'] }, code: 'invalid_passages', field: /passages\[0\]/ },
      { name: 'passage without content', body: { text, passages: [{ source: 'a' }] }, code: 'invalid_passages', field: /passages\[0\]\.content/ },
      { name: 'passage without source', body: { text, passages: [{ source: 'a', content: 'b' }, { content: 'x' }] }, code: 'invalid_passages', field: /passages\[1\]\.source/ },
      { name: 'passage content blank', body: { text, passages: [{ source: 'a', content: ' ' }] }, code: 'invalid_passages', field: /passages\[0\]\.content/ },
      { name: 'collectionIds not a list', body: { text, collectionIds: 'col' }, field: /collectionIds/ },
      { name: 'collectionIds empty', body: { text, collectionIds: [] }, field: /collectionIds/ },
      { name: 'collectionIds unknown', body: { text, collectionIds: ['col_unknown'] }, field: /Collection not found/ },
    ];
    it.each(cases)('$name', async ({ body, status, code, field }) => {
      const res = await api(t.baseUrl, owner.key).post('/v1/verify', body);
      expect(res.status).toBe(status ?? 400);
      if (code) expect(res.body.code).toBe(code);
      else expect(res.body.code).toBeUndefined();
      expect(JSON.stringify(res.body)).toMatch(field);
    });

    it('a body that is not an object', async () => {
      const res = await api(t.baseUrl, owner.key).post('/v1/verify', '[1]');
      expect(res.status).toBe(400);
    });

    it.each([
      ['/v1/verify?limit=0', /limit/],
      ['/v1/verify?limit=101', /limit/],
      ['/v1/verify?limit=abc', /limit/],
      ['/v1/verify?cursor=nope', /cursor/],
    ])('GET %s', async (path, field) => {
      const res = await api(t.baseUrl, owner.key).get(path);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(field);
    });

    it('export with an unknown format', async () => {
      const { report } = (await api(t.baseUrl, owner.key).post('/v1/verify', { text, passages })).body;
      const res = await api(t.baseUrl, owner.key).get(`/v1/verify/${report.id}/export?format=xml`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/format/);
    });
  });
});

describe('scope proof, read-only keys, other workspaces', () => {
  it('refuses keys without proof (403 scope_denied) and read-only keys on POST (403 read_only_key)', async () => {
    const knowledgeOnly = await t.key(owner, { scopes: ['knowledge'] });
    for (const call of [
      () => api(t.baseUrl, knowledgeOnly).post('/v1/verify', { text, passages }),
      () => api(t.baseUrl, knowledgeOnly).get('/v1/verify'),
      () => api(t.baseUrl, knowledgeOnly).get('/v1/verify/usage'),
    ]) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'scope_denied' });
      expect(res.body.error).toMatch(/proof/);
    }
    const readOnly = await t.key(owner, { scopes: ['proof'], readonly: true });
    const refused = await api(t.baseUrl, readOnly).post('/v1/verify', { text, passages });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('read_only_key');
    expect((await api(t.baseUrl, readOnly).get('/v1/verify')).status).toBe(200);
  });

  it("answers 404 for another workspace's report, certificate and export", async () => {
    const { report } = (await api(t.baseUrl, owner.key).post('/v1/verify', { text, passages })).body;
    const other = await t.tenant();
    for (const path of [`/v1/verify/${report.id}`, `/v1/verify/${report.id}/certificate`, `/v1/verify/${report.id}/export`, '/v1/verify/vrf_unknown']) {
      expect((await api(t.baseUrl, other.key).get(path)).status).toBe(404);
    }
    expect((await api(t.baseUrl, owner.key).get(`/v1/verify/${report.id}`)).body.report).toEqual(report);
  });
});

describe('controls', () => {
  it('counts each report as a control, consumes no question, and is not stopped by monthlyQuestionLimit', async () => {
    const ws = await t.tenant();
    const proofOnly = await t.key(ws, { scopes: ['proof'], monthlyQuestionLimit: 1 });
    const em = t.app.services.orm.em.fork();
    const [key] = await em.execute<{ id: string }[]>('select id from api_key where workspace_id = ? and monthly_question_limit = 1', [ws.workspaceId]);
    // The key's only question this month is spent.
    await em.execute(
      `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, model, prompt_tokens, completion_tokens, total_tokens, questions, from_allowance, from_packs, created_at)
       values ('use_spent', ?, ?, ?, 'question', 'POST /v1/chat/completions', 'light', 'm', 10, 10, 20, 1, 1, 0, ?)`,
      [ws.workspaceId, key!.id, ws.userId, t.clock.now()],
    );
    const client = api(t.baseUrl, proofOnly);
    expect((await client.get('/v1/verify/usage')).body.controls).toBe(0);
    for (let i = 0; i < 3; i++) expect((await client.post('/v1/verify', { text, passages })).status).toBe(201);
    const usage = await client.get('/v1/verify/usage');
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({ month: t.clock.now().toISOString().slice(0, 7), controls: 3 });
    const [questions] = await em.execute<{ n: string }[]>(
      `select coalesce(sum(questions), 0) as n from usage_ledger where workspace_id = ?`,
      [ws.workspaceId],
    );
    expect(Number(questions!.n)).toBe(1);
  });

  it('applies the route ceiling of POST /v1/verify', async () => {
    const limited = await startTestApp({ env: { SVC_RATE_VERIFY: '2' } });
    try {
      const tenant = await limited.tenant();
      const client = api(limited.baseUrl, tenant.key);
      expect((await client.post('/v1/verify', { text, passages })).status).toBe(201);
      expect((await client.post('/v1/verify', { text, passages })).status).toBe(201);
      const third = await client.post('/v1/verify', { text, passages });
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ route: 'POST /v1/verify', limitPerMinute: 2 });
      expect((await client.get('/v1/verify/usage')).body.controls).toBe(2);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /v1/verify', () => {
  it('lists newest first, and pages stay stable while new reports arrive', async () => {
    const ws = await t.tenant();
    const client = api(t.baseUrl, ws.key);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await client.post('/v1/verify', { text: `Claim number ${i} is about Acme Corp.`, passages })).body.report.id);
    const first = await client.get('/v1/verify?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.reports.map((r: { id: string }) => r.id)).toEqual([made[4], made[3]]);
    // Two reports arrive between the pages.
    for (let i = 0; i < 2; i++) await client.post('/v1/verify', { text: `A later claim ${i} about Acme Corp.`, passages });
    const second = await client.get(`/v1/verify?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.reports.map((r: { id: string }) => r.id)).toEqual([made[2], made[1]]);
    const third = await client.get(`/v1/verify?limit=2&cursor=${encodeURIComponent(second.body.nextCursor)}`);
    expect(third.body.reports.map((r: { id: string }) => r.id)).toEqual([made[0]]);
    expect(third.body.nextCursor).toBeNull();
    const all = await client.get('/v1/verify?limit=100');
    expect(all.body.reports).toHaveLength(7);
    expect(all.body.reports[6]).toMatchObject({ id: made[0], counts: expect.any(Object), claims: expect.any(Array) });
  });
});

describe('certificate and export', () => {
  it('gives a certificate verifiable offline, chained in the workspace proof chain, signing the report', async () => {
    const ws = await t.tenant();
    const client = api(t.baseUrl, ws.key);
    const one = (await client.post('/v1/verify', { text, passages })).body.report;
    const two = (await client.post('/v1/verify', { text, passages })).body.report;
    const c1 = (await client.get(`/v1/verify/${one.id}/certificate`)).body.certificate;
    const res = await client.get(`/v1/verify/${two.id}/certificate`);
    expect(res.status).toBe(200);
    const c2 = res.body.certificate;
    const key = (await client.get('/v1/gateway/public-key')).body;
    expect(c2.keyId).toBe(key.keyId);
    expect(certificateHolds(c2, key.pem)).toEqual({ hash: true, signature: true });
    expect(certificateHolds({ ...c2, answerHash: sha256Hex('forged') }, key.pem)).toEqual({ hash: false, signature: false });
    expect(c2).toMatchObject({ id: two.certificateId, route: 'POST /v1/verify', seq: c1.seq + 1, prevHash: c1.hash });
    expect(c2.answerHash).toBe(sha256Hex(canonical({ id: two.id, claims: two.claims, counts: two.counts })));
    expect(c2.requestHash).toBe(sha256Hex(canonical({ text, passages })));
    // The proofs module verifies it too.
    expect((await client.get(`/v1/proofs/${c2.id}/verify`)).body).toMatchObject({ valid: true });
  });

  it('exports a PDF, and the machine form with ?format=json', async () => {
    const client = api(t.baseUrl, owner.key);
    const { report } = (await client.post('/v1/verify', { text, passages })).body;
    const pdf = await fetch(`${t.baseUrl}/v1/verify/${report.id}/export`, { headers: { authorization: `Bearer ${owner.key}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);
    const json = await client.get(`/v1/verify/${report.id}/export?format=json`);
    expect(json.status).toBe(200);
    expect(json.body.report).toEqual(report);
    expect(json.body.certificate.id).toBe(report.certificateId);
  });

  it('keeps GET /v1/verify/usage routed to the usage count, not read as a report id', async () => {
    const res = await api(t.baseUrl, owner.key).get('/v1/verify/usage');
    expect(res.status).toBe(200);
    expect(res.body.controls).toBeGreaterThan(0);
  });
});
