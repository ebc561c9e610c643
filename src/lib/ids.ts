import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

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
  return `${prefix}_${time}${seq}${randomBytes(8).toString('hex')}`;
}
