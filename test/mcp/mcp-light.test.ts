import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPosteAsOperator } from '../../src/modules/postes/postes.service.js';
import { api } from '../support/api.js';
import type { TestApp, TestTenant } from '../support/app.js';
import { startScriptedChatApp } from '../support/chat.js';
import { ingest } from '../support/knowledge.js';
import type { ScriptedModelServer } from '../support/scripted-model-server.js';

/** The MCP tools of the light and postes families (issue 16) through the official client. */
let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let dossierId: string;
const open: Client[] = [];

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  open.push(client);
  return client;
}
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Record<string, any> };

beforeAll(async () => {
  ({ t, model } = await startScriptedChatApp());
  a = await t.tenant();
  dossierId = (await api(t.baseUrl, a.key).post('/v1/dossiers', { name: 'Brightwell supply' })).body.dossier.id;
  const contract = [
    '# Supply agreement',
    '## Payment',
    'Invoices are paid within 45 days from the invoice date by bank transfer.',
    '## Liability',
    "Each party's total liability is capped at 250,000 EUR per contract year.",
    '## Governing law',
    'This agreement is governed by French law; the courts of Lyon have jurisdiction.',
  ].join('\n\n');
  await ingest(t, a, Buffer.from(contract, 'utf8'), 'supply-agreement.md', { dossierId });
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => {});
  await t?.close();
  await model?.close();
});

describe('service_ask', () => {
  it('answers from the documents with citations and a proof, or refuses, as POST /light/ask does', async () => {
    const client = await connect(await t.key(a, { scopes: ['light'] }));
    model.enqueue({ content: 'Invoices are paid within 45 days by bank transfer [1].' });
    const res = await call(client, 'service_ask', { question: 'Within how many days are invoices paid?', dossierId });
    expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ refused: false, answer: expect.stringContaining('45 days'), proofId: expect.any(String) });
    expect(res.structuredContent!.citations.length).toBeGreaterThan(0);
    // Certified like the REST answer: the proof is readable.
    expect((await api(t.baseUrl, a.key).get(`/v1/proofs/${res.structuredContent!.proofId}`)).status).toBe(200);
    const rest = await api(t.baseUrl, a.key).post('/light/ask', { question: 'What are the symptoms of the flu?' });
    const refused = await call(client, 'service_ask', { question: 'What are the symptoms of the flu?' });
    expect(refused.structuredContent).toMatchObject({ refused: true });
    expect(Object.keys(refused.structuredContent!).sort()).toEqual(Object.keys(rest.body).sort());
    const bad = await call(client, 'service_ask', { question: 'x', provider: 'nobody' });
    expect(bad.isError).toBe(true);
  });
});

describe('poste_run', () => {
  it('runs an installed poste on a dossier: one item per control point, a proof', async () => {
    const installed = await installPosteAsOperator({ em: t.app.services.orm.em.fork(), clock: t.clock }, a.workspaceId, { key: 'contract-review' });
    model.setDefault({ content: 'NOT_IN_DOCUMENTS' });
    const client = await connect(await t.key(a, { scopes: ['agents'] }));
    const res = await call(client, 'poste_run', { key: 'contract-review', dossierId });
    expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
    const run = res.structuredContent!.run;
    expect(run).toMatchObject({ id: expect.any(String), status: expect.any(String), proofId: expect.any(String) });
    expect(run.items.map((i: { checkpoint: string }) => i.checkpoint)).toEqual(installed.checklist);
    expect((await api(t.baseUrl, a.key).get(`/v1/proofs/${run.proofId}`)).status).toBe(200);
    const unknown = await call(client, 'poste_run', { key: 'tax-return', dossierId });
    expect(unknown.isError).toBe(true);
    const noDossier = await call(client, 'poste_run', { key: 'contract-review', dossierId: 'kcol_unknown' });
    expect(noDossier.isError).toBe(true);
    model.setDefault(undefined);
  });
});
