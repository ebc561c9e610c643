import { KeyBudgetCache } from './key-budget-cache.js';

/** Process-wide state of the usage module, created once by the composition root. */
export interface UsageRuntime {
  readonly keyBudgets: KeyBudgetCache;
}

export function createUsageRuntime(): UsageRuntime {
  return { keyBudgets: new KeyBudgetCache() };
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The usage module's process state (per-key budget cache). */
    readonly usage: UsageRuntime;
  }
}
