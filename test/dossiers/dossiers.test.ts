import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { fixtures, ingest, upload } from '../support/knowledge.js';

let t: TestApp;
let a: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await t.tenant();
});
afterAll(() => t.close());

describe('dossiers', () => {
  it('creates, lists, reads, renames and deletes a dossier over REST', async () => {
    const c = api(t.baseUrl, a.key);
    const created = await c.post('/v1/dossiers', { name: '  Acquisition Kestrel ', clientName: 'Norvale', description: 'Deal 2026' });
    expect(created.status).toBe(201);
    expect(created.body.dossier).toMatchObject({ name: 'Acquisition Kestrel', clientName: 'Norvale', description: 'Deal 2026', sourceCount: 0 });
    const id = created.body.dossier.id as string;
    // A plain collection is not a dossier.
    await c.post('/v1/knowledge-collections', { name: 'Plain' });
    const list = await c.get('/v1/dossiers');
    expect(list.body.dossiers.map((d: { id: string }) => d.id)).toEqual([id]);
    expect((await c.get(`/v1/dossiers/${id}`)).body.dossier.id).toBe(id);
    const patched = await c.patch(`/v1/dossiers/${id}`, { name: 'Kestrel', clientName: '' });
    expect(patched.status).toBe(200);
    expect(patched.body.dossier).toMatchObject({ name: 'Kestrel', clientName: null, description: 'Deal 2026' });
    expect((await c.delete(`/v1/dossiers/${id}`)).status).toBe(204);
    expect((await c.get(`/v1/dossiers/${id}`)).status).toBe(404);
    expect((await c.delete(`/v1/dossiers/${id}`)).status).toBe(404);
  });

  it('takes documents through the upload form field dossierId; a wrong one is a 400', async () => {
    const c = api(t.baseUrl, a.key);
    const id = (await c.post('/v1/dossiers', { name: 'Matter 7' })).body.dossier.id as string;
    const source = await ingest(t, a, fixtures.text(), 'refunds.txt', { dossierId: id });
    expect(source.collectionId).toBe(id);
    expect((await c.get(`/v1/dossiers/${id}`)).body.dossier.sourceCount).toBe(1);
    const query = await c.post('/v1/knowledge/query', { query: 'refunds', collectionIds: [id] });
    expect(query.body.results[0]).toMatchObject({ collectionId: id, dossierName: 'Matter 7' });

    const unknown = await upload(t, a.key, { bytes: fixtures.text(), filename: 'x.txt' }, { dossierId: 'dos_nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Dossier not found' });
    const collection = (await c.post('/v1/knowledge-collections', { name: 'Not a dossier' })).body.collection.id as string;
    const notDossier = await upload(t, a.key, { bytes: fixtures.text(), filename: 'x.txt' }, { dossierId: collection });
    expect(notDossier.status).toBe(400);
    const clash = await upload(t, a.key, { bytes: fixtures.text(), filename: 'x.txt' }, { dossierId: id, collectionId: collection });
    expect(clash.status).toBe(400);
  });

  it('refuses bad input, other workspaces and keys without the knowledge scope', async () => {
    const c = api(t.baseUrl, a.key);
    expect((await c.post('/v1/dossiers', {})).body.error).toBe('name is required');
    expect((await c.post('/v1/dossiers', { name: ' ' })).status).toBe(400);
    expect((await c.post('/v1/dossiers', { name: 'x', clientName: 3 })).status).toBe(400);
    const id = (await c.post('/v1/dossiers', { name: 'Mine' })).body.dossier.id as string;
    expect((await c.patch(`/v1/dossiers/${id}`, { name: '' })).status).toBe(400);
    const b = await t.tenant();
    expect((await api(t.baseUrl, b.key).get(`/v1/dossiers/${id}`)).status).toBe(404);
    const lightOnly = await t.key(a, { scopes: ['light'] });
    const denied = await api(t.baseUrl, lightOnly).get('/v1/dossiers');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'scope_denied', scope: 'knowledge' });
    const readonly = await t.key(a, { scopes: ['knowledge', 'readonly'] });
    expect((await api(t.baseUrl, readonly).get('/v1/dossiers')).status).toBe(200);
    expect((await api(t.baseUrl, readonly).post('/v1/dossiers', { name: 'x' })).body.code).toBe('read_only_key');
  });

  it('has the same CRUD over GraphQL', async () => {
    const c = api(t.baseUrl, a.key);
    const created = await c.graphql(`mutation { createDossier(input: { name: "GQL matter", clientName: "Client X" }) { id name clientName sourceCount } }`);
    expect(created.errors).toBeUndefined();
    const id = created.data.createDossier.id as string;
    const updated = await c.graphql(`mutation($id: ID!) { updateDossier(id: $id, input: { description: "d" }) { description } }`, { id });
    expect(updated.data.updateDossier.description).toBe('d');
    const list = await c.graphql(`{ dossiers { id } dossier(id: "${id}") { name } }`);
    expect(list.data.dossier.name).toBe('GQL matter');
    expect(list.data.dossiers.map((d: { id: string }) => d.id)).toContain(id);
    const deleted = await c.graphql(`mutation($id: ID!) { deleteDossier(id: $id) }`, { id });
    expect(deleted.data.deleteDossier).toBe(true);
    const missing = await c.graphql(`{ dossier(id: "${id}") { id } }`);
    expect(missing.errors![0]!.message).toBe(`Dossier not found: ${id}`);
  });
});
