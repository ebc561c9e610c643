/**
 * GraphQL fields added for the console: an agent's console-only lists, uploads as base64, a certificate's
 * verification and its deep link, the events a webhook can subscribe to, a delivery's payload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../src/modules/people/people.service.js';
import { runPendingIngestion } from '../../src/modules/knowledge/ingestion.worker.js';
import { browser, type Browser } from '../people/support.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

let t: TestApp;
let tenant: TestTenant;
let person: Browser;

const gql = async (client: Browser | string, query: string, variables?: Record<string, unknown>) => {
  if (typeof client !== 'string') return (await client.graphql(query, variables)).body;
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
};

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.tenant();
  await createPerson({ em: t.app.services.orm.em.fork(), clock: t.clock }, tenant.workspaceId, {
    email: 'ada@example.com',
    password: 'correct horse battery',
    role: 'member',
  });
  person = browser(t.baseUrl, { ip: '10.9.0.1' });
  expect((await person.signIn('ada@example.com', 'correct horse battery')).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const SET_LISTS = `mutation($id: ID!, $input: AgentConsoleFieldsInput!) {
  updateAgentConsoleFields(id: $id, input: $input) { id expertise outOfScope checklist collectionScope }
}`;

describe('updateAgentConsoleFields', () => {
  it('sets the console-only lists for a signed-in person; REST shows them; omitted lists are kept', async () => {
    const created = await gql(person, `mutation { createAgent(input: { name: "Ada", role: "Tax", personality: "calm", mission: "help", decisionStyle: "careful", systemPrompt: "Be brief." }) { id expertise } }`);
    const id = created.data.createAgent.id;
    expect(created.data.createAgent.expertise).toEqual([]);

    const set = await gql(person, SET_LISTS, { id, input: { expertise: [' VAT ', 'Payroll', 'VAT'], outOfScope: ['Legal advice'], checklist: ['Cite the source'] } });
    expect(set.errors).toBeUndefined();
    expect(set.data.updateAgentConsoleFields).toEqual({ id, expertise: ['VAT', 'Payroll'], outOfScope: ['Legal advice'], checklist: ['Cite the source'], collectionScope: [] });

    const kept = await gql(person, SET_LISTS, { id, input: { checklist: [] } });
    expect(kept.data.updateAgentConsoleFields).toMatchObject({ expertise: ['VAT', 'Payroll'], outOfScope: ['Legal advice'], checklist: [] });

    const rest = await api(t.baseUrl, tenant.key).get('/v1/agents');
    expect(rest.body.agents.find((a: { id: string }) => a.id === id)).toMatchObject({ expertise: ['VAT', 'Payroll'], outOfScope: ['Legal advice'], checklist: [] });
  });

  it('refuses API keys (console only), empty items and unknown agents with catalogue codes', async () => {
    const created = await gql(person, `mutation { createAgent(input: { name: "Bo", role: "r", personality: "p", mission: "m", decisionStyle: "d", systemPrompt: "s" }) { id } }`);
    const id = created.data.createAgent.id;
    const byKey = await gql(tenant.key, SET_LISTS, { id, input: { expertise: ['x'] } });
    expect(byKey.errors[0].extensions.code).toBe('person_required');

    const empty = await gql(person, SET_LISTS, { id, input: { expertise: ['  '] } });
    expect(empty.errors[0]).toMatchObject({ message: 'expertise.0: expertise must not hold empty items', extensions: { code: 'validation_failed' } });

    const missing = await gql(person, SET_LISTS, { id: 'agt_nope', input: { expertise: ['x'] } });
    expect(missing.errors[0].extensions.code).toBe('not_found');
  });
});

const UPLOAD = `mutation($input: UploadKnowledgeSourceInput!) {
  uploadKnowledgeSource(input: $input) { id name filename mimeType sizeBytes status collectionId }
}`;

describe('uploadKnowledgeSource', () => {
  it('stores a base64 document in ingesting state; ingestion makes it ready', async () => {
    const text = 'Refund policy\n\nRefunds are granted within 30 days of purchase.';
    const col = await gql(person, `mutation { createKnowledgeCollection(input: { name: "Policies" }) { id } }`);
    const collectionId = col.data.createKnowledgeCollection.id;
    const res = await gql(person, UPLOAD, {
      input: { filename: 'C:\\docs\\refunds.txt', mimeType: 'text/plain', contentBase64: Buffer.from(text).toString('base64'), collectionId },
    });
    expect(res.errors).toBeUndefined();
    const source = res.data.uploadKnowledgeSource;
    expect(source).toMatchObject({ name: 'refunds.txt', filename: 'refunds.txt', mimeType: 'text/plain', sizeBytes: Buffer.byteLength(text), status: 'ingesting', collectionId });

    await runPendingIngestion(t.app.services);
    const after = await gql(person, `query($id: ID!) { knowledgeSource(id: $id) { status chunkCount } }`, { id: source.id });
    expect(after.data.knowledgeSource.status).toBe('ready');
    expect(after.data.knowledgeSource.chunkCount).toBeGreaterThan(0);

    // The preview's passages: in reading order, the ones search returns among them.
    const passages = (await gql(person, `query($id: ID!) { knowledgePassages(sourceId: $id) { id ordinal section page text } }`, { id: source.id })).data.knowledgePassages;
    expect(passages).toHaveLength(after.data.knowledgeSource.chunkCount);
    expect(passages.map((p: { ordinal: number }) => p.ordinal)).toEqual([...passages.map((p: { ordinal: number }) => p.ordinal)].sort((a, b) => a - b));
    expect(passages.map((p: { text: string }) => p.text).join(' ')).toContain('Refunds are granted within 30 days');
    const found = await gql(person, `query { knowledgeSearch(input: { query: "refunds granted" }) { chunkId sourceId } }`);
    const hit = found.data.knowledgeSearch.find((r: { sourceId: string }) => r.sourceId === source.id);
    expect(passages.map((p: { id: string }) => p.id)).toContain(hit.chunkId);
    expect((await gql(person, `query { knowledgePassages(sourceId: "src_nope") { id } }`)).errors[0].extensions.code).toBe('not_found');
  });

  it('refuses a body that is not base64 and an unknown collection', async () => {
    const bad = await gql(person, UPLOAD, { input: { filename: 'a.txt', contentBase64: 'not base64!' } });
    expect(bad.errors[0]).toMatchObject({ message: 'contentBase64 must be base64', extensions: { code: 'validation_failed' } });
    const unknown = await gql(person, UPLOAD, { input: { filename: 'a.txt', contentBase64: 'aGk=', collectionId: 'kcol_nope' } });
    expect(unknown.errors[0].message).toBe('Collection not found');
  });
});

describe('proofVerification', () => {
  it('checks a certificate of the register and names the first failed check once it is altered', async () => {
    const res = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Hello there' }] }),
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-svc-proof')!;
    const q = `query($id: ID!) { proofVerification(id: $id) { id valid checks { hash signature chain } failedCheck reason } }`;
    expect((await gql(person, q, { id })).data.proofVerification).toEqual({
      id,
      valid: true,
      checks: { hash: true, signature: true, chain: true },
      failedCheck: null,
      reason: null,
    });
    await t.app.services.orm.em.getConnection().execute(`update proof_certificate set answer_hash = 'x' where id = ?`, [id]);
    expect((await gql(person, q, { id })).data.proofVerification).toMatchObject({ valid: false, failedCheck: 'hash' });
    expect((await gql(person, q, { id: 'prf_nope' })).errors[0].extensions.code).toBe('proof_not_found');
  });
});

describe('registreCertificate', () => {
  it('reads one certificate with its kind by id (the console deep link); an unknown id is proof_not_found', async () => {
    const res = await fetch(`${t.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-auto', messages: [{ role: 'user', content: 'Hello again' }] }),
    });
    const id = res.headers.get('x-svc-proof')!;
    const q = `query($id: ID!) { registreCertificate(id: $id) { id kind route model seq } }`;
    const got = (await gql(person, q, { id })).data.registreCertificate;
    expect(got).toMatchObject({ id, kind: 'gateway', route: 'POST /v1/chat/completions' });
    const rest = await api(t.baseUrl, tenant.key).get(`/v1/proofs/${id}`);
    expect(got.seq).toBe(rest.body.seq);
    expect((await gql(person, q, { id: 'prf_nope' })).errors[0].extensions.code).toBe('proof_not_found');
    expect((await gql(person, q, { id: 'a\u0000b' })).errors[0].extensions.code).toBe('proof_not_found');
  });
});

describe('webhookEvents and a delivery payload', () => {
  it('offers the events the service publishes, in words; a delivery shows the exact body sent and the answer', async () => {
    const events = (await gql(person, '{ webhookEvents { name description } }')).data.webhookEvents;
    expect(events.map((e: { name: string }) => e.name)).toEqual([
      'source.ingested',
      'source.failed',
      'knowledge.contradiction_detected',
      'knowledge.stale',
      'debate.synthesized',
      'flow.run.finished',
      'flow.approval.requested',
    ]);
    expect(events.every((e: { description: string }) => e.description.length > 10)).toBe(true);

    const receiver = await startWebhookReceiver();
    try {
      receiver.behave('/p', [{ kind: 'status', status: 418, body: 'short and stout' }]);
      const created = await gql(person, `mutation($url: String!) { createWebhook(input: { url: $url, events: ["source.ingested"] }) { webhook { id } } }`, { url: receiver.url('/p') });
      const webhookId = created.data.createWebhook.webhook.id;
      expect((await gql(person, `mutation($id: ID!) { testWebhook(id: $id) { statusCode } }`, { id: webhookId })).data.testWebhook.statusCode).toBe(418);
      const list = await gql(person, `query($id: ID!) { webhookDeliveries(webhookId: $id) { id payload responseBody statusCode } webhooks { id deliveries { id payload } } }`, { id: webhookId });
      const [delivery] = list.data.webhookDeliveries;
      expect(delivery.payload).toBe(receiver.requestsTo('/p')[0].body);
      expect(JSON.parse(delivery.payload)).toMatchObject({ event: 'webhook.test' });
      expect(delivery.responseBody).toBe('short and stout');
      expect(list.data.webhooks.find((w: { id: string }) => w.id === webhookId).deliveries[0].payload).toBe(delivery.payload);
    } finally {
      await receiver.close();
    }
  });
});
