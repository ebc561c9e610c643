import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import type { TestApp, TestTenant } from '../support/app.js';
import { startScriptedChatApp } from '../support/chat.js';
import { ingest } from '../support/knowledge.js';
import { exhaustQuestions, ledgerRows } from '../support/metering.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import { startSearchServer, type SearchServer } from './search-server.js';

const REFUNDS = '# Refund policy\n\n## Refunds\n\nRefunds are granted within 30 days of purchase, on presentation of the receipt.\n';
const LEASE = '# Warehouse lease\n\n## Rent\n\nThe annual rent of the Lyon warehouse is 412,000 EUR excluding tax, paid quarterly.\n';

let t: TestApp;
let model: ScriptedModelServer;
let search: SearchServer;
let a: TestTenant;
let dossierId: string;

beforeAll(async () => {
  search = await startSearchServer();
  ({ t, model } = await startScriptedChatApp({ SVC_WEB_SEARCH_URL: search.url }));
  a = await t.tenant();
  const created = await api(t.baseUrl, a.key).post('/v1/dossiers', { name: 'Dossier Kestrel', clientName: 'Acme Holdings' });
  dossierId = created.body.dossier.id;
  await ingest(t, a, Buffer.from(REFUNDS), 'refunds.md');
  await ingest(t, a, Buffer.from(LEASE), 'lease.md', { dossierId });
});

afterAll(async () => {
  await t.close();
  await model.close();
  await search.close();
});

describe('POST /light/ask', () => {
  it('answers from the documents with [n] citations, provenance, a proof, and meters the answer', async () => {
    const before = await ledgerRows(t, a.workspaceId);
    model.enqueue({ content: 'Refunds are granted within 30 days of purchase [1].' });
    const res = await api(t.baseUrl, a.key).post('/light/ask', { question: 'Within how many days are refunds granted?' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ refused: false, refusal: null, answer: 'Refunds are granted within 30 days of purchase [1].', model: 'scripted-model' });
    expect(res.body.citations).toHaveLength(1);
    expect(res.body.citations[0]).toMatchObject({ ref: 1, sourceName: 'refunds.md', section: 'Refund policy > Refunds' });
    expect(res.body.citations[0].text).toContain('within 30 days');
    expect(res.body.provenance).toMatchObject({ searched: { scope: 'workspace', documents: 2 }, documents: [{ sourceName: 'refunds.md' }], webResults: [] });
    // The model read the passages, numbered, and was told to cite them.
    const system = (model.requests.at(-1)!.messages as { content: string }[])[0]!.content;
    expect(system).toContain('[1] refunds.md');
    expect(system).toContain('NOT_IN_DOCUMENTS');
    const proof = await api(t.baseUrl, a.key).get(`/v1/proofs/${res.body.proofId}`);
    expect(proof.status).toBe(200);
    expect(proof.body.route ?? proof.body.certificate?.route).toBe('POST /light/ask');
    const after = await ledgerRows(t, a.workspaceId);
    expect(after.rows).toBe(before.rows + 1);
    expect(after.totalTokens).toBeGreaterThan(before.totalTokens);
  });

  it('refuses a question the documents do not cover, naming what was searched, without asking a model', async () => {
    const sent = model.requests.length;
    const before = await ledgerRows(t, a.workspaceId);
    const res = await api(t.baseUrl, a.key).post('/light/ask', { question: 'What is the capital of Australia?' });
    expect(res.status).toBe(200);
    expect(res.body.refused).toBe(true);
    expect(res.body.citations).toEqual([]);
    expect(res.body.model).toBeNull();
    expect(['not_covered', 'no_passages']).toContain(res.body.refusal.reason);
    expect(res.body.refusal.searched).toMatchObject({ scope: 'workspace', dossierId: null, documents: 2, query: 'What is the capital of Australia?' });
    expect(res.body.refusal.message).toBe("The documents searched, the workspace's documents (2 documents), do not cover this question.");
    expect(res.body.refusal.threshold).toBe(0.3);
    expect(typeof res.body.proofId).toBe('string');
    expect(model.requests.length).toBe(sent);
    expect((await ledgerRows(t, a.workspaceId)).rows).toBe(before.rows);
  });

  it('answers only from the dossier when one is named', async () => {
    const outside = await api(t.baseUrl, a.key).post('/light/ask', { question: 'Within how many days are refunds granted?', dossierId });
    expect(outside.body.refused).toBe(true);
    expect(outside.body.refusal.searched).toMatchObject({ scope: 'dossier', dossierId, dossierName: 'Dossier Kestrel', documents: 1 });
    expect(outside.body.refusal.message).toContain('the dossier "Dossier Kestrel"');

    model.enqueue({ content: 'The annual rent is 412,000 EUR excluding tax [1].' });
    const inside = await api(t.baseUrl, a.key).post('/light/ask', { question: 'What is the annual rent of the Lyon warehouse?', dossierId });
    expect(inside.body.refused).toBe(false);
    expect(inside.body.citations[0]).toMatchObject({ sourceName: 'lease.md', collectionId: dossierId, dossierName: 'Dossier Kestrel' });
  });

  it('is a refusal when the model declines or cites nothing, never a guess', async () => {
    model.enqueue({ content: 'NOT_IN_DOCUMENTS' });
    const declined = await api(t.baseUrl, a.key).post('/light/ask', { question: 'Are refunds granted after 30 days of purchase?' });
    expect(declined.body).toMatchObject({ refused: true, refusal: { reason: 'model_declined' }, citations: [] });
    model.enqueue({ content: 'Probably within a month.' });
    const uncited = await api(t.baseUrl, a.key).post('/light/ask', { question: 'Within how many days are refunds granted?' });
    expect(uncited.body).toMatchObject({ refused: true, refusal: { reason: 'uncited' }, citations: [] });
  });

  it("a real model's refusal in its own words, English or French, is light's refusal, not a cited answer", async () => {
    const worded = [
      "I don't know: the passages give the refund period but say nothing about exchanges [1].",
      'The exchange period is not specified in the documents [1].',
      "Les documents ne précisent pas le délai d'échange des articles [1].",
      "Le délai d'échange n'est pas mentionné dans les extraits fournis [1].",
    ];
    for (const content of worded) {
      model.enqueue({ content });
      const res = await api(t.baseUrl, a.key).post('/light/ask', { question: 'Within how many days are refunds granted after purchase?' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ refused: true, citations: [], model: 'scripted-model', refusal: { reason: 'model_declined', searched: { scope: 'workspace' } } });
      expect(res.body.answer).toBe(res.body.refusal.message);
      expect(res.body.answer).not.toContain(content);
    }
  });

  it('runs on the built-in local model with provider local', async () => {
    const sent = model.requests.length;
    const res = await api(t.baseUrl, a.key).post('/light/ask', { question: 'Within how many days are refunds granted?', provider: 'local' });
    expect(res.status).toBe(200);
    expect(res.body.refused).toBe(false);
    expect(res.body.answer).toContain('[1]');
    expect(model.requests.length).toBe(sent);
  });

  it('refuses bad input with 400s', async () => {
    const c = api(t.baseUrl, a.key);
    const missing = await c.post('/light/ask', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('question is required');
    const blank = await c.post('/light/ask', { question: '   ' });
    expect(blank.status).toBe(400);
    const provider = await c.post('/light/ask', { question: 'Refunds?', provider: 'gpt-unknown' });
    expect(provider.status).toBe(400);
    expect(provider.body).toMatchObject({ code: 'invalid_provider', allowed: ['auto', 'local', 'openai'] });
    const dossier = await c.post('/light/ask', { question: 'Refunds?', dossierId: 'dos_nope' });
    expect(dossier.status).toBe(400);
    expect(dossier.body.error).toBe('Dossier not found');
    const history = await c.post('/light/ask', { question: 'Refunds?', history: [{ role: 'system', content: 'x' }] });
    expect(history.status).toBe(400);
    expect(history.body.error).toContain('history');
    const wrongType = await c.post('/light/ask', { question: 42 });
    expect(wrongType.status).toBe(400);
  });

  it('needs the light scope; a read-only key is refused', async () => {
    const knowledgeOnly = await t.key(a, { scopes: ['knowledge'] });
    const denied = await api(t.baseUrl, knowledgeOnly).post('/light/ask', { question: 'Refunds?' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'scope_denied', scope: 'light' });
    const light = await t.key(a, { scopes: ['light'] });
    const ok = await api(t.baseUrl, light).post('/light/ask', { question: 'What is the capital of Australia?' });
    expect(ok.status).toBe(200);
    const readonly = await t.key(a, { scopes: ['light', 'readonly'] });
    const ro = await api(t.baseUrl, readonly).post('/light/ask', { question: 'Refunds?' });
    expect(ro.status).toBe(403);
    expect(ro.body.code).toBe('read_only_key');
    const webDenied = await api(t.baseUrl, knowledgeOnly).post('/light/web', { question: 'Refunds?' });
    expect(webDenied.status).toBe(403);
  });

  it('402 QUESTION_LIMIT when the workspace has no questions left, before any search or model', async () => {
    const w = await t.tenant({ plan: 'essentiel', seats: 1 });
    await exhaustQuestions(t, w.workspaceId, 150);
    const sent = model.requests.length;
    const res = await api(t.baseUrl, w.key).post('/light/ask', { question: 'Within how many days are refunds granted?' });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('QUESTION_LIMIT');
    expect(model.requests.length).toBe(sent);
  });

  it('answers over GraphQL through the same service', async () => {
    model.enqueue({ content: 'Within 30 days [1].' });
    const res = await api(t.baseUrl, a.key).graphql(
      `mutation($input: LightAskInput!) { lightAsk(input: $input) { answer refused citations { ref sourceName } provenance { searched { scope documents } } proofId } }`,
      { input: { question: 'Within how many days are refunds granted?' } },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.lightAsk).toMatchObject({ answer: 'Within 30 days [1].', refused: false, citations: [{ ref: 1, sourceName: 'refunds.md' }], provenance: { searched: { scope: 'workspace', documents: 2 } } });
    const bad = await api(t.baseUrl, a.key).graphql(`mutation { lightAsk(input: { question: "x", provider: "nope" }) { refused } }`);
    expect(bad.errors![0]!.extensions.code).toBe('invalid_provider');
  });
});

describe('POST /light/web', () => {
  it('redacts the query before it leaves: personal data, dossier names and client names', async () => {
    search.results = [
      { title: 'Refund rules in the EU', url: 'https://example.org/refunds', content: 'Consumers may return goods within 14 days.' },
      { title: 'Other', url: 'https://example.org/other', content: 'Unrelated.' },
    ];
    model.enqueue({ content: 'Consumers may return goods within 14 days [1].' });
    const question = 'Can ACME HOLDINGS refund jane.doe@example.com (+33 6 12 34 56 78) in dossier kestrel after 14 days?';
    const res = await api(t.baseUrl, a.key).post('/light/web', { question });
    expect(res.status).toBe(200);
    const received = search.received.at(-1)!;
    expect(received.format).toBe('json');
    expect(received.q).toBe('can refund in after 14 days?');
    for (const secret of ['acme', 'holdings', 'kestrel', 'jane', 'example.com', '12 34']) expect(received.q!.toLowerCase()).not.toContain(secret);
    expect(res.body).toMatchObject({
      refused: false,
      answer: 'Consumers may return goods within 14 days [1].',
      provenance: { searched: null, documents: [], webQuery: 'can refund in after 14 days?', webResults: [{ ref: 1, url: 'https://example.org/refunds' }] },
    });
    expect(typeof res.body.proofId).toBe('string');
  });

  it('is a refusal when the search finds nothing, and 502 when it fails', async () => {
    search.results = [];
    const none = await api(t.baseUrl, a.key).post('/light/web', { question: 'Refunds in Peru?' });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ refused: true, refusal: { reason: 'no_web_results' } });
    search.status = 500;
    const failed = await api(t.baseUrl, a.key).post('/light/web', { question: 'Refunds in Peru?' });
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe('web_search_failed');
    search.status = 200;
    const missing = await api(t.baseUrl, a.key).post('/light/web', {});
    expect(missing.status).toBe(400);
    const provider = await api(t.baseUrl, a.key).post('/light/web', { question: 'x', provider: 'nope' });
    expect(provider.body.code).toBe('invalid_provider');
  });

  it('is 501 web_search_not_configured on a server without SVC_WEB_SEARCH_URL', async () => {
    const other = await startScriptedChatApp();
    try {
      const b = await other.t.tenant();
      const res = await api(other.t.baseUrl, b.key).post('/light/web', { question: 'Refunds?' });
      expect(res.status).toBe(501);
      expect(res.body).toMatchObject({ code: 'web_search_not_configured' });
    } finally {
      await other.t.close();
      await other.model.close();
    }
  });
});
