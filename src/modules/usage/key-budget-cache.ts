/**
 * Per-key monthly question totals read from the ledger, kept for about 15 seconds (SPEC's Per-key
 * ceiling allows it). Consumptions recorded by this process update the cached total at once, so
 * the cache only lags behind other processes, never behind this one.
 */
export class KeyBudgetCache {
  private readonly entries = new Map<string, { total: number; at: number }>();

  constructor(readonly ttlMs = 15_000) {}

  get(keyId: string, month: string, nowMs: number): number | undefined {
    const entry = this.entries.get(`${keyId}:${month}`);
    if (!entry || nowMs - entry.at >= this.ttlMs || nowMs < entry.at) return undefined;
    return entry.total;
  }

  set(keyId: string, month: string, total: number, nowMs: number): void {
    if (this.entries.size > 10_000) this.prune(nowMs);
    this.entries.set(`${keyId}:${month}`, { total, at: nowMs });
  }

  private prune(nowMs: number): void {
    for (const [k, e] of this.entries) if (nowMs - e.at >= this.ttlMs) this.entries.delete(k);
  }
}
