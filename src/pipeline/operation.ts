import { bucketOf, type Needs, type Operation } from '../core/operation.js';

export type { CeilingName, Needs } from '../core/operation.js';

/**
 * What the pipeline admits one unit of work as (a REST request, a GraphQL root field, an MCP tool call,
 * a flow step): the bucket a ceiling counts in, and the needs. For a declared operation
 * (src/core/operation.ts) it is `targetOf(op)`: its REST route (or name) and its `needs`.
 */
export interface AdmitTarget {
  /** `METHOD /path` of the REST route (or an operation's name): the route-level bucket and the log lines. */
  name: string;
  needs: Needs;
}

/** The pipeline's view of a declared operation: its bucket and its needs. */
export const targetOf = (op: Operation): AdmitTarget => ({ name: bucketOf(op), needs: op.needs });
