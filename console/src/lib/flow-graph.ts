/**
 * A flow's stored graph (`{ nodes: [{ key, type, config? }], edges: [{ from, to, ... }] }`) to React Flow's
 * nodes and edges and back. Positions are not part of the flow document: nodes are laid out top to
 * bottom in the order of a walk from the triggers, and the editor keeps any moves for the session.
 */
export interface FlowNodeDoc {
  key: string;
  type: string;
  config?: unknown;
  [extra: string]: unknown;
}

export interface FlowEdgeDoc {
  from: string;
  to: string;
  [extra: string]: unknown;
}

export interface FlowGraphDoc {
  nodes: FlowNodeDoc[];
  edges: FlowEdgeDoc[];
}

export interface ViewNode {
  id: string;
  position: { x: number; y: number };
  data: { label: string; doc: FlowNodeDoc };
}

export interface ViewEdge {
  id: string;
  source: string;
  target: string;
  data: { doc: FlowEdgeDoc };
}

const edgeId = (e: FlowEdgeDoc, i: number) => `${e.from}->${e.to}#${i}`;

export function parseGraph(graph: unknown): FlowGraphDoc {
  const g = (graph ?? {}) as Partial<FlowGraphDoc>;
  return { nodes: Array.isArray(g.nodes) ? g.nodes : [], edges: Array.isArray(g.edges) ? g.edges : [] };
}

/** Depth of each node from the nodes nothing points to (breadth first); unreachable ones go last. */
export function layout(doc: FlowGraphDoc): ViewNode[] {
  const targets = new Set(doc.edges.map((e) => e.to));
  const depth = new Map<string, number>();
  const queue = doc.nodes.filter((n) => !targets.has(n.key)).map((n) => n.key);
  for (const k of queue) depth.set(k, 0);
  while (queue.length) {
    const k = queue.shift()!;
    for (const e of doc.edges) {
      if (e.from === k && !depth.has(e.to)) {
        depth.set(e.to, depth.get(k)! + 1);
        queue.push(e.to);
      }
    }
  }
  const maxDepth = Math.max(0, ...depth.values());
  const perRow = new Map<number, number>();
  return doc.nodes.map((n) => {
    const row = depth.get(n.key) ?? maxDepth + 1;
    const col = perRow.get(row) ?? 0;
    perRow.set(row, col + 1);
    return { id: n.key, position: { x: 40 + col * 220, y: 30 + row * 110 }, data: { label: `${n.key} · ${n.type}`, doc: n } };
  });
}

export const toViewEdges = (doc: FlowGraphDoc): ViewEdge[] =>
  doc.edges.map((e, i) => ({ id: edgeId(e, i), source: e.from, target: e.to, data: { doc: e } }));

/** Back to the flow document, keeping every field the editor does not know about. */
export function toGraph(nodes: readonly { id: string; data: { doc: FlowNodeDoc } }[], edges: readonly { source: string; target: string; data?: { doc: FlowEdgeDoc } }[]): FlowGraphDoc {
  return {
    nodes: nodes.map((n) => n.data.doc),
    edges: edges.map((e) => ({ ...(e.data?.doc ?? {}), from: e.source, to: e.target })),
  };
}
