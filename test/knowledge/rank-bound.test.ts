/**
 * Knowledge search's bounded ranking (issue 28; docs/performance.md, "Knowledge search: bounded ranking"):
 * past SVC_SEARCH_RANK_CANDIDATES matching passages in scope, passages holding two words of the query are
 * ranked first, then passages holding one, up to the bound; under it, every match is ranked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { ingest } from '../support/knowledge.js';

let t: TestApp;
let a: TestTenant;
const ids: Record<string, string> = {};

const sections = (parts: string[]) => Buffer.from(parts.map((p, i) => `# Part ${i + 1}\n\n${p}`).join('\n\n'), 'utf8');

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_SEARCH_RANK_CANDIDATES: '3' } });
  a = await t.tenant();
  ids.many = (
    await ingest(
      t,
      a,
      sections([
        'The zephyr report covers the northern warehouse.',
        'A zephyr audit happened in spring.',
        'Every zephyr form is filed twice.',
        'The zephyr budget was approved.',
        'Zephyr training is mandatory.',
      ]),
      'many.md',
    )
  ).id;
  ids.pair = (await ingest(t, a, sections(['The zephyr quorum met on Tuesday.']), 'pair.md')).id;
  ids.small = (await ingest(t, a, sections(['Zephyr, zephyr and zephyr again.']), 'small.md')).id;
});
afterAll(() => t.close());

const query = (body: unknown) => api(t.baseUrl, a.key).post('/v1/knowledge/query', body);

describe('bounded ranking', () => {
  it('ranks at most the bound, the passages holding two words of the query first', async () => {
    const res = await query({ query: 'zephyr quorum', topK: 3 });
    expect(res.status).toBe(200);
    // seven passages hold "zephyr", one of them "quorum" too: that one and the first two stored of the
    // others are ranked (small.md's passage, which says zephyr three times and which exact ranking puts above them, is not)
    expect(res.body.results.map((r: { sourceId: string }) => r.sourceId)).toEqual([ids.pair, ids.many, ids.many]);
    const exact = await query({ query: 'zephyr quorum', topK: 3, sourceIds: [ids.pair, ids.small] });
    const small = exact.body.results.find((r: { sourceId: string }) => r.sourceId === ids.small);
    expect(small.similarity).toBeGreaterThan(res.body.results[1].similarity);
  });

  it('bounds the passages in scope, not the workspace’s', async () => {
    const res = await query({ query: 'zephyr', topK: 5, sourceIds: [ids.small] });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { sourceId: string }) => r.sourceId)).toEqual([ids.small]);
  });

  it('ranks every match when there are no more than the bound', async () => {
    const res = await query({ query: 'zephyr', topK: 5, sourceIds: [ids.pair, ids.small] });
    expect(res.body.results.map((r: { sourceId: string }) => r.sourceId).sort()).toEqual([ids.pair, ids.small].sort());
  });
});
