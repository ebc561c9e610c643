/**
 * A flow's stored graph (`{ nodes: [{ key, type, config?, position? }], edges: [{ from, to, ... }] }`) to
 * React Flow's nodes and edges and back. A node's `position` (optional in the flow document) places it;
 * a node without one is laid out top to bottom in the order of a walk from the triggers. Saving writes
 * every node's position, so the graph reopens as it was left.
 */
export interface XY {
  x: number;
  y: number;
}

export interface FlowNodeDoc {
  key: string;
  type: string;
  config?: unknown;
  position?: XY;
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
    const position = storedPosition(n.position) ?? { x: 40 + col * 220, y: 30 + row * 110 };
    return { id: n.key, position, data: { label: `${n.key} · ${n.type}`, doc: n } };
  });
}

/** A stored position the editor can use (finite coordinates), or none. */
function storedPosition(p: unknown): XY | null {
  const { x, y } = (p ?? {}) as Partial<XY>;
  return typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null;
}

export const toViewEdges = (doc: FlowGraphDoc): ViewEdge[] =>
  doc.edges.map((e, i) => ({ id: edgeId(e, i), source: e.from, target: e.to, data: { doc: e } }));

/** Back to the flow document with each node where it sits now (whole canvas units), keeping every field the editor does not know about. */
export function toGraph(
  nodes: readonly { id: string; position: XY; data: { doc: FlowNodeDoc } }[],
  edges: readonly { source: string; target: string; data?: { doc: FlowEdgeDoc } }[],
): FlowGraphDoc {
  return {
    nodes: nodes.map((n) => ({ ...n.data.doc, position: { x: Math.round(n.position.x), y: Math.round(n.position.y) } })),
    edges: edges.map((e) => ({ ...(e.data?.doc ?? {}), from: e.source, to: e.target })),
  };
}
