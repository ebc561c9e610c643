import type { Kernel } from '../../core/deps.js';
import { GroupCommit } from '../../lib/group-commit.js';
import { KeyBudgetCache } from './key-budget-cache.js';
import { admitBatch, rateAdmitBatch, recordBatch, type PendingAdmission, type PendingConsumption, type PendingRateAdmission } from './metering.service.js';
import { rateTakeBatch, takeBatch, type PendingRateTake, type RateTake } from './rate-limit.service.js';

/**
 * Process-wide state of the usage module, created once by the composition root: the per-key budget
 * cache, and the group commits of the hot path (docs/decisions.md, "One write for many requests"):
 * requests that arrive together share one statement per rate bucket, one admission transaction and one
 * ledger transaction per workspace.
 */
export interface UsageRuntime {
  readonly keyBudgets: KeyBudgetCache;
  /** Rate counting, keyed by bucket, minute and limit: one upsert per batch. */
  readonly rates: GroupCommit<RateTake, boolean>;
  /**
   * A request's rates counted in one statement with the confirmation of a caller made from memory, or several
   * rates at once (`svc_rate_take`), keyed by minute and rate buckets: `true`, the item's 429 or `StaleCaller`.
   */
  readonly rateTakes: GroupCommit<PendingRateTake, true>;
  /** Admissions (question holds), keyed by workspace: the hold id, or the item's 402. */
  readonly admissions: GroupCommit<PendingAdmission, string>;
  /**
   * Admissions with their requests' rates counted in the same statement (`svc_rate_admit`), keyed by
   * workspace, minute and rate buckets: the hold id, the item's 429 or its 402.
   */
  readonly rateAdmissions: GroupCommit<PendingRateAdmission, string>;
  /** Ledger entries, keyed by workspace. */
  readonly ledger: GroupCommit<PendingConsumption, { keyTotal?: number; at: Date }>;
}

export function createUsageRuntime(kernel: Kernel): UsageRuntime {
  return {
    keyBudgets: new KeyBudgetCache(),
    rates: new GroupCommit({ stage: 'rate_count', flush: (_bucket, takes) => takeBatch(kernel, takes) }),
    rateTakes: new GroupCommit({ stage: 'rate_take', flush: (key, items) => rateTakeBatch(kernel, key, items) }),
    admissions: new GroupCommit({ stage: 'admission_write', flush: (workspaceId, items) => admitBatch(kernel, workspaceId, items) }),
    rateAdmissions: new GroupCommit({ stage: 'rate_admission_write', flush: (key, items) => rateAdmitBatch(kernel, key, items) }),
    ledger: new GroupCommit({ stage: 'ledger_write', flush: (workspaceId, items) => recordBatch(kernel, workspaceId, items) }),
  };
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The usage module's process state (per-key budget cache, the hot path's group commits). */
    readonly usage: UsageRuntime;
  }
}
