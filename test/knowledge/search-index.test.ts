/**
 * The search index after an ingestion (docs/performance.md, "Knowledge search: the index's pending list"):
 * the passages an ingestion commits are merged into the GIN index at once, so no search reads them from
 * the index's pending list. `gin_clean_pending_list` returns the pages it merged: 0 means nothing was pending.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushSearchIndex, insertChunks } from '../../src/modules/knowledge/knowledge.repository.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { ingest } from '../support/knowledge.js';

let t: TestApp;
let a: TestTenant;

const pendingPages = () => flushSearchIndex(t.app.services.orm.em.fork());

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
});
afterAll(() => t.close());

describe('the search index after an ingestion', () => {
  it('leaves nothing in the pending list, and the passages are found', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => `## Topic ${i}\n\nThe quorvex allowance number ${i} covers item ${i} of the handbook, reviewed yearly.`);
    const source = await ingest(t, a, Buffer.from(`# Handbook\n\n${lines.join('\n\n')}`, 'utf8'), 'handbook.md');
    expect(source.status).toBe('ready');
    expect(source.chunkCount).toBeGreaterThan(0);
    expect(await pendingPages()).toBe(0);
    const found = await api(t.baseUrl, a.key).post('/v1/knowledge/query', { query: 'quorvex allowance', topK: 3 });
    expect(found.status).toBe(200);
    expect(found.body.results).toHaveLength(3);
  });

  it('rows written past the ingestion (this test inserting them itself) are pending until merged', async () => {
    const em = t.app.services.orm.em.fork();
    const [src] = await em.execute<{ id: string }[]>('select id from knowledge_source where workspace_id = ? limit 1', [a.workspaceId]);
    const chunks = Array.from({ length: 50 }, (_, i) => ({
      id: `kchk_pending_${i}`,
      ordinal: 10_000 + i,
      section: 'Pending',
      page: 1,
      text: `A pending passage about zelmora number ${i}.`,
      tokenEstimate: 10,
    }));
    await insertChunks(em, { workspaceId: a.workspaceId, sourceId: src!.id, createdAt: new Date(), chunks });
    expect(await pendingPages()).toBeGreaterThan(0);
    expect(await pendingPages()).toBe(0);
  });
});
