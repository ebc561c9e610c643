import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/** Random bytes drawn 4 KiB at a time: one call into the CSPRNG per 512 ids instead of one per id. */
const pool = Buffer.alloc(4096);
let used = pool.length;
function random8(): string {
  if (used + 8 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 8;
  return pool.toString('hex', used - 8, used);
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
  return `${prefix}_${time}${seq}${random8()}`;
}
