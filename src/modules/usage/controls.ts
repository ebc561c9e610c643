import type { ServiceContext } from '../../core/context.js';
import type { Em } from '../../db/types.js';
import { newId } from '../../lib/ids.js';
import { metrics } from '../../lib/metrics.js';
import { UsageEntry } from './usage.entity.js';

/**
 * Records one control (a verifier report) in the ledger, in the caller's transaction `em`: kind
 * `control`, zero questions, no hold and no check of the key's `monthlyQuestionLimit` (SPEC Limits >
 * Controls). `GET /v1/verify/usage` counts these rows.
 */
export async function recordControl(ctx: ServiceContext, em: Em, opts: { route: string; at: Date }): Promise<void> {
  await em.insert(UsageEntry, {
    id: newId('use'),
    workspaceId: ctx.caller.workspace.id,
    keyId: ctx.caller.limits.meter,
    userId: ctx.caller.user.id,
    kind: 'control',
    route: opts.route,
    modelClass: null,
    model: null,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    questions: 0,
    fromAllowance: 0,
    fromPacks: 0,
    createdAt: opts.at,
  });
  metrics.controlConsumed();
}

/** A control to record with something else in one statement (`controlsInsert`): whose, and under which route. */
export interface PendingControl {
  workspaceId: string;
  keyId: string;
  userId: string;
  route: string;
}

/**
 * The ledger rows of `controls` as `recordControl` writes them (kind `control`, zero tokens and questions), the i-th
 * at `at[i]`: an insert whose parameters are numbered after `offset` others, for a statement that carries it with
 * its own writes (the verifier's report, its certificate and its control in one statement: verify/report-writes.ts).
 * Call `controlsRecorded` once it committed.
 */
export function controlsInsert(controls: readonly PendingControl[], at: readonly Date[], offset: number): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const rows = controls.map((c, i) => {
    const $ = (v: unknown) => `$${offset + params.push(v)}`;
    return `(${$(newId('use'))}, ${$(c.workspaceId)}, ${$(c.keyId)}, ${$(c.userId)}, 'control', ${$(c.route)}, null, null, 0, 0, 0, 0, 0, 0, ${$(at[i])}::timestamptz)`;
  });
  return {
    text: `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, model, prompt_tokens, completion_tokens, total_tokens,
                              questions, from_allowance, from_packs, created_at)
     values ${rows.join(', ')}`,
    params,
  };
}

/** Counts `count` controls recorded by a statement of `controlsInsert` (as `recordControl` counts its own). */
export function controlsRecorded(count: number): void {
  for (let i = 0; i < count; i++) metrics.controlConsumed();
}
