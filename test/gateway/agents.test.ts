import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MODEL_NAME } from '../../src/modules/models/local.provider.js';
import { UsageEntry } from '../../src/modules/usage/usage.entity.js';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { STANDARD_MODEL, anthropicClient, openaiClient, startGateway, verifyOffline, type GatewayHarness } from '../support/gateway.js';

let h: GatewayHarness;
let a: TestTenant;

const persona = (name: string, systemPrompt: string) => ({
  name,
  role: 'Tax adviser',
  personality: 'patient',
  mission: 'Explain tax rules',
  decisionStyle: 'cautious',
  systemPrompt,
});

beforeAll(async () => {
  h = await startGateway({ SVC_RATE_GATEWAY: '1000' });
  a = await h.t.tenant();
  expect((await api(h.t.baseUrl, a.key).post('/v1/agents', persona('Ada Tax', 'ALWAYS-MENTION-FORM-2042'))).status).toBe(201);
  const poste = await api(h.t.baseUrl, a.key).post('/v1/agents', persona('Desk', 'desk'));
  await api(h.t.baseUrl, a.key).put(`/v1/agents/${poste.body.agent.id}`, { personality: '', decisionStyle: '' });
});
afterAll(() => h.close());

const lastModelRequest = () => h.models.requests.at(-1) as { model: string; messages: { role: string; content: string }[] };
const allText = (req: { messages: { content: unknown }[] }) => req.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

describe('agent:<slug> addresses answer as the agent through the chat pipeline', () => {
  it('OpenAI plain: persona in the prompt, earlier messages as history, system as caller instructions, one certificate, metered once', async () => {
    h.models.enqueue({ content: 'Use form 2042.', usage: { prompt: 120, completion: 5 } });
    const { data, response } = await openaiClient(h.t, a.key)
      .chat.completions.create({
        model: 'agent:ada-tax',
        messages: [
          { role: 'system', content: 'Reply in one line.' },
          { role: 'user', content: 'I moved abroad in May.' },
          { role: 'assistant', content: 'Noted, you moved in May.' },
          { role: 'user', content: 'Which form do I file?' },
        ],
      })
      .withResponse();
    expect(data.choices[0].message.content).toBe('Use form 2042.');
    expect(data.model).toBe(STANDARD_MODEL);
    expect(data.usage).toEqual({ prompt_tokens: 120, completion_tokens: 5, total_tokens: 125 });

    const sent = lastModelRequest();
    expect(allText(sent)).toContain('ALWAYS-MENTION-FORM-2042');
    expect(allText(sent)).toContain('Reply in one line.');
    const tail = sent.messages.slice(-3);
    expect(tail).toEqual([
      { role: 'user', content: 'I moved abroad in May.' },
      { role: 'assistant', content: 'Noted, you moved in May.' },
      { role: 'user', content: expect.stringContaining('Which form do I file?') },
    ]);

    const id = response.headers.get('x-svc-proof')!;
    const cert = (await api(h.t.baseUrl, a.key).get(`/v1/proofs/${id}`)).body;
    expect(cert).toMatchObject({ route: 'POST /v1/chat/completions', modelAddress: 'agent:ada-tax', model: STANDARD_MODEL });
    expect(verifyOffline(cert, (await api(h.t.baseUrl, a.key).get('/v1/gateway/public-key')).body)).toEqual({ hashOk: true, pemOk: true, jwkOk: true });

    const entries = await h.t.app.services.orm.em.fork().find(UsageEntry, { workspaceId: a.workspaceId, route: 'POST /v1/chat/completions' });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ modelClass: 'standard', totalTokens: 125 });
    // Stateless: no chat session is written for a gateway call.
    const [{ count }] = await h.t.app.services.orm.em.getConnection().execute('select count(*)::int as count from chat_session where workspace_id = ?', [a.workspaceId]);
    expect(count).toBe(0);
  });

  it('streams token by token on both dialects', async () => {
    h.models.enqueue({ chunks: ['Form ', '2042', '.'] });
    const stream = await openaiClient(h.t, a.key).chat.completions.create({ model: 'agent:ada-tax', messages: [{ role: 'user', content: 'Form?' }], stream: true });
    const pieces: string[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
    expect(pieces).toEqual(['Form ', '2042', '.']);

    h.models.enqueue({ chunks: ['Formulaire ', '2042'] });
    const msg = await anthropicClient(h.t, a.key)
      .messages.stream({ model: 'agent:ada-tax', max_tokens: 300, system: 'En français.', messages: [{ role: 'user', content: 'Quel formulaire ?' }] })
      .finalMessage();
    expect(msg.content).toEqual([{ type: 'text', text: 'Formulaire 2042' }]);
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
  });

  it('agent:<slug>+sensitive answers on the local model: nothing reaches the model server', async () => {
    const before = h.models.requests.length;
    const res = await openaiClient(h.t, a.key).chat.completions.create({ model: 'agent:ada-tax+sensitive', messages: [{ role: 'user', content: 'My salary is private' }] });
    expect(res.model).toBe(LOCAL_MODEL_NAME);
    expect(typeof res.choices[0].message.content).toBe('string');
    expect(h.models.requests.length).toBe(before);
  });

  it('an engine-only key can talk to an agent; a poste has no address (404 model_not_found)', async () => {
    const engine = await h.t.key(a, { scopes: ['engine'] });
    const ok = await openaiClient(h.t, engine).chat.completions.create({ model: 'agent:ada-tax', messages: [{ role: 'user', content: 'Hello' }] });
    expect(ok.choices[0].message.role).toBe('assistant');
    const poste = await api(h.t.baseUrl, a.key).post('/v1/chat/completions', { model: 'agent:desk', messages: [{ role: 'user', content: 'x' }] });
    expect(poste.status).toBe(404);
    expect(poste.body.error.code).toBe('model_not_found');
  });

  it('400 when the last user message has no text; 500 server_error / api_error when the model fails', async () => {
    const empty = await api(h.t.baseUrl, a.key).post('/v1/chat/completions', { model: 'agent:ada-tax', messages: [{ role: 'user', content: '   ' }] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request_error', param: 'messages' });

    h.models.enqueue({ status: 400 });
    const failed = await api(h.t.baseUrl, a.key).post('/v1/chat/completions', { model: 'agent:ada-tax', messages: [{ role: 'user', content: 'x' }] });
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatchObject({ type: 'server_error', code: 'server_error' });

    h.models.enqueue({ status: 400 });
    const failedA = await api(h.t.baseUrl, a.key).post('/v1/messages', { model: 'agent:ada-tax', max_tokens: 100, messages: [{ role: 'user', content: 'x' }] });
    expect(failedA.status).toBe(500);
    expect(failedA.body).toEqual({ type: 'error', error: { type: 'api_error', message: expect.any(String) } });
  });

  it('an agent answer is a chat turn: a plan without chat is refused before any model runs', async () => {
    const basic = await h.t.tenant({ plan: 'essentiel' });
    await api(h.t.baseUrl, basic.key).post('/v1/agents', persona('Ada', 'x'));
    const before = h.models.requests.length;
    const res = await api(h.t.baseUrl, basic.key).post('/v1/chat/completions', { model: 'agent:ada', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('PLAN_UPGRADE_REQUIRED');
    // Plain models stay open to the plan.
    expect((await api(h.t.baseUrl, basic.key).post('/v1/chat/completions', { model: 'svc-auto', messages: [{ role: 'user', content: 'x' }] })).status).toBe(200);
    expect(h.models.requests.length).toBe(before + 1);
  });
});
