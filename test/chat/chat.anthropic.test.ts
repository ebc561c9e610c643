/**
 * The same turn on the Anthropic provider (the scripted server speaks the Messages API too):
 * streaming, tool rounds, masking and metering do not depend on the provider.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server.js';
import { createAgent, persona } from '../support/agents.js';
import { eventsOf, streamChat } from '../support/sse.js';
import { ledgerRows } from '../support/metering.js';

let t: TestApp;
let model: ScriptedModelServer;
let a: TestTenant;
let ada: string;
const runs: unknown[] = [];

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await startTestApp({
    env: { SVC_ANTHROPIC_API_KEY: 'test-key', SVC_ANTHROPIC_BASE_URL: model.anthropicBaseUrl, SVC_ANTHROPIC_MODEL: 'claude-scripted' },
  });
  vi.spyOn(t.app.services.tools, 'toolsFor').mockImplementation(async () => [
    {
      def: { name: 'lookup_invoice', description: 'Find an invoice', parameters: { type: 'object', properties: { email: { type: 'string' } } } },
      run: async (args) => {
        runs.push(args);
        return { success: true, result: { total: 120, owner: 'ann@example.com' } };
      },
    },
  ]);
  a = await t.tenant();
  ada = await createAgent(t, a.key, persona('Ada'));
});
afterAll(async () => {
  await t.close();
  await model.close();
});

it('streams a turn with a tool round on Anthropic, masked on the way out, metered as a whole', async () => {
  model.enqueue(
    { toolCalls: [{ name: 'lookup_invoice', arguments: { email: '[EMAIL_1]' } }], usage: { prompt: 40, completion: 10 } },
    { chunks: ['Invoice of ', '[EMAIL_1]', ': 120 EUR.'], usage: { prompt: 60, completion: 8 } },
  );
  const res = await streamChat(t, a.key, `/v1/agents/${ada}/chat/stream`, { message: 'What does ann@example.com owe?' });
  expect(res.status).toBe(200);
  expect(runs).toEqual([{ email: 'ann@example.com' }]);
  const sent = JSON.stringify(model.requests);
  expect(sent).not.toContain('ann@example.com');
  const [done] = eventsOf(res.events, 'done');
  expect(done!.data).toMatchObject({
    content: 'Invoice of ann@example.com: 120 EUR.',
    masked: true,
    tokenUsage: { promptTokens: 100, completionTokens: 18, totalTokens: 118 },
    toolCalls: [{ toolName: 'lookup_invoice', success: true, durationMs: expect.any(Number) }],
  });
  expect(eventsOf(res.events, 'token').map((e) => e.data.delta).join('')).toBe('Invoice of ann@example.com: 120 EUR.');
  const ledger = await ledgerRows(t, a.workspaceId);
  expect(ledger).toMatchObject({ rows: 1, totalTokens: 118 });
});

it('answers the plain route with the Anthropic model', async () => {
  model.enqueue({ content: 'Bonjour.' });
  const res = await api(t.baseUrl, a.key).post(`/v1/agents/${ada}/chat`, { message: 'Salut', tools: { enabled: false } });
  expect(res.status).toBe(200);
  expect(res.body.content).toBe('Bonjour.');
  expect(model.requests.at(-1)).toMatchObject({ model: 'claude-scripted' });
});
