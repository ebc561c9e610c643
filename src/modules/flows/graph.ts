import { GraphProblemCode } from '../../errors/index.js';
import { Cron } from 'croner';
import type { z } from 'zod';
import {
  EDGE_WHEN,
  isOutbound,
  isTrigger,
  NODE_CONFIGS,
  NODE_TYPES,
  PORTABLE_CONFIGS,
  type FlowGraph,
  type FlowNode,
  type NodeType,
  type Problem,
} from './flows.schemas.js';

/**
 * Graph validation (`POST /engine/flows/validate`, and before any graph is stored): every problem is
 * reported at once, each with a code (docs/flows.md, "Validation problems"), never only the first.
 */
export interface ValidateOptions {
  /** A signed-in person allowed outbound nodes without an approval before them. */
  unattendedOutbound?: boolean;
  /** The graph is a portable document's: connections are names (`agent`, `collections`), not ids. */
  portable?: boolean;
}

export const isNodeType = (type: string): type is NodeType => (NODE_TYPES as readonly string[]).includes(type);

export function isValidTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The next due time of a cron expression after `after` in `timezone` (UTC when absent); null when none. */
export function nextDue(cron: string, timezone: string | undefined, after: Date): Date | null {
  return new Cron(cron, { timezone: timezone ?? 'UTC', paused: true }).nextRun(after);
}

function cronProblem(cron: string, timezone: string | undefined): string | null {
  if (timezone !== undefined && !isValidTimezone(timezone)) return `Unknown time zone: ${timezone}`;
  try {
    if (!nextDue(cron, timezone, new Date())) return `The cron expression "${cron}" never falls due`;
    return null;
  } catch (err) {
    return `Invalid cron expression "${cron}": ${(err as Error).message}`;
  }
}

const zodMessage = (err: z.ZodError): string =>
  err.issues
    .map((i) => (i.code === 'unrecognized_keys' ? `unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.join(', ')}` : i.message))
    .join('; ');

export function validateGraph(graph: FlowGraph, opts: ValidateOptions = {}): Problem[] {
  const problems: Problem[] = [];
  const byKey = new Map<string, FlowNode>();
  for (const node of graph.nodes) {
    if (byKey.has(node.key)) {
      problems.push({ code: GraphProblemCode.duplicateKey, message: `The key "${node.key}" is used by more than one node`, nodeKey: node.key });
      continue;
    }
    byKey.set(node.key, node);
    if (!isNodeType(node.type)) {
      problems.push({ code: GraphProblemCode.unknownNodeType, message: `Unknown node type "${node.type}"; known types: ${NODE_TYPES.join(', ')}`, nodeKey: node.key });
      continue;
    }
    const schema = (opts.portable ? PORTABLE_CONFIGS[node.type] : undefined) ?? NODE_CONFIGS[node.type];
    const parsed = schema.safeParse(node.config ?? {});
    if (!parsed.success) {
      problems.push({ code: GraphProblemCode.invalidConfig, message: `${node.type} node "${node.key}": ${zodMessage(parsed.error)}`, nodeKey: node.key });
      continue;
    }
    if (node.type === 'trigger.schedule') {
      const config = parsed.data as { cron: string; timezone?: string };
      const problem = cronProblem(config.cron, config.timezone);
      if (problem) problems.push({ code: GraphProblemCode.badCron, message: problem, nodeKey: node.key });
    }
  }
  if (graph.nodes.length > 0 && !graph.nodes.some((n) => isTrigger(n.type))) {
    problems.push({ code: GraphProblemCode.noTrigger, message: 'The flow has no trigger node: nothing can start it' });
  }
  if (graph.nodes.filter((n) => n.type === 'trigger.schedule').length > 1) {
    problems.push({ code: GraphProblemCode.severalSchedules, message: 'A flow has at most one schedule trigger' });
  }
  const sound: FlowGraph['edges'] = [];
  for (const edge of graph.edges) {
    const label = `Edge ${edge.from} → ${edge.to}`;
    const missing = [edge.from, edge.to].filter((k) => !byKey.has(k));
    if (missing.length > 0) {
      problems.push({ code: GraphProblemCode.danglingEdge, message: `${label} names no node: ${missing.join(', ')}`, nodeKey: byKey.has(edge.from) ? edge.from : undefined });
      continue;
    }
    const to = byKey.get(edge.to)!;
    const from = byKey.get(edge.from)!;
    if (isTrigger(to.type)) {
      problems.push({ code: GraphProblemCode.edgeIntoTrigger, message: `${label} leads into a trigger; triggers only start runs`, nodeKey: to.key });
      continue;
    }
    if (edge.when !== undefined) {
      const allowed = from.type === 'condition' ? ['true', 'false'] : from.type === 'approval' ? ['approved', 'rejected'] : [];
      if (!allowed.includes(edge.when)) {
        problems.push({
          code: GraphProblemCode.badEdgeCondition,
          message: allowed.length
            ? `${label}: "when" must be ${allowed.map((a) => `"${a}"`).join(' or ')} after a ${from.type} node`
            : `${label}: "when" is only for edges leaving a condition or an approval (${EDGE_WHEN.join(', ')})`,
          nodeKey: from.key,
        });
        continue;
      }
    }
    sound.push(edge);
  }
  const cycle = findCycle([...byKey.keys()], sound);
  if (cycle) problems.push({ code: GraphProblemCode.cycle, message: `The graph has a cycle: ${cycle.join(' → ')}`, nodeKey: cycle[0] });
  else if (!opts.unattendedOutbound) {
    for (const key of outboundWithoutApproval(byKey, sound)) {
      problems.push({
        code: GraphProblemCode.outboundWithoutApproval,
        message: `The ${byKey.get(key)!.type} node "${key}" can be reached from a trigger without an approval step before it`,
        nodeKey: key,
      });
    }
  }
  return problems;
}

/** A cycle as a list of keys (first repeated at the end), or null. */
function findCycle(keys: string[], edges: FlowGraph['edges']): string[] | null {
  const next = new Map<string, string[]>(keys.map((k) => [k, []]));
  for (const e of edges) next.get(e.from)!.push(e.to);
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (k: string): string[] | null => {
    state.set(k, 1);
    stack.push(k);
    for (const n of next.get(k)!) {
      if (state.get(n) === 1) return [...stack.slice(stack.indexOf(n)), n];
      if (!state.has(n)) {
        const found = visit(n);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(k, 2);
    return null;
  };
  for (const k of keys) {
    if (!state.has(k)) {
      const found = visit(k);
      if (found) return found;
    }
  }
  return null;
}

/** Outbound nodes reachable from a trigger through nodes that are not approvals. */
function outboundWithoutApproval(byKey: Map<string, FlowNode>, edges: FlowGraph['edges']): string[] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const reached = new Set<string>();
  const queue = [...byKey.values()].filter((n) => isTrigger(n.type)).map((n) => n.key);
  while (queue.length > 0) {
    const k = queue.shift()!;
    if (reached.has(k)) continue;
    reached.add(k);
    if (byKey.get(k)!.type === 'approval') continue;
    queue.push(...(next.get(k) ?? []));
  }
  return [...reached].filter((k) => isOutbound(byKey.get(k)!.type));
}

/** The schedule trigger's settings, if the graph has one. */
export function scheduleOf(graph: FlowGraph): { cron: string; timezone?: string } | null {
  const node = graph.nodes.find((n) => n.type === 'trigger.schedule');
  if (!node) return null;
  const parsed = NODE_CONFIGS['trigger.schedule'].safeParse(node.config ?? {});
  return parsed.success ? parsed.data : null;
}
