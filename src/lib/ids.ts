import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * Random bytes drawn 4 KiB at a time from the same CSPRNG as `randomBytes`: one call into it per 512 ids
 * instead of one per id (issue 28: under load, 2.7% of a gateway call's CPU went to the per-id call).
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** `bytes` random bytes (at most 4096) as text, from the pool: ids, and the dialects' completion and message ids. */
export function randomText(bytes: number, encoding: 'hex' | 'base64url' = 'hex'): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return pool.toString(encoding, used - bytes, used);
}

/**
 * Opaque, time-sortable identifiers (`agt_0mhx8k2a1b000f3c9...`): ordering by id agrees with
 * creation order inside a process, which keeps "oldest first" lists stable when timestamps tie.
 */
export function newId(prefix: string): string {
  const ms = Date.now();
  counter = ms === lastMs ? counter + 1 : 0;
  lastMs = ms;
  const time = ms.toString(36).padStart(9, '0');
  const seq = counter.toString(36).padStart(3, '0');
  return `${prefix}_${time}${seq}${randomText(8)}`;
}
