/**
 * Node positions (issue 27): an optional `position: { x, y }` per node, kept with the graph (create, PUT
 * graph), exported and imported with the document, accepted by validate; a document without positions
 * stays valid; a malformed position is a 400 naming its field. The engine never reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';

let t: TestApp;
let tenant: TestTenant;
let c: ReturnType<typeof api>;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.tenant();
  c = api(t.baseUrl, tenant.key);
});
afterAll(async () => t?.close());

const graph = {
  nodes: [
    { key: 'start', type: 'trigger.manual', position: { x: 0, y: 0 } },
    { key: 'ok', type: 'approval', config: { question: 'Go?' }, position: { x: 240.5, y: -120 } },
    { key: 'note', type: 'transform', config: { template: 'done' } },
  ],
  edges: [
    { from: 'start', to: 'ok' },
    { from: 'ok', to: 'note', when: 'approved' },
  ],
};

describe('flow node positions', () => {
  it('are kept by create and PUT graph, exported, validated and imported; a node without one stays without', async () => {
    const created = await c.post('/engine/flows', { name: 'Placed', graph });
    expect(created.status).toBe(201);
    const id = created.body.flow.id;
    expect(created.body.flow.graph.nodes.map((n: { position?: unknown }) => n.position)).toEqual([{ x: 0, y: 0 }, { x: 240.5, y: -120 }, undefined]);

    const moved = graph.nodes.map((n) => (n.key === 'note' ? { ...n, position: { x: 10, y: 400 } } : n));
    const put = await c.put(`/engine/flows/${id}/graph`, { nodes: moved, edges: graph.edges, expectedVersion: 1 });
    expect(put.status).toBe(200);
    const read = await c.get(`/engine/flows/${id}`);
    expect(read.body.flow.graph.nodes.find((n: { key: string }) => n.key === 'note').position).toEqual({ x: 10, y: 400 });

    const doc = (await c.get(`/engine/flows/${id}/export`)).body;
    expect(doc.graph.nodes.map((n: { position?: unknown }) => n.position)).toEqual([{ x: 0, y: 0 }, { x: 240.5, y: -120 }, { x: 10, y: 400 }]);
    expect((await c.post('/engine/flows/validate', doc)).body).toEqual({ valid: true, problems: [] });
    const imported = await c.post('/engine/flows/import', doc);
    expect(imported.status).toBe(201);
    expect((await c.get(`/engine/flows/${imported.body.flow.id}/export`)).body).toEqual(doc);

    // A document of before (no positions) is as valid as ever.
    const plain = { ...doc, graph: { ...doc.graph, nodes: doc.graph.nodes.map(({ position: _p, ...n }: { position?: unknown }) => n) } };
    expect((await c.post('/engine/flows/validate', plain)).body).toEqual({ valid: true, problems: [] });
    expect((await c.post('/engine/flows/import', plain)).status).toBe(201);
  });

  it('a malformed position is a 400 naming its field', async () => {
    const cases: [unknown, string][] = [
      [{ x: '1', y: 2 }, 'graph.nodes.0.position.x'],
      [{ x: 1 }, 'graph.nodes.0.position.y'],
      [{ x: 1, y: 2e7 }, 'graph.nodes.0.position.y'],
      [[1, 2], 'graph.nodes.0.position'],
      [{ x: 1, y: 2, z: 3 }, 'graph.nodes.0.position.z'],
    ];
    for (const [position, field] of cases) {
      const res = await c.post('/engine/flows', { name: 'Bad', graph: { nodes: [{ key: 's', type: 'trigger.manual', position }], edges: [] } });
      expect(res.status, JSON.stringify(position)).toBe(400);
      expect(res.body).toMatchObject({ error: expect.any(String), field });
    }
    const validate = await c.post('/engine/flows/validate', { graph: { nodes: [{ key: 's', type: 'trigger.manual', position: { x: 'left', y: 0 } }], edges: [] } });
    expect(validate.status).toBe(400);
    expect(validate.body.field).toBe('graph.nodes.0.position.x');
  });

  it('over GraphQL: putFlowGraph keeps them and flowExport returns them', async () => {
    const created = await c.post('/engine/flows', { name: 'Placed over GraphQL' });
    const id = created.body.flow.id;
    const put = await c.graphql(`mutation($id: ID!, $input: PutFlowGraphInput!) { putFlowGraph(id: $id, input: $input) { version graph } }`, {
      id,
      input: { nodes: graph.nodes, edges: graph.edges, expectedVersion: 1 },
    });
    expect(put.errors).toBeUndefined();
    expect(put.data.putFlowGraph.graph.nodes[1].position).toEqual({ x: 240.5, y: -120 });
    const exported = await c.graphql(`query($id: ID!) { flowExport(id: $id) }`, { id });
    expect(exported.data.flowExport.graph.nodes[0].position).toEqual({ x: 0, y: 0 });
  });
});
