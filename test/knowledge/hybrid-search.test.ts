import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, listen } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { embedPending } from '../../src/modules/knowledge/embeddings.runtime.js';
import { loadEmbeddingsConfig } from '../../src/modules/knowledge/embeddings.js';
import { reciprocalRankFusion } from '../../src/modules/knowledge/hybrid-search.js';
import { runPendingIngestion } from '../../src/modules/knowledge/ingestion.worker.js';
import { createWorkspace } from '../../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase } from '../support/database.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startEmbeddingsServer, type EmbeddingsServer } from '../support/embeddings-server.js';
import { ingest } from '../support/knowledge.js';

const doc = (lines: string[]) => Buffer.from(lines.join('\n\n'), 'utf8');

const CONCEPTS = {
  refund: ['refund', 'refunds', 'refunded', 'money back', 'reimbursed', 'reimbursement'],
  shipping: ['ship', 'shipping', 'parcel', 'parcels', 'delivery', 'delivered'],
  password: ['password', 'passwords', 'passphrase', 'login secret', 'mot de passe', 'mots de passe'],
  remote: ['télétravail', 'remote work', 'work from home'],
};

let server: EmbeddingsServer;
let t: TestApp;
let a: TestTenant;
let b: TestTenant;
const ids: Record<string, string> = {};

const query = (tenant: TestTenant, body: unknown) => api(t.baseUrl, tenant.key).post('/v1/knowledge/query', body);
const sourceOrder = (res: { body: { results: { sourceId: string }[] } }) => res.body.results.map((r) => r.sourceId);
const count = async (sql: string, params: unknown[] = []) =>
  Number((await t.app.services.orm.em.fork().execute<{ n: string | number }[]>(sql, params))[0]!.n);

beforeAll(async () => {
  server = await startEmbeddingsServer({ concepts: CONCEPTS });
  t = await startTestApp({ env: { SVC_EMBEDDINGS_BASE_URL: server.baseUrl, SVC_EMBEDDINGS_MODEL: 'scripted-embed', SVC_RATE_KNOWLEDGE_QUERY: '1000' } });
  a = await t.tenant();
  b = await t.tenant();
  ids.refunds = (await ingest(t, a, doc(['# Refund policy', 'Customers are reimbursed within 30 days when they ask for it.']), 'refunds.md')).id;
  ids.shipping = (await ingest(t, a, doc(['# Shipping', 'Orders ship within two days. Damaged parcels are replaced.']), 'shipping.md')).id;
  ids.security = (await ingest(t, a, doc(['# Sécurité', 'Les mots de passe expirent après 90 jours.']), 'securite.md')).id;
  ids.other = (await ingest(t, b, doc(['# Policy of B', 'Workspace B gives your money back within 14 days.']), 'b-refunds.md')).id;
});
afterAll(async () => {
  await t?.close();
  await server?.close();
});

describe('hybrid retrieval with an embeddings endpoint', () => {
  it('stores a vector for every passage at ingestion, with the model that made it', async () => {
    const chunks = await count('select count(*) as n from knowledge_chunk');
    expect(chunks).toBeGreaterThanOrEqual(4);
    expect(await count(`select count(*) as n from knowledge_chunk_embedding where model = 'scripted-embed' and dims = ?`, [Object.keys(CONCEPTS).length + 16])).toBe(chunks);
    // The section heading is embedded with the passage text.
    expect(server.requests.flatMap((r) => r.input)).toContain('Refund policy\n\nCustomers are reimbursed within 30 days when they ask for it.');
    expect(server.requests.every((r) => r.model === 'scripted-embed')).toBe(true);
  });

  it('finds a passage that shares no word with the question; similarity is its cosine similarity', async () => {
    const res = await query(a, { query: 'Can I get my money back?' });
    expect(res.status).toBe(200);
    expect(sourceOrder(res)[0]).toBe(ids.refunds);
    const first = res.body.results[0];
    expect(first).toMatchObject({ ref: 1, sourceName: 'refunds.md', section: 'Refund policy', collectionId: null, dossierName: null });
    // Query "money back" = the refund concept plus hashed words; the passage = refund concept plus its own words.
    expect(first.similarity).toBeGreaterThan(0.3);
    expect(first.similarity).toBeLessThanOrEqual(1);
    // The same question in the other workspace finds only its own document.
    expect(sourceOrder(await query(b, { query: 'Can I get my money back?' }))).toEqual([ids.other]);
  });

  it('fuses both rankings: a passage found by both comes first; cross-language concepts match', async () => {
    const res = await query(a, { query: 'password login secret' });
    expect(sourceOrder(res)[0]).toBe(ids.security);
    const parcels = await query(a, { query: 'parcel delivery' });
    expect(sourceOrder(parcels)[0]).toBe(ids.shipping);
    expect(parcels.body.results[0].similarity).toBeGreaterThan(parcels.body.results[1]?.similarity ?? 0);
  });

  it('keeps the scope: sourceIds and collectionIds restrict the vector ranking too', async () => {
    const res = await query(a, { query: 'Can I get my money back?', sourceIds: [ids.shipping, ids.other] });
    expect(res.status).toBe(200);
    expect(sourceOrder(res).every((id) => id === ids.shipping)).toBe(true);
  });

  it('a query in web-search syntax is exact: full text only, the query is not embedded', async () => {
    const before = server.requests.length;
    const res = await query(a, { query: '"money back"' });
    expect(res.body.results).toEqual([]);
    expect(server.requests.length).toBe(before);
  });

  it('when the endpoint fails, the search is full text only and still answers', async () => {
    server.failWith(503);
    try {
      const semantic = await query(a, { query: 'Can I get my money back?' });
      expect(semantic.status).toBe(200);
      expect(semantic.body.results).toEqual([]);
      const lexical = await query(a, { query: 'reimbursed customers' });
      expect(sourceOrder(lexical)).toEqual([ids.refunds]);
      expect(lexical.body.results[0].similarity).toBeLessThan(1);
    } finally {
      server.failWith(null);
    }
  });

  it('passages ingested while the endpoint was down get their vectors from the back-fill', async () => {
    const tenant = await t.tenant();
    server.failWith(500);
    let source: { id: string; status: string };
    try {
      source = await ingest(t, tenant, doc(['# Returns', 'Goods can be refunded when returned unused.']), 'returns.md');
    } finally {
      server.failWith(null);
    }
    expect(source.status).toBe('ready');
    expect(await count(`select count(*) as n from knowledge_chunk_embedding e join knowledge_chunk c on c.id = e.chunk_id where c.source_id = ?`, [source.id])).toBe(0);
    // Found by full text meanwhile.
    expect(sourceOrder(await query(tenant, { query: 'returned goods' }))).toEqual([source.id]);
    expect(await embedPending(t.app.services)).toBeGreaterThanOrEqual(1);
    expect(await embedPending(t.app.services)).toBe(0);
    expect(sourceOrder(await query(tenant, { query: 'Can I get my money back?' }))).toEqual([source.id]);
  });

  it('passages embedded by another model are embedded again by the configured one', async () => {
    const all = await count('select count(*) as n from knowledge_chunk_embedding');
    await t.app.services.orm.em.fork().execute(`update knowledge_chunk_embedding set model = 'older-model' where workspace_id = ?`, [a.workspaceId]);
    // Vectors of another model are never compared with the query's.
    expect((await query(a, { query: 'Can I get my money back?' })).body.results).toEqual([]);
    const inA = await count('select count(*) as n from knowledge_chunk where workspace_id = ?', [a.workspaceId]);
    expect(await embedPending(t.app.services)).toBe(inA);
    expect(await count(`select count(*) as n from knowledge_chunk_embedding where model = 'scripted-embed'`)).toBe(all);
    expect(sourceOrder(await query(a, { query: 'Can I get my money back?' }))[0]).toBe(ids.refunds);
  });
});

describe('the in-process bound', () => {
  it('a scope holding more embedded passages than SVC_EMBEDDINGS_MAX_SCAN is searched by full text only', async () => {
    const logs: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs.push(JSON.parse(String(chunk)) as { level: number; msg: string });
        done();
      },
    });
    const bounded = await startTestApp({
      env: { SVC_EMBEDDINGS_BASE_URL: server.baseUrl, SVC_EMBEDDINGS_MODEL: 'scripted-embed', SVC_EMBEDDINGS_MAX_SCAN: '2' },
      log: pino({ level: 'info' }, sink),
    });
    try {
      // One line at start says what the process does: neither engine here has pgvector.
      expect(logs.filter((l) => l.msg.startsWith('knowledge search:')).map((l) => l.msg)).toEqual([
        'knowledge search: hybrid (full text + vectors); this database has no pgvector, so vectors are ranked in process, at most 2 passages per search (a larger scope is searched by full text only)',
      ]);
      const tenant = await bounded.tenant();
      const q = (body: unknown) => api(bounded.baseUrl, tenant.key).post('/v1/knowledge/query', body);
      const refunds = await ingest(bounded, tenant, doc(['# Refunds', 'Customers are reimbursed within 30 days.']), 'r.md');
      expect((await q({ query: 'money back' })).body.results.map((r: { sourceId: string }) => r.sourceId)).toEqual([refunds.id]);
      await ingest(bounded, tenant, doc(['# Shipping', 'Parcels ship in two days.']), 's.md');
      await ingest(bounded, tenant, doc(['# Hours', 'The desk opens at nine.']), 'h.md');
      expect((await q({ query: 'money back' })).body.results).toEqual([]);
      expect(logs.some((l) => l.level === 40 && l.msg.includes('more passages than the in-process vector bound'))).toBe(true);
      expect((await q({ query: 'reimbursed' })).body.results.map((r: { sourceId: string }) => r.sourceId)).toEqual([refunds.id]);
      // Restricted to one source, the scope is under the bound again.
      expect((await q({ query: 'money back', sourceIds: [refunds.id] })).body.results).toHaveLength(1);
    } finally {
      await bounded.close();
    }
  });
});

describe('the back-fill worker', () => {
  it('embeds at start the passages written before the endpoint was configured', async () => {
    const db = await createTestDatabase();
    const dataDir = db.url ? 'memory://' : mkdtempSync(join(tmpdir(), 'svc-backfill-'));
    const env = { LOG_LEVEL: 'silent', SVC_DEPLOYMENT: 'onprem', SVC_DATA_DIR: dataDir, ...(db.url ? { DATABASE_URL: db.url } : {}) };
    try {
      // First without an endpoint: the document is ingested and searchable by full text only.
      const before = await createApp({ config: loadConfig({ ...env, SVC_BACKGROUND_JOBS: 'off' }) });
      let sourceId: string;
      try {
        const server = await listen(before.http, 0, '127.0.0.1');
        const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const tenant = await createWorkspace({ em: before.services.orm.em.fork(), clock: before.services.clock }, { name: 'W', plan: 'cabinet', seats: 1 });
        const form = new FormData();
        form.append('file', new Blob(['# Refunds\n\nCustomers are reimbursed within 30 days.'], { type: 'text/markdown' }), 'refunds.md');
        const res = await fetch(`${baseUrl}/v1/knowledge-sources/upload`, { method: 'POST', headers: { authorization: `Bearer ${tenant.issued.secret}` }, body: form });
        sourceId = ((await res.json()) as { source: { id: string } }).source.id;
        await runPendingIngestion(before.services);
        server.closeAllConnections();
        server.close();
      } finally {
        await before.close();
      }
      // Then with the endpoint and background jobs on: the worker's first round embeds what is missing.
      const after = await createApp({
        config: loadConfig({ ...env, SVC_BACKGROUND_JOBS: 'on', SVC_EMBEDDINGS_BASE_URL: server.baseUrl, SVC_EMBEDDINGS_MODEL: 'scripted-embed' }),
      });
      try {
        const embedded = () =>
          after.services.orm.em
            .fork()
            .execute<{ n: string | number }[]>(`select count(*) as n from knowledge_chunk_embedding e join knowledge_chunk c on c.id = e.chunk_id where c.source_id = ?`, [sourceId])
            .then((r) => Number(r[0]!.n));
        await expect.poll(embedded, { timeout: 10_000 }).toBeGreaterThan(0);
        expect(server.requests.some((r) => r.input.some((text) => text.includes('reimbursed within 30 days')))).toBe(true);
      } finally {
        await after.close();
      }
    } finally {
      await db.drop();
      if (!db.url) rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('configuration', () => {
  it('SVC_EMBEDDINGS_MODEL is required with SVC_EMBEDDINGS_BASE_URL; empty values mean unset', () => {
    expect(() => loadEmbeddingsConfig({ SVC_EMBEDDINGS_BASE_URL: 'http://127.0.0.1:1/v1' })).toThrow(ZodError);
    expect(loadEmbeddingsConfig({ SVC_EMBEDDINGS_BASE_URL: '', SVC_EMBEDDINGS_MODEL: '' }).baseUrl).toBeNull();
    expect(loadEmbeddingsConfig({}).maxScan).toBe(5_000);
    expect(() => loadEmbeddingsConfig({ SVC_EMBEDDINGS_BASE_URL: 'not a url', SVC_EMBEDDINGS_MODEL: 'm' })).toThrow(ZodError);
  });

  it('a start with an endpoint and no model fails before serving', async () => {
    // On the test app's database when it is PostgreSQL (migrated already: a quick start).
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      SVC_DATA_DIR: 'memory://',
      ...(t.db.url ? { DATABASE_URL: t.db.url } : {}),
      SVC_BACKGROUND_JOBS: 'off',
      SVC_EMBEDDINGS_BASE_URL: server.baseUrl,
    });
    await expect(createApp({ config })).rejects.toThrow(/SVC_EMBEDDINGS_MODEL/);
  });
});

describe('reciprocal rank fusion', () => {
  it('sums 1/(60 + rank) over both lists; ties break on the best single rank, then the full-text order', () => {
    // c: 1/61 + 1/63 beats b: 2/62 (a first and a third place beat two seconds).
    expect(reciprocalRankFusion(['a', 'b', 'c'], ['c', 'b', 'd'])).toEqual(['c', 'b', 'a', 'd']);
    expect(reciprocalRankFusion(['a', 'b'], [])).toEqual(['a', 'b']);
    expect(reciprocalRankFusion([], ['x', 'y'])).toEqual(['x', 'y']);
    expect(reciprocalRankFusion(['a', 'b'], ['b', 'a'])).toEqual(['a', 'b']);
  });
});
