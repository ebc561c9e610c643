import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignSlugs, slugify } from '../../src/modules/gateway/slugs.js';
import { classOfModelName, parseAddress } from '../../src/modules/gateway/address.js';
import type { Agent } from '../../src/modules/agents/agent.entity.js';
import { api } from '../support/api.js';
import { type TestTenant } from '../support/app.js';
import { anthropicClient, openaiClient, startGateway, type GatewayHarness } from '../support/gateway.js';
import { persona } from '../support/agents.js';

let h: GatewayHarness;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  h = await startGateway();
  a = await h.t.tenant();
  b = await h.t.tenant();
});
afterAll(() => h.close());

describe('GET /v1/models', () => {
  it('lists agent:<slug> of each conversational agent (unique slugs, oldest first), then svc-auto and svc-sensitive', async () => {
    const ids: string[] = [];
    for (const name of ['Ada', 'Ada', 'Zoë Martin', 'Poste X', '!!!']) {
      const res = await api(h.t.baseUrl, a.key).post('/v1/agents', persona(name));
      expect(res.status).toBe(201);
      ids.push(res.body.agent.id);
      h.t.clock.advance(1000);
    }
    // Agent 4 becomes a poste: it has no address.
    await api(h.t.baseUrl, a.key).put(`/v1/agents/${ids[3]}`, { personality: '', decisionStyle: '' });
    await api(h.t.baseUrl, b.key).post('/v1/agents', persona('Bob'));

    const list = await openaiClient(h.t, a.key).models.list();
    expect(list.data.map((m) => m.id)).toEqual(['agent:ada', 'agent:ada-2', 'agent:zoe-martin', 'agent:agent', 'svc-auto', 'svc-sensitive']);
    for (const m of list.data) expect(m).toMatchObject({ object: 'model', created: expect.any(Number), owned_by: a.workspaceId });

    const raw = await api(h.t.baseUrl, a.key).get('/v1/models');
    expect(raw.status).toBe(200);
    expect(raw.body.object).toBe('list');
    // The Anthropic client reads the same list.
    const viaAnthropic = await anthropicClient(h.t, a.key).models.list();
    expect(viaAnthropic.data.map((m) => m.id)).toContain('agent:zoe-martin');

    const other = await openaiClient(h.t, b.key).models.list();
    expect(other.data.map((m) => m.id)).toEqual(['agent:bob', 'svc-auto', 'svc-sensitive']);
  });

  it('needs the engine scope (native 403) but not write access', async () => {
    const agentsOnly = await h.t.key(a, { scopes: ['agents'] });
    const denied = await api(h.t.baseUrl, agentsOnly).get('/v1/models');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('scope_denied');
    const readOnly = await h.t.key(a, { scopes: ['engine'], readonly: true });
    expect((await api(h.t.baseUrl, readOnly).get('/v1/models')).status).toBe(200);
  });
});

describe('model addresses', () => {
  it('slugs fold accents and punctuation, never come out empty, and de-duplicate by creation order', () => {
    expect(slugify('Zoë  Martin!')).toBe('zoe-martin');
    expect(slugify('***')).toBe('agent');
    const agent = (name: string, extra: Partial<Agent> = {}) => ({ name, personality: 'p', decisionStyle: 'd', ...extra }) as Agent;
    const slugs = assignSlugs([agent('Ada'), agent('Ada 2'), agent('Ada'), agent('Ada'), agent('Post', { personality: '', decisionStyle: '' })]);
    expect(slugs.map((s) => s.slug)).toEqual(['ada', 'ada-2', 'ada-3', 'ada-4']);
  });

  it('parses the reserved and sensitive forms', () => {
    expect(parseAddress('svc-auto')).toEqual({ kind: 'auto', sensitive: false });
    expect(parseAddress('svc-sensitive')).toEqual({ kind: 'auto', sensitive: true });
    expect(parseAddress('agent:Ada+sensitive')).toEqual({ kind: 'agent', slug: 'ada', sensitive: true });
    expect(parseAddress('gpt-4o+sensitive')).toEqual({ kind: 'named', name: 'gpt-4o', sensitive: true });
    expect(() => parseAddress('debate:ada,bob')).toThrow(expect.objectContaining({ status: 501, code: 'address_not_supported' }));
    expect(() => parseAddress('agent:')).toThrow(expect.objectContaining({ status: 404, code: 'model_not_found' }));
  });

  it('classes well-known model names', () => {
    expect(classOfModelName('gpt-4o-mini')).toBe('standard');
    expect(classOfModelName('claude-3-5-sonnet-latest')).toBe('advanced');
    expect(classOfModelName('claude-opus-4-1')).toBe('frontier');
    expect(classOfModelName('llama3.1:70b')).toBe('premium');
    expect(classOfModelName('gpt-4.1-nano')).toBe('light');
    expect(classOfModelName('my-custom-model')).toBeUndefined();
  });
});
