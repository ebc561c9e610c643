import type { Kernel } from '../../core/deps.js';
import { GroupCommit } from '../../lib/group-commit.js';
import { lookupKeyRow, type KeyRow } from './keys.service.js';

/**
 * Process-wide state of the keys module: key lookups shared between the calls with the same key that
 * arrive together. A call that arrives while a lookup of its key is in flight waits for the next lookup,
 * made after it arrived, so a revocation answered before the call was sent is always seen (no cache).
 */
export interface KeysRuntime {
  readonly lookups: GroupCommit<string, KeyRow | null>;
}

export function createKeysRuntime(kernel: Kernel): KeysRuntime {
  return {
    lookups: new GroupCommit({
      flush: async (hash, items) => {
        const row = (await lookupKeyRow(kernel.orm.em, hash)) ?? null;
        return items.map(() => row);
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
