import type { Kernel } from '../../core/deps.js';
import { StaleCaller } from '../../core/stale-caller.js';
import { GroupCommit } from '../../lib/group-commit.js';
import { KeyRecords, lookupKeyRow, type KeyRecord, type RememberedKey } from './keys.service.js';

/**
 * Process-wide state of the keys module: key lookups shared between the calls with the same key that
 * arrive together, and each key's last lookup (`KeyRecords`). A call that arrives while a lookup of its key
 * is in flight waits for the next lookup, made after it arrived, so a revocation answered before the call was
 * sent is always seen. The lookup's row is hydrated once for all the calls that share it (issue 28: hydration
 * was 8% of a gateway call's CPU), and they share its entities; the next lookup reuses them while the key's
 * joined row is unchanged. An admitted REST request may skip the lookup and be made from the last one: the
 * statement that counts its rates (or its admission's) confirms the key instead (`authenticateSecret`'s `remembered`).
 */
export interface KeysRuntime {
  readonly lookups: GroupCommit<string, KeyRecord | null>;
  /** Each key's entities, reused while its row is unchanged, and remembered for the REST requests' callers (`KeyRecords`). */
  readonly records: KeyRecords;
}

export function createKeysRuntime(kernel: Kernel): KeysRuntime {
  const records = new KeyRecords();
  return {
    records,
    lookups: new GroupCommit({
      stage: 'key_lookup',
      flush: async (hash, items) => {
        const found = records.resolve(kernel.orm.em, hash, await lookupKeyRow(kernel.orm.em, hash));
        return items.map(() => found);
      },
    }),
  };
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The keys module's process state (shared key lookups). */
    readonly keys: KeysRuntime;
  }
}

/**
 * Confirms a caller made from memory (`authenticateSecret`'s `remembered`) with a lookup, shared as any
 * lookup of its key: `StaleCaller` when the key or an ancestor was revoked, or its key, user or workspace
 * row changed since the lookup it was made from.
 */
export async function confirmRememberedKey(keys: KeysRuntime, remembered: RememberedKey): Promise<void> {
  const found = await keys.lookups.submit(remembered.hash, remembered.hash);
  if (!found || found.revoked || found.fingerprint !== remembered.fingerprint) throw new StaleCaller();
}
