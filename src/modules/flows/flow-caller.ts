import type { SystemCaller } from '../../core/principal.js';
import type { Deps } from '../../core/deps.js';
import type { ServiceContext } from '../../core/context.js';
import type { Logger } from '../../lib/logger.js';
import type { CapabilityScope } from '../../core/scopes.js';
import type { RouteRateName } from '../usage/index.js';
import type { User, Workspace } from '../workspaces/index.js';

/** A flow's meter: what its steps consume is in the ledger under `flow:<flowId>`, and its ceilings count under it. */
export const flowMeter = (flowId: string): string => `flow:${flowId}`;

/**
 * The caller a flow acts as (src/core/principal.ts, kind `system`): the service, for the flow's creator
 * in the flow's workspace — a spent allowance refuses a step as it would refuse the creator — with a
 * rate of its own (`SVC_RATE_FLOW` operations per minute, every run of the flow together) and no monthly
 * budget. Its ceilings (agent chat, inbound hooks) count per flow.
 */
export function flowCaller(app: Deps, workspace: Workspace, user: User, task: { flowId: string; runId: string | null }): SystemCaller {
  return {
    kind: 'system',
    workspace,
    user,
    task: { kind: 'flow', ...task },
    limits: {
      meter: flowMeter(task.flowId),
      rates: [{ bucket: `flow:${task.flowId}`, perMinute: app.config.flows.ratePerMinute }],
      monthlyQuestions: null,
    },
    scopes: [],
    restricted: false,
    readonly: false,
  };
}

/** One operation of a flow's step, as the request pipeline admits it (its name is the ceiling's bucket and the log's). */
export interface StepOperation {
  name: string;
  needs: { scope: CapabilityScope; write?: boolean; rateLimit?: RouteRateName };
}

/**
 * The port through which a step opens its request: the request pipeline's admission (rates, ceiling,
 * scope), provided by the composition root. The flows module consumes it and never imports the pipeline.
 */
export type AdmitStep = (app: Deps, caller: SystemCaller, op: StepOperation, opts: { log: Logger; signal: AbortSignal; requestId: string | null }) => Promise<ServiceContext>;
