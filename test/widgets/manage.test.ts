/**
 * `/engine/widgets` over real HTTP, and its GraphQL twin: every refusal with its status and code, the
 * `engine` scope and read-only keys, another workspace's widget looking missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { createAgent, makePoste, persona } from '../support/agents.js';
import { createPerson } from '../../src/modules/people/people.service.js';
import { browser } from '../people/support.js';

let t: TestApp;
let a: TestTenant;
let other: TestTenant;
let engine: string;
let scoped: string;
let unscoped: string;
let poste: string;
let dossierId: string;
let collectionId: string;

const valid = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'Help desk',
  family: 'agent',
  agentId: scoped,
  allowedOrigins: ['https://shop.example'],
  monthlyQuestionLimit: 500,
  ipRatePerMinute: 10,
  ...extra,
});

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
  other = await t.tenant({ name: 'Other' });
  engine = await t.key(a, { scopes: ['engine'] });
  const admin = api(t.baseUrl, a.key);
  scoped = await createAgent(t, a.key, persona('Librarian'));
  unscoped = await createAgent(t, a.key, persona('Generalist'));
  poste = await createAgent(t, a.key, persona('Poste'));
  await makePoste(t, a.key, poste);
  const col = (await admin.post('/v1/knowledge-collections', { name: 'Public FAQ' })).body.collection;
  expect((await admin.post(`/v1/knowledge/agents/${scoped}/links`, { collectionId: col.id })).status).toBe(200);
  expect((await admin.post(`/v1/knowledge/agents/${poste}/links`, { collectionId: col.id })).status).toBe(200);
  collectionId = col.id;
  dossierId = (await admin.post('/v1/dossiers', { name: 'Public answers' })).body.dossier.id;
});
afterAll(async () => {
  await t?.close();
});

describe('POST /engine/widgets', () => {
  it('creates an agent widget with a public identifier and normalised origins', async () => {
    const res = await api(t.baseUrl, engine).post(
      '/engine/widgets',
      valid({ allowedOrigins: ['HTTPS://Shop.Example/', 'http://localhost:8080', 'https://shop.example:443'], greeting: ' Hello! ' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.widget).toEqual({
      id: expect.stringMatching(/^wgt_/),
      publicId: expect.stringMatching(/^wgt_pub_[A-Za-z0-9_-]{16}$/),
      name: 'Help desk',
      greeting: 'Hello!',
      family: 'agent',
      agentId: scoped,
      dossierId: null,
      allowedOrigins: ['https://shop.example', 'http://localhost:8080'],
      monthlyQuestionLimit: 500,
      ipRatePerMinute: 10,
      questionsThisMonth: 0,
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
    expect(res.text).not.toContain('svc_');
  });

  it('refuses an agent that reads no chosen documents or dossiers with 400 widget_agent_unscoped', async () => {
    const res = await api(t.baseUrl, engine).post('/engine/widgets', valid({ agentId: unscoped }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'widget_agent_unscoped', field: 'agentId', agentId: unscoped });
    expect(res.body.error).toContain('chosen documents or dossiers');
  });

  it('creates a light widget answering from one dossier', async () => {
    const res = await api(t.baseUrl, engine).post('/engine/widgets', valid({ family: 'light', agentId: undefined, dossierId }));
    expect(res.status).toBe(201);
    expect(res.body.widget).toMatchObject({ family: 'light', agentId: null, dossierId });
  });

  it.each([
    ['name missing', { name: undefined }, 'name', 'name is required'],
    ['name blank', { name: '  ' }, 'name', 'name is required'],
    ['family missing', { family: undefined }, 'family', 'family is required'],
    ['family unknown', { family: 'bot' }, 'family', 'family must be agent or light'],
    ['agentId missing', { agentId: undefined }, 'agentId', 'agentId is required for an agent widget'],
    ['agent unknown', { agentId: 'agt_nobody' }, 'agentId', 'Agent not found: agt_nobody'],
    ['agent of another workspace', { agentId: 'OTHER' }, 'agentId', 'Agent not found'],
    ['agent is a poste', { agentId: 'POSTE' }, 'agentId', 'is a poste'],
    ['light with an agent', { family: 'light', dossierId: 'DOSSIER' }, 'agentId', 'has no agent'],
    ['light without a dossier', { family: 'light', agentId: undefined }, 'dossierId', 'dossierId is required for a light widget'],
    ['light on an unknown dossier', { family: 'light', agentId: undefined, dossierId: 'kcol_nothing' }, 'dossierId', 'Dossier not found'],
    ['light on a collection that is no dossier', { family: 'light', agentId: undefined, dossierId: 'COLLECTION' }, 'dossierId', 'Dossier not found'],
    ['agent with a dossier', { dossierId: 'DOSSIER' }, 'dossierId', 'leave dossierId out'],
    ['no origins', { allowedOrigins: [] }, 'allowedOrigins', 'at least one origin'],
    ['origins missing', { allowedOrigins: undefined }, 'allowedOrigins', 'allowedOrigins is required'],
    ['origin with a path', { allowedOrigins: ['https://shop.example/page'] }, 'allowedOrigins.0', 'is not an origin'],
    ['origin not http', { allowedOrigins: ['ftp://shop.example'] }, 'allowedOrigins.0', 'is not an origin'],
    ['wildcard origin', { allowedOrigins: ['*'] }, 'allowedOrigins.0', 'is not an origin'],
    ['ceiling not whole', { monthlyQuestionLimit: 1.5 }, 'monthlyQuestionLimit', 'monthlyQuestionLimit must be a positive whole number'],
    ['ceiling zero', { monthlyQuestionLimit: 0 }, 'monthlyQuestionLimit', 'monthlyQuestionLimit must be a positive whole number'],
    ['ceiling as text', { monthlyQuestionLimit: '10' }, 'monthlyQuestionLimit', 'monthlyQuestionLimit must be a positive whole number'],
    ['rate zero', { ipRatePerMinute: 0 }, 'ipRatePerMinute', 'ipRatePerMinute must be a positive whole number'],
    ['rate too high', { ipRatePerMinute: 10_001 }, 'ipRatePerMinute', 'ipRatePerMinute must be at most 10000'],
    ['greeting not text', { greeting: 5 }, 'greeting', 'greeting must be a string'],
  ])('400 naming the field: %s', async (_case, change, field, message) => {
    const otherAgent = await createAgent(t, other.key, persona('Elsewhere'));
    const body = valid(change);
    if (body.agentId === 'OTHER') body.agentId = otherAgent;
    if (body.agentId === 'POSTE') body.agentId = poste;
    if (body.dossierId === 'DOSSIER') body.dossierId = dossierId;
    if (body.dossierId === 'COLLECTION') body.dossierId = collectionId;
    const res = await api(t.baseUrl, engine).post('/engine/widgets', body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.error).toContain(message);
    expect(res.body.code).toBeUndefined();
  });

  it('400 for a body that is not an object, and nothing was created by any refusal', async () => {
    const res = await api(t.baseUrl, engine).post('/engine/widgets', '[1]');
    expect(res.status).toBe(400);
    const list = await api(t.baseUrl, other.key).get('/engine/widgets');
    expect(list.body.widgets).toEqual([]);
  });
});

describe('reading, changing and deleting', () => {
  it('lists oldest first, reads one, changes it, deletes it; another workspace sees none of it', async () => {
    const client = api(t.baseUrl, engine);
    const first = (await client.post('/engine/widgets', valid({ name: 'First' }))).body.widget;
    const second = (await client.post('/engine/widgets', valid({ name: 'Second' }))).body.widget;
    const names = (await client.get('/engine/widgets')).body.widgets.map((w: { name: string }) => w.name);
    expect(names.indexOf('First')).toBeLessThan(names.indexOf('Second'));
    expect((await client.get(`/engine/widgets/${first.id}`)).body.widget).toEqual(first);

    t.clock.advance(1000);
    const patched = await client.patch(`/engine/widgets/${first.id}`, {
      name: 'First, renamed',
      allowedOrigins: ['https://blog.example'],
      monthlyQuestionLimit: 20,
      ipRatePerMinute: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.widget).toEqual({
      ...first,
      name: 'First, renamed',
      allowedOrigins: ['https://blog.example'],
      monthlyQuestionLimit: 20,
      updatedAt: t.clock.now().toISOString(),
    });

    const unscopedPatch = await client.patch(`/engine/widgets/${first.id}`, { agentId: unscoped });
    expect(unscopedPatch.status).toBe(400);
    expect(unscopedPatch.body.code).toBe('widget_agent_unscoped');
    expect((await client.patch(`/engine/widgets/${first.id}`, { family: 'light' })).body.field).toBe('dossierId');
    expect((await client.patch(`/engine/widgets/${first.id}`, { allowedOrigins: ['nope'] })).status).toBe(400);
    expect((await client.get(`/engine/widgets/${first.id}`)).body.widget.agentId).toBe(scoped);
    // To the light family and back: each keeps only what it answers with.
    const light = await client.patch(`/engine/widgets/${first.id}`, { family: 'light', dossierId });
    expect(light.body.widget).toMatchObject({ family: 'light', agentId: null, dossierId });
    const back = await client.patch(`/engine/widgets/${first.id}`, { family: 'agent', agentId: scoped });
    expect(back.body.widget).toMatchObject({ family: 'agent', agentId: scoped, dossierId: null });

    const foreign = api(t.baseUrl, other.key);
    expect((await foreign.get(`/engine/widgets/${first.id}`)).status).toBe(404);
    expect((await foreign.patch(`/engine/widgets/${first.id}`, { name: 'x' })).status).toBe(404);
    expect((await foreign.delete(`/engine/widgets/${first.id}`)).status).toBe(404);

    expect((await client.delete(`/engine/widgets/${second.id}`)).status).toBe(204);
    const gone = await client.get(`/engine/widgets/${second.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe(`Widget not found: ${second.id}`);
    expect((await client.patch('/engine/widgets/wgt_nope', { name: 'x' })).status).toBe(404);
    expect((await client.delete('/engine/widgets/wgt_nope')).status).toBe(404);
  });
});

describe('scope engine and read-only keys', () => {
  it('a key without the engine scope is refused every route with 403 scope_denied', async () => {
    const agentsOnly = api(t.baseUrl, await t.key(a, { scopes: ['agents'] }));
    for (const res of [
      await agentsOnly.get('/engine/widgets'),
      await agentsOnly.post('/engine/widgets', valid()),
      await agentsOnly.patch('/engine/widgets/wgt_x', { name: 'x' }),
      await agentsOnly.delete('/engine/widgets/wgt_x'),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'scope_denied', scope: 'engine' });
    }
  });

  it('a read-only engine key reads but cannot create, change or delete (403 read_only_key)', async () => {
    const made = (await api(t.baseUrl, engine).post('/engine/widgets', valid({ name: 'Read me' }))).body.widget;
    const ro = api(t.baseUrl, await t.key(a, { scopes: ['engine'], readonly: true }));
    expect((await ro.get('/engine/widgets')).status).toBe(200);
    expect((await ro.get(`/engine/widgets/${made.id}`)).body.widget.name).toBe('Read me');
    for (const res of [
      await ro.post('/engine/widgets', valid()),
      await ro.patch(`/engine/widgets/${made.id}`, { name: 'x' }),
      await ro.delete(`/engine/widgets/${made.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('read_only_key');
    }
    expect((await ro.get(`/engine/widgets/${made.id}`)).body.widget.name).toBe('Read me');
  });

  it('no key: 401', async () => {
    expect((await api(t.baseUrl).get('/engine/widgets')).status).toBe(401);
  });
});

describe('GraphQL: the same management for the console', () => {
  const FIELDS = 'id publicId name greeting family agentId dossierId allowedOrigins monthlyQuestionLimit ipRatePerMinute questionsThisMonth createdAt updatedAt';

  it('creates, lists, changes and deletes through the same service, with the same refusals', async () => {
    const gql = api(t.baseUrl, engine).graphql;
    const created = await gql(`mutation($i: CreateWidgetInput!) { createWidget(input: $i) { ${FIELDS} } }`, {
      i: valid({ name: 'From the console' }),
    });
    expect(created.errors).toBeUndefined();
    const w = created.data.createWidget;
    expect(w).toMatchObject({ name: 'From the console', family: 'agent', agentId: scoped, questionsThisMonth: 0 });
    expect((await api(t.baseUrl, engine).get(`/engine/widgets/${w.id}`)).body.widget).toEqual(w);

    const listed = await gql(`{ widgets { id } widget(id: "${w.id}") { name } }`);
    expect(listed.data.widgets.map((x: { id: string }) => x.id)).toContain(w.id);
    expect(listed.data.widget.name).toBe('From the console');

    const updated = await gql(`mutation($id: ID!, $i: UpdateWidgetInput!) { updateWidget(id: $id, input: $i) { name ipRatePerMinute } }`, {
      id: w.id,
      i: { name: 'Renamed', ipRatePerMinute: 3 },
    });
    expect(updated.data.updateWidget).toEqual({ name: 'Renamed', ipRatePerMinute: 3 });

    const refused = await gql(`mutation($i: CreateWidgetInput!) { createWidget(input: $i) { id } }`, { i: valid({ agentId: unscoped }) });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'widget_agent_unscoped', status: 400 });
    const light = await gql(`mutation($i: CreateWidgetInput!) { createWidget(input: $i) { family dossierId } }`, {
      i: valid({ family: 'light', agentId: null, dossierId }),
    });
    expect(light.data.createWidget).toEqual({ family: 'light', dossierId });

    expect((await gql(`mutation { deleteWidget(id: "${w.id}") }`)).data.deleteWidget).toBe(true);
    expect((await gql(`{ widget(id: "${w.id}") { id } }`)).errors?.[0].extensions).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('the engine scope and read-only keys are checked on GraphQL too', async () => {
    const agentsOnly = api(t.baseUrl, await t.key(a, { scopes: ['agents'] })).graphql;
    expect((await agentsOnly('{ widgets { id } }')).errors?.[0].extensions).toMatchObject({ code: 'scope_denied' });
    const ro = api(t.baseUrl, await t.key(a, { scopes: ['engine'], readonly: true })).graphql;
    expect((await ro('{ widgets { id } }')).errors).toBeUndefined();
    const res = await ro(`mutation($i: CreateWidgetInput!) { createWidget(input: $i) { id } }`, { i: valid() });
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'read_only_key' });
  });
});

describe('signed-in people (the console)', () => {
  it('a member manages widgets with the session cookie, over REST and GraphQL; a write from another origin is refused', async () => {
    const email = `widgets-${Date.now()}@example.com`;
    await createPerson({ em: t.app.services.orm.em.fork(), clock: t.clock }, a.workspaceId, { email, password: 'correct horse battery', role: 'member' });
    const person = browser(t.baseUrl, { ip: '192.0.2.10' });
    expect((await person.signIn(email, 'correct horse battery')).status).toBe(200);
    const created = await person.post('/engine/widgets', valid({ name: 'By a person' }));
    expect(created.status).toBe(201);
    expect((await person.get('/engine/widgets')).body.widgets.map((w: { name: string }) => w.name)).toContain('By a person');
    const gql = await person.graphql(`mutation($i: CreateWidgetInput!) { createWidget(input: $i) { name } }`, { i: valid({ name: 'Console widget' }) });
    expect(gql.body.data.createWidget).toEqual({ name: 'Console widget' });
    const foreign = browser(t.baseUrl, { ip: '192.0.2.11', origin: 'https://elsewhere.example' });
    await foreign.jar.setCookie(`svc_session=${await person.sessionToken()}`, t.baseUrl);
    const refused = await foreign.post('/engine/widgets', valid());
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('csrf_rejected');
  });
});
