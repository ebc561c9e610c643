import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../src/modules/people/people.service.js';
import { browser } from '../people/support.js';
import { api } from '../support/api.js';
import type { TestApp, TestTenant } from '../support/app.js';
import { startScriptedChatApp } from '../support/chat.js';
import { runCli } from '../support/cli.js';
import { postgresAvailable } from '../support/database.js';
import { ingest } from '../support/knowledge.js';
import { ledgerRows } from '../support/metering.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';
import { parseSse } from '../support/sse.js';

const CONTRACT = readFileSync(new URL('../fixtures/labelled/corpus/supply-agreement-brightwell.md', import.meta.url));
const CHECKLIST = [
  'Parties to the agreement',
  'Term, start date and renewal',
  'Prices and price revision',
  'Payment terms and late payment interest',
  'Limitation of liability',
  'Termination rights and notice periods',
  'Confidentiality obligations',
  'Governing law and competent court',
];

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let dossierId: string;
let emptyDossier: string;
let agentId: string;

/** The console: a signed-in person of the workspace. */
async function person(tenant: TestTenant, email: string) {
  await createPerson({ em: t.app.services.orm.em.fork(), clock: t.clock }, tenant.workspaceId, { email, password: 'a long enough password', role: 'admin' });
  const b = browser(t.baseUrl, { ip: `10.9.0.${Math.floor(Math.random() * 200) + 1}` });
  expect((await b.signIn(email, 'a long enough password')).status).toBe(200);
  return b;
}

/**
 * The scripted answers of one run, in checklist order: for each control point the test reads what the
 * run will retrieve (the same search, POST /v1/knowledge/query in the dossier) and cites the passage
 * holding `quote` with its number. `null`: the model declines.
 */
async function script(answers: Record<string, { text: string; quote: string } | null>) {
  for (const checkpoint of CHECKLIST) {
    const found = await api(t.baseUrl, a.key).post('/v1/knowledge/query', { query: checkpoint, collectionIds: [dossierId], topK: 5 });
    if (found.body.results.length === 0) continue; // no passage: no model call
    const answer = answers[checkpoint];
    if (!answer) {
      model.enqueue({ content: 'NOT_IN_DOCUMENTS' });
      continue;
    }
    const hit = (found.body.results as { ref: number; text: string }[]).find((r) => r.text.includes(answer.quote));
    if (!hit) throw new Error(`no passage holds "${answer.quote}" for ${checkpoint}`);
    model.enqueue({ content: `${answer.text} [${hit.ref}]` });
  }
}

const ANSWERS = {
  'Payment terms and late payment interest': { text: 'Invoices are paid within 45 days from the invoice date by bank transfer.', quote: 'within 45 days' },
  'Limitation of liability': { text: "Each party's total liability is capped at 100,000 EUR per contract year.", quote: 'capped at 250,000 EUR' },
  'Governing law and competent court': { text: 'The agreement is governed by French law.', quote: 'governed by French law' },
};

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp());
  a = await t.tenant();
  const c = api(t.baseUrl, a.key);
  dossierId = (await c.post('/v1/dossiers', { name: 'Brightwell supply' })).body.dossier.id;
  emptyDossier = (await c.post('/v1/dossiers', { name: 'Empty' })).body.dossier.id;
  await ingest(t, a, CONTRACT, 'supply-agreement.md', { dossierId });
  const b = await person(a, 'installer@example.test');
  const installed = await b.graphql(`mutation { installPoste(key: "contract-review") { key agentId name checklist } }`);
  expect(installed.body.errors, JSON.stringify(installed.body.errors)).toBeUndefined();
  agentId = installed.body.data.installPoste.agentId;
});

afterAll(async () => {
  await t.close();
  await model.close();
});

describe('installing and listing', () => {
  it('installs from the catalogue once (409 the second time), from the console only', async () => {
    const b = await person(a, 'second@example.test');
    const again = await b.graphql(`mutation { installPoste(key: "contract-review") { key } }`);
    expect(again.body.errors![0]!.extensions).toMatchObject({ code: 'poste_already_installed', status: 409 });
    const unknown = await b.graphql(`mutation { installPoste(key: "tax-return") { key } }`);
    expect(unknown.body.errors![0]!.extensions).toMatchObject({ code: 'unknown_poste_template', status: 400 });
    const catalogue = await b.graphql(`{ posteCatalogue { key installed checklist } }`);
    const keys = catalogue.body.data.posteCatalogue.map((p: { key: string }) => p.key);
    expect(keys).toEqual(expect.arrayContaining(['contract-review', 'invoice-check', 'due-diligence-summary', 'policy-compliance']));
    expect(catalogue.body.data.posteCatalogue.find((p: { key: string }) => p.key === 'contract-review').installed).toBe(true);
    // An API key is not the console: never created through the API.
    const byKey = await api(t.baseUrl, a.key).graphql(`mutation { installPoste(key: "invoice-check") { key } }`);
    expect(byKey.errors![0]!.extensions.code).toBe('person_required');
  });

  it('lists the postes under the agents scope; the poste is an agent that cannot be chatted with', async () => {
    const c = api(t.baseUrl, a.key);
    const list = await c.get('/v1/postes');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ postes: [{ key: 'contract-review', agentId, name: 'Contract review', checklist: CHECKLIST }] });
    const agents = await c.get('/v1/agents');
    expect(agents.body.agents.find((x: { id: string }) => x.id === agentId)).toMatchObject({ personality: '', decisionStyle: '', checklist: CHECKLIST });
    const chat = await c.post(`/v1/agents/${agentId}/chat`, { message: 'hello' });
    expect(chat.status).toBe(500);
    expect(chat.body).toEqual({ error: 'Agent chat failed' });
    const lightOnly = await t.key(a, { scopes: ['light'] });
    const denied = await api(t.baseUrl, lightOnly).get('/v1/postes');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'scope_denied', scope: 'agents' });
    const agentsKey = await t.key(a, { scopes: ['agents'] });
    expect((await api(t.baseUrl, agentsKey).get('/v1/postes')).status).toBe(200);
  });
});

describe('POST /v1/postes/:key/run', () => {
  it('answers each control point from the dossier with citations and the verifier result; metered; certified', async () => {
    await script(ANSWERS);
    const before = await ledgerRows(t, a.workspaceId);
    const res = await api(t.baseUrl, a.key).post('/v1/postes/contract-review/run', { dossierId, instructions: 'Focus on money.' });
    expect(res.status).toBe(201);
    const { run } = res.body;
    expect(run).toMatchObject({ posteKey: 'contract-review', dossierId, status: 'completed', proofId: expect.any(String) });
    expect(run.items.map((i: { checkpoint: string }) => i.checkpoint)).toEqual(CHECKLIST);
    const item = (k: string) => run.items.find((i: { checkpoint: string }) => i.checkpoint === k);

    const payment = item('Payment terms and late payment interest');
    expect(payment.verdict).toBe('supported');
    expect(payment.citations[0]).toMatchObject({ sourceName: 'supply-agreement.md', collectionId: dossierId, dossierName: 'Brightwell supply' });
    expect(payment.verification.counts).toEqual({ supported: 1, contradicted: 0, unverifiable: 0 });
    expect(payment.verification.claims[0].evidence[0].quote).toContain('45 days');

    const liability = item('Limitation of liability');
    expect(liability.verdict).toBe('contradicted');
    expect(liability.verification.claims[0]).toMatchObject({ verdict: 'contradicted', rule: 'numbers' });

    expect(item('Governing law and competent court').verdict).toBe('supported');
    const parties = item('Parties to the agreement');
    expect(parties).toEqual({ checkpoint: 'Parties to the agreement', finding: 'Not found in the dossier.', citations: [], verdict: 'not_found', verification: null });

    // The model read the poste's prompt, the run's instructions and the numbered passages.
    const system = (model.requests.at(-1)!.messages as { content: string }[])[0]!.content;
    expect(system).toContain('You review commercial contracts');
    expect(system).toContain('Instructions for this run: Focus on money.');
    expect(system).toMatch(/\[1\] supply-agreement\.md/);

    const after = await ledgerRows(t, a.workspaceId);
    expect(after.rows).toBe(before.rows + 1);
    expect(after.totalTokens).toBe(run.totalTokens + before.totalTokens);
    expect((await api(t.baseUrl, a.key).get(`/v1/proofs/${run.proofId}`)).status).toBe(200);
    const read = await api(t.baseUrl, a.key).get(`/v1/postes/runs/${run.id}`);
    expect(read.body.run).toEqual(run);

    // The run history, newest first, over REST and GraphQL from the same service.
    const history = await api(t.baseUrl, a.key).get(`/v1/postes/runs?posteKey=contract-review&limit=1`);
    expect(history.status).toBe(200);
    expect(history.body.runs).toEqual([run]);
    expect((await api(t.baseUrl, a.key).get(`/v1/postes/runs?dossierId=${dossierId}`)).body.runs.map((r: { id: string }) => r.id)).toContain(run.id);
    expect((await api(t.baseUrl, a.key).get(`/v1/postes/runs?posteKey=invoice-check`)).body.runs).toEqual([]);
    const tooMany = await api(t.baseUrl, a.key).get(`/v1/postes/runs?limit=0`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ error: 'limit must be a whole number from 1 to 100', field: 'limit' });
    const gql = await api(t.baseUrl, a.key).graphql(`{ posteRuns(posteKey: "contract-review", limit: 1) { id status proofId items { checkpoint verdict } } }`);
    expect(gql.data.posteRuns).toEqual([{ id: run.id, status: 'completed', proofId: run.proofId, items: run.items.map((i: { checkpoint: string; verdict: string }) => ({ checkpoint: i.checkpoint, verdict: i.verdict })) }]);
    const badLimit = await api(t.baseUrl, a.key).graphql(`{ posteRuns(limit: 500) { id } }`);
    expect(badLimit.errors![0]!.extensions.code).toBe('validation_failed');
  });

  it('streams progress as SSE when asked', async () => {
    await script(ANSWERS);
    const res = await fetch(`${t.baseUrl}/v1/postes/contract-review/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ dossierId }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseSse(await res.text()).events as unknown as { type: string; data: any }[];
    const types = events.map((e) => e.type as string);
    expect(types).toEqual(['start', ...CHECKLIST.map(() => 'item'), 'done']);
    expect(events[0]!.data).toMatchObject({ posteKey: 'contract-review', dossierId, total: CHECKLIST.length });
    expect((events[4]!.data as { index: number; item: { checkpoint: string } }).item.checkpoint).toBe(CHECKLIST[3]);
    expect((events.at(-1)!.data as { run: { status: string } }).run.status).toBe('completed');
  });

  it('runs over GraphQL through the same service', async () => {
    await script({});
    const res = await api(t.baseUrl, a.key).graphql(
      `mutation($d: String!) { runPoste(key: "contract-review", dossierId: $d) { status items { checkpoint verdict } proofId } }`,
      { d: dossierId },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.runPoste.status).toBe('completed');
    expect(res.data.runPoste.items.every((i: { verdict: string }) => i.verdict === 'not_found')).toBe(true);
  });

  it('refuses bad runs before any model runs', async () => {
    const c = api(t.baseUrl, a.key);
    const sent = model.requests.length;
    const unknown = await c.post('/v1/postes/invoice-check/run', { dossierId });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Poste not found: invoice-check' });
    expect((await c.post('/v1/postes/contract-review/run', {})).body.error).toBe('dossierId is required');
    const wrong = await c.post('/v1/postes/contract-review/run', { dossierId: 'dos_nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('Dossier not found');
    const empty = await c.post('/v1/postes/contract-review/run', { dossierId: emptyDossier });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('dossier_empty');
    expect((await c.post('/v1/postes/contract-review/run', { dossierId, instructions: 7 })).status).toBe(400);
    const lightOnly = await t.key(a, { scopes: ['light'] });
    const denied = await api(t.baseUrl, lightOnly).post('/v1/postes/contract-review/run', { dossierId });
    expect(denied.body).toMatchObject({ code: 'scope_denied', scope: 'agents' });
    const readonly = await t.key(a, { scopes: ['agents', 'readonly'] });
    expect((await api(t.baseUrl, readonly).post('/v1/postes/contract-review/run', { dossierId })).body.code).toBe('read_only_key');
    const b = await t.tenant();
    expect((await api(t.baseUrl, b.key).post('/v1/postes/contract-review/run', { dossierId })).status).toBe(404);
    expect(model.requests.length).toBe(sent);
  });

  it('a model failure fails the run, metered on what ran, and the run is kept as failed', async () => {
    model.enqueue({ status: 500 }, { status: 500 }); // the provider retries once
    const res = await api(t.baseUrl, a.key).post('/v1/postes/contract-review/run', { dossierId });
    expect(res.status).toBe(500);
    const [row] = await t.app.services.orm.em.fork().execute<{ status: string }[]>(`select status from poste_run order by created_at desc, id desc limit 1`);
    expect(row!.status).toBe('failed');
  });
});

const hasPg = await postgresAvailable();

describe.skipIf(!hasPg)('npm run svc -- poste install', () => {
  it('installs from the catalogue and prints JSON; a second install fails', async () => {
    const w = await t.tenant();
    const svc = (...args: string[]) => runCli({ DATABASE_URL: t.db.url }, ...args);
    const printed = (await svc('poste', 'install', w.workspaceId, '--key', 'invoice-check')).json;
    expect(printed).toMatchObject({ poste: { key: 'invoice-check', name: 'Invoice check', agentId: expect.any(String) } });
    expect((await api(t.baseUrl, w.key).get('/v1/postes')).body.postes).toEqual([printed.poste]);
    const again = await svc('poste', 'install', w.workspaceId, '--key', 'invoice-check');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('Poste already installed');
  }, 240_000);
});
