import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPendingIngestion } from '../../src/modules/knowledge/ingestion.worker.js';
import { MAX_UPLOAD_BYTES } from '../../src/modules/knowledge/knowledge.schemas.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { fixtures, ingest, MIME, upload } from '../support/knowledge.js';
import { persona } from '../support/agents.js';

let t: TestApp;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
  b = await t.tenant();
});
afterAll(() => t.close());

const query = (tenant: TestTenant, body: Record<string, unknown>) => api(t.baseUrl, tenant.key).post('/v1/knowledge/query', body);

describe('POST /v1/knowledge-sources/upload', () => {
  it('answers 202 at once with the source ingesting; the job then makes it ready, consuming no questions', async () => {
    const res = await upload(t, a.key, { bytes: fixtures.text(), filename: 'refunds.txt', type: MIME.text });
    expect(res.status).toBe(202);
    expect(res.body.source).toMatchObject({
      name: 'refunds.txt',
      mimeType: 'text/plain',
      sizeBytes: fixtures.text().length,
      status: 'ingesting',
      error: null,
      collectionId: null,
      userId: a.userId,
      chunkCount: 0,
      ingestedAt: null,
    });
    const id = res.body.source.id;
    expect(await runPendingIngestion(t.app.services)).toBe(1);
    const read = await api(t.baseUrl, a.key).get(`/v1/knowledge-sources/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.source).toMatchObject({ id, status: 'ready', format: 'text', error: null });
    expect(read.body.source.chunkCount).toBeGreaterThan(0);
    expect(read.body.source.ingestedAt).toBe(t.clock.now().toISOString());
    const ledger = await t.app.services.orm.em.fork().execute(`select count(*)::int as n from usage_ledger where workspace_id = ?`, [a.workspaceId]);
    expect(ledger[0].n).toBe(0);
  });

  it('ingests Markdown, HTML, PDF and DOCX, keeping section headings and page numbers', async () => {
    const md = await ingest(t, a, fixtures.markdown(), 'travel.md');
    const html = await ingest(t, a, fixtures.html(), 'onboarding.html');
    const pdf = await ingest(t, a, await fixtures.pdf(), 'prices.pdf');
    const docx = await ingest(t, a, await fixtures.docx(), 'handbook.docx');
    for (const [source, format] of [
      [md, 'markdown'],
      [html, 'html'],
      [pdf, 'pdf'],
      [docx, 'docx'],
    ] as const) {
      expect(source).toMatchObject({ status: 'ready', format, error: null });
      expect(source.chunkCount).toBeGreaterThan(0);
    }
    const hotel = await query(a, { query: 'hotel cap per night', sourceIds: [md.id] });
    expect(hotel.body.results[0]).toMatchObject({ sourceId: md.id, sourceName: 'travel.md', section: expect.stringContaining('Hotels'), page: 1 });
    const vpn = await query(a, { query: 'VPN token', sourceIds: [html.id] });
    expect(vpn.body.results[0]).toMatchObject({ section: expect.stringContaining('Accounts'), page: 1 });
    expect(vpn.body.results.map((r: { text: string }) => r.text).join(' ')).not.toContain('scripts are not text');
    const shipping = await query(a, { query: 'shipping overseas territories', sourceIds: [pdf.id] });
    expect(shipping.body.results[0]).toMatchObject({ section: '2. Delivery', page: 2 });
    const fee = await query(a, { query: 'service fee', sourceIds: [pdf.id] });
    expect(fee.body.results[0]).toMatchObject({ section: '1. Pricing Overview', page: 1 });
    const leave = await query(a, { query: 'annual leave', sourceIds: [docx.id] });
    expect(leave.body.results[0]).toMatchObject({ section: expect.stringContaining('Leave'), page: 1 });
    expect(pdf.factCount).toBeGreaterThan(0);
    expect(docx.factCount).toBeGreaterThan(0);
  });

  it('fails ingestion of an unsupported or unreadable file with a clear reason', async () => {
    const a = await t.tenant();
    const png = await ingest(t, a, fixtures.png(), 'diagram.png');
    expect(png).toMatchObject({ status: 'failed', chunkCount: 0 });
    expect(png.error).toMatch(/unsupported file type: \.png/i);
    const broken = await ingest(t, a, Buffer.from('%PDF-1.7 not really a pdf'), 'broken.pdf');
    expect(broken.status).toBe('failed');
    expect(broken.error).toMatch(/pdf/i);
    const empty = await ingest(t, a, Buffer.alloc(0), 'empty.txt');
    expect(empty).toMatchObject({ status: 'failed', error: expect.stringMatching(/empty/i) });
  });

  it('a display name never changes how the file is read: the format comes from the uploaded file name', async () => {
    // No extension in the display name, a generic MIME type: only the uploaded name says Markdown.
    const res = await upload(t, a.key, { bytes: fixtures.markdown(), filename: 'travel.md', type: 'application/octet-stream' }, { name: 'Travel handbook' });
    expect(res.status).toBe(202);
    expect(res.body.source).toMatchObject({ name: 'Travel handbook', filename: 'travel.md' });
    const id = res.body.source.id;
    // Renamed while ingesting, to a name with a misleading extension.
    expect((await api(t.baseUrl, a.key).put(`/v1/knowledge-sources/${id}`, { name: 'Policy v2.1' })).status).toBe(200);
    await runPendingIngestion(t.app.services);
    const read = await api(t.baseUrl, a.key).get(`/v1/knowledge-sources/${id}`);
    expect(read.body.source).toMatchObject({ name: 'Policy v2.1', filename: 'travel.md', status: 'ready', format: 'markdown', error: null });
    const original = await fetch(`${t.baseUrl}/v1/knowledge-sources/${id}/original`, { headers: { authorization: `Bearer ${a.key}` } });
    expect(original.headers.get('content-disposition')).toBe(`attachment; filename="travel.md"; filename*=UTF-8''travel.md`);
  });

  it('stores the original document and serves it byte for byte', async () => {
    const bytes = await fixtures.pdf();
    const res = await upload(t, a.key, { bytes, filename: 'Prix été.pdf', type: MIME.pdf });
    const id = res.body.source.id;
    const original = await fetch(`${t.baseUrl}/v1/knowledge-sources/${id}/original`, { headers: { authorization: `Bearer ${a.key}` } });
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('application/pdf');
    expect(original.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Prix été.pdf')}`);
    expect(Buffer.from(await original.arrayBuffer()).equals(bytes)).toBe(true);
    const foreign = await api(t.baseUrl, b.key).get(`/v1/knowledge-sources/${id}/original`);
    expect(foreign.status).toBe(404);
  });

  it('400 naming file when the file part is missing or the body is not multipart', async () => {
    const none = await upload(t, a.key, null, { name: 'x' });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/^file is required/);
    expect(none.body.code).toBeUndefined();
    const json = await api(t.baseUrl, a.key).post('/v1/knowledge-sources/upload', { file: 'abc' });
    expect(json.status).toBe(400);
    expect(json.body.error).toContain('file');
    const broken = await fetch(`${t.baseUrl}/v1/knowledge-sources/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated',
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toMatch(/file|multipart/);
  });

  it('400 Collection not found for an unknown or foreign collectionId; a known one files the source', async () => {
    const foreign = await api(t.baseUrl, b.key).post('/v1/knowledge-collections', { name: 'B only' });
    for (const collectionId of ['kcol_missing', foreign.body.collection.id]) {
      const res = await upload(t, a.key, { bytes: fixtures.text(), filename: 'a.txt' }, { collectionId });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Collection not found', field: 'collectionId' });
    }
    const mine = await api(t.baseUrl, a.key).post('/v1/knowledge-collections', { name: 'Policies' });
    const ok = await upload(t, a.key, { bytes: fixtures.text(), filename: 'a.txt' }, { collectionId: mine.body.collection.id, name: 'Refund policy' });
    expect(ok.status).toBe(202);
    expect(ok.body.source).toMatchObject({ collectionId: mine.body.collection.id, name: 'Refund policy' });
  });

  it('accepts a file of exactly 25 MB and refuses one byte more with 413 while streaming', async () => {
    const a = await t.tenant();
    const exact = Buffer.alloc(MAX_UPLOAD_BYTES, 0x61);
    const ok = await upload(t, a.key, { bytes: exact, filename: 'exact.txt' });
    expect(ok.status).toBe(202);
    expect(ok.body.source.sizeBytes).toBe(MAX_UPLOAD_BYTES);
    const over = await upload(t, a.key, { bytes: Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x61), filename: 'over.txt' });
    expect(over.status).toBe(413);
    expect(over.body.error).toMatch(/too large/i);
    expect(over.body.code).toBeUndefined();
    await api(t.baseUrl, a.key).delete(`/v1/knowledge-sources/${ok.body.source.id}`);
  });

  it('refuses before reading the body: a huge upload is cut short, never buffered whole', async () => {
    const a = await t.tenant();
    // A 200 MB body: the 413 arrives once the 26th megabyte streams in, long before the client has sent it all.
    const boundary = 'bnd';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`);
    let sent = 0;
    const piece = Buffer.alloc(1 << 20, 0x62);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(head));
      },
      pull(c) {
        if (sent >= 200) return c.close();
        sent++;
        c.enqueue(new Uint8Array(piece));
      },
    });
    const res = await fetch(`${t.baseUrl}/v1/knowledge-sources/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(200);
    expect((await res.json()).error).toMatch(/too large/i);
  });

  it('429 past 30 uploads a minute in a workspace', async () => {
    const tenant = await t.tenant();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await upload(t, tenant.key, { bytes: fixtures.text(), filename: `n${i}.txt` })).status);
    expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
    expect(statuses[30]).toBe(429);
    t.clock.advance(60_000);
    expect((await upload(t, tenant.key, { bytes: fixtures.text(), filename: 'next-minute.txt' })).status).toBe(202);
  });
});

describe('bad input is a 400 or a 404, never a 500', () => {
  it('NUL characters (which PostgreSQL text cannot hold) in fields, ids and paths', async () => {
    const A = api(t.baseUrl, a.key);
    const nul = 'x\u0000y';
    const col = (await A.post('/v1/knowledge-collections', { name: 'Nul checks' })).body.collection.id;
    const uploads: [Record<string, string>, number, string, string][] = [
      [{ name: nul }, 400, 'name', 'name must not contain NUL characters'],
      [{ collectionId: nul }, 400, 'collectionId', 'Collection not found'],
      [{ collectionId: 'k'.repeat(300) }, 400, 'collectionId', 'Collection not found'],
    ];
    for (const [fields, status, field, error] of uploads) {
      const res = await upload(t, a.key, { bytes: fixtures.text(), filename: 'a.txt' }, fields);
      expect([res.status, res.body]).toEqual([status, { error, field }]);
    }
    const bodies: [string, string, Record<string, unknown>, string][] = [
      ['post', '/v1/knowledge-collections', { name: nul }, 'name'],
      ['post', '/v1/knowledge-collections', { name: 'ok', description: nul }, 'description'],
      ['put', `/v1/knowledge-collections/${col}`, { name: nul }, 'name'],
      ['post', '/v1/knowledge/query', { query: 'refund', agentId: nul }, 'agentId'],
      ['post', '/v1/knowledge/query', { query: 'refund', sourceIds: [nul] }, 'sourceIds.0'],
      ['post', '/v1/knowledge/query', { query: 'refund', collectionIds: [nul] }, 'collectionIds.0'],
    ];
    for (const [method, path, body, field] of bodies) {
      const res = await (method === 'put' ? A.put(path, body) : A.post(path, body));
      expect([path, res.status, res.body.field]).toEqual([path, 400, field]);
    }
    const source = (await upload(t, a.key, { bytes: fixtures.text(), filename: 'a.txt' })).body.source.id;
    const put = await A.put(`/v1/knowledge-sources/${source}`, { collectionId: nul });
    expect([put.status, put.body.error]).toEqual([400, 'Collection not found']);
    expect((await A.put(`/v1/knowledge-sources/${source}`, { name: nul })).status).toBe(400);
    expect((await A.get('/v1/knowledge-sources?collectionId=a%00b')).status).toBe(400);
    for (const path of ['/v1/knowledge-sources/a%00b', '/v1/knowledge-sources/a%00b/original', '/v1/knowledge-collections/a%00b']) {
      expect([path, (await A.get(path)).status]).toEqual([path, 404]);
    }
    expect((await A.delete('/v1/knowledge-sources/a%00b')).status).toBe(404);
    const agent = (await A.post('/v1/agents', persona('Nul'))).body.agent.id;
    expect((await A.post(`/v1/knowledge/agents/${agent}/links`, { sourceId: nul })).status).toBe(400);
    expect((await A.delete(`/v1/knowledge/agents/${agent}/links/a%00b`)).status).toBe(404);
  });
});

describe('sources: list, read, rename, delete', () => {
  it('lists newest first, filters by status and collection, hides other workspaces', async () => {
    const tenant = await t.tenant();
    const one = await ingest(t, tenant, fixtures.text(), 'one.txt');
    const two = await ingest(t, tenant, fixtures.png(), 'two.png');
    const list = await api(t.baseUrl, tenant.key).get('/v1/knowledge-sources');
    expect(list.status).toBe(200);
    expect(list.body.sources.map((s: { id: string }) => s.id)).toEqual([two.id, one.id]);
    const failed = await api(t.baseUrl, tenant.key).get('/v1/knowledge-sources?status=failed');
    expect(failed.body.sources.map((s: { id: string }) => s.id)).toEqual([two.id]);
    const bad = await api(t.baseUrl, tenant.key).get('/v1/knowledge-sources?status=weird');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('status');
    for (const query of ['status=ready&status=failed', 'collectionId=a&collectionId=b']) {
      const repeated = await api(t.baseUrl, tenant.key).get(`/v1/knowledge-sources?${query}`);
      expect([query, repeated.status, repeated.body.field]).toEqual([query, 400, query.split('=')[0]]);
    }
    expect((await api(t.baseUrl, b.key).get(`/v1/knowledge-sources/${one.id}`)).status).toBe(404);
  });

  it('renames, moves between collections, and deletes with its passages', async () => {
    const tenant = await t.tenant();
    const source = await ingest(t, tenant, fixtures.text(), 'refunds.txt');
    const col = await api(t.baseUrl, tenant.key).post('/v1/knowledge-collections', { name: 'Policies' });
    const moved = await api(t.baseUrl, tenant.key).put(`/v1/knowledge-sources/${source.id}`, { name: 'Refunds', collectionId: col.body.collection.id });
    expect(moved.status).toBe(200);
    expect(moved.body.source).toMatchObject({ name: 'Refunds', collectionId: col.body.collection.id });
    const unknown = await api(t.baseUrl, tenant.key).put(`/v1/knowledge-sources/${source.id}`, { collectionId: 'kcol_nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Collection not found');
    const out = await api(t.baseUrl, tenant.key).put(`/v1/knowledge-sources/${source.id}`, { collectionId: null });
    expect(out.body.source.collectionId).toBeNull();
    expect((await api(t.baseUrl, b.key).delete(`/v1/knowledge-sources/${source.id}`)).status).toBe(404);
    expect((await api(t.baseUrl, tenant.key).delete(`/v1/knowledge-sources/${source.id}`)).status).toBe(204);
    expect((await api(t.baseUrl, tenant.key).get(`/v1/knowledge-sources/${source.id}`)).status).toBe(404);
    expect((await api(t.baseUrl, tenant.key).delete(`/v1/knowledge-sources/${source.id}`)).status).toBe(404);
    const found = await query(tenant, { query: 'refunds granted' });
    expect(found.body.results).toEqual([]);
    const chunks = await t.app.services.orm.em.fork().execute(`select count(*)::int as n from knowledge_chunk where source_id = ?`, [source.id]);
    expect(chunks[0].n).toBe(0);
  });
});

describe('access', () => {
  it('scope knowledge: other restricted keys get scope_denied, read-only keys cannot upload or delete', async () => {
    const agentsOnly = await t.key(a, { scopes: ['agents'] });
    const denied = await upload(t, agentsOnly, { bytes: fixtures.text(), filename: 'a.txt' });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('scope_denied');
    expect((await api(t.baseUrl, agentsOnly).get('/v1/knowledge-sources')).body.code).toBe('scope_denied');
    const reader = await t.key(a, { scopes: ['knowledge'], readonly: true });
    const ro = await upload(t, reader, { bytes: fixtures.text(), filename: 'a.txt' });
    expect(ro.status).toBe(403);
    expect(ro.body.code).toBe('read_only_key');
    expect((await api(t.baseUrl, reader).get('/v1/knowledge-sources')).status).toBe(200);
    const knowledgeKey = await t.key(a, { scopes: ['knowledge'] });
    expect((await upload(t, knowledgeKey, { bytes: fixtures.text(), filename: 'a.txt' })).status).toBe(202);
    expect((await upload(t, 'svc_invalid', { bytes: fixtures.text(), filename: 'a.txt' })).status).toBe(401);
  });

  it('402 DOCUMENT_LIMIT once the plan document volume is reached, 402 SUBSCRIPTION_INACTIVE after the trial', async () => {
    const trial = await t.tenant({ plan: 'trial', seats: 1 });
    const em = t.app.services.orm.em.fork();
    const now = t.clock.now();
    for (let i = 0; i < 50; i++) {
      await em.execute(
        `insert into knowledge_source (id, workspace_id, user_id, name, mime_type, size_bytes, sha256, status, created_at, updated_at) values (?, ?, ?, 'x.txt', 'text/plain', 1, '', 'ready', ?, ?)`,
        [`ksrc_fill_${i}`, trial.workspaceId, trial.userId, now, now],
      );
    }
    const res = await upload(t, trial.key, { bytes: fixtures.text(), filename: 'a.txt' });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'DOCUMENT_LIMIT', limit: 50, used: 50 });
    await em.execute(`update workspace set subscription_started_at = ? where id = ?`, [new Date(now.getTime() - 15 * 86_400_000), trial.workspaceId]);
    const expired = await upload(t, trial.key, { bytes: fixtures.text(), filename: 'a.txt' });
    expect(expired.status).toBe(402);
    expect(expired.body.code).toBe('SUBSCRIPTION_INACTIVE');
  });
});
