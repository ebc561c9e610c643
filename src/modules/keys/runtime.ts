import type { Kernel } from '../../core/deps.js';
import { GroupCommit } from '../../lib/group-commit.js';
import { lookupKey, type KeyRecord } from './keys.service.js';

/**
 * Process-wide state of the keys module: key lookups shared between the calls with the same key that
 * arrive together. A call that arrives while a lookup of its key is in flight waits for the next lookup,
 * made after it arrived, so a revocation answered before the call was sent is always seen (no cache).
 * The lookup's row is hydrated once for all the calls that share it (issue 28: hydration was 8% of a
 * gateway call's CPU), and they share its entities.
 */
export interface KeysRuntime {
  readonly lookups: GroupCommit<string, KeyRecord | null>;
}

export function createKeysRuntime(kernel: Kernel): KeysRuntime {
  return {
    lookups: new GroupCommit({
      flush: async (hash, items) => {
        const found = await lookupKey(kernel.orm.em.fork(), hash);
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
