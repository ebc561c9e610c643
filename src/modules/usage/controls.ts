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
