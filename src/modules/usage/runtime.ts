import type { AppServices } from '../../app/services.js';
import { KeyBudgetCache } from './key-budget-cache.js';

/** Process-wide state of the usage module (kept on AppServices, created on first use). */
export interface UsageRuntime {
  keyBudgets: KeyBudgetCache;
}

export function usageRuntime(app: AppServices): UsageRuntime {
  app.usage ??= { keyBudgets: new KeyBudgetCache() };
  return app.usage;
}
