import type { Em } from '../../db/types.js';
import { errors } from '../../errors/index.js';
import { sha256Hex } from '../../lib/secrets.js';

/**
 * Failed sign-ins (and, below, password-reset requests and failed link confirmations), counted in
 * PostgreSQL (table `sign_in_throttle`) so every process shares them: per account (the SHA-256 of the
 * lower-cased e-mail, whether or not such an account exists, so the throttle tells nothing either) and
 * per client address. A bucket that reached its limit refuses
 * every attempt, right password or not, until its window ends: 429 rate_limited with retry-after.
 * A successful sign-in clears its account's bucket. docs/people.md gives the figures.
 */
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_FAILURE_LIMIT = 5;
export const ADDRESS_FAILURE_LIMIT = 50;

export interface ThrottleBuckets {
  account: string;
  address: string;
}

export const throttleBuckets = (email: string, ip: string | undefined): ThrottleBuckets => ({
  account: `account:${sha256Hex(email.trim().toLowerCase())}`,
  address: `address:${ip ?? 'unknown'}`,
});

/** 429 when either bucket is full within its window. */
export async function assertNotThrottled(em: Em, now: Date, b: ThrottleBuckets): Promise<void> {
  const rows = await em.execute<{ bucket: string; failures: number; window_start: Date | string }[]>(
    'select bucket, failures, window_start from sign_in_throttle where bucket in (?, ?) and window_start > ?',
    [b.account, b.address, new Date(now.getTime() - THROTTLE_WINDOW_MS)],
  );
  let waitMs = 0;
  for (const r of rows) {
    const limit = r.bucket === b.account ? ACCOUNT_FAILURE_LIMIT : ADDRESS_FAILURE_LIMIT;
    if (Number(r.failures) >= limit) waitMs = Math.max(waitMs, new Date(r.window_start).getTime() + THROTTLE_WINDOW_MS - now.getTime());
  }
  if (waitMs > 0) throw errors.rateLimited(Math.max(1, Math.ceil(waitMs / 1000)));
}

/** Counts one failure in both buckets (a window over starts again at one). */
export async function recordFailure(em: Em, now: Date, b: ThrottleBuckets): Promise<void> {
  for (const bucket of [b.account, b.address]) await countIn(em, now, bucket);
}

export async function clearAccount(em: Em, b: ThrottleBuckets): Promise<void> {
  await em.execute('delete from sign_in_throttle where bucket = ?', [b.account]);
}

/** Reset requests: per address, and per e-mail (no flooding one mailbox), known or not. */
export const RESET_REQUEST_LIMITS = { address: 20, account: 5 } as const;
/** Invitation and reset confirmations with a wrong, used or expired token, per address. */
export const LINK_FAILURE_LIMIT = 50;

/**
 * Counts one attempt in a bucket of the same table and window, and refuses it (429 rate_limited, not
 * counted) when the bucket already holds `limit`.
 */
export async function takeAttempt(em: Em, now: Date, bucket: string, limit: number): Promise<void> {
  await assertBucketRoom(em, now, bucket, limit);
  await countIn(em, now, bucket);
}

/** 429 when `bucket` holds `limit` attempts in its window. */
export async function assertBucketRoom(em: Em, now: Date, bucket: string, limit: number): Promise<void> {
  const [row] = await em.execute<{ failures: number; window_start: Date | string }[]>(
    'select failures, window_start from sign_in_throttle where bucket = ? and window_start > ?',
    [bucket, new Date(now.getTime() - THROTTLE_WINDOW_MS)],
  );
  if (row && Number(row.failures) >= limit) {
    const waitMs = new Date(row.window_start).getTime() + THROTTLE_WINDOW_MS - now.getTime();
    throw errors.rateLimited(Math.max(1, Math.ceil(waitMs / 1000)));
  }
}

/** One more in `bucket` (a window over starts again at one). */
export async function countIn(em: Em, now: Date, bucket: string): Promise<void> {
  const windowOver = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  await em.execute(
    `insert into sign_in_throttle as t (bucket, failures, window_start) values (?, 1, ?)
     on conflict (bucket) do update
        set failures = case when t.window_start <= ? then 1 else t.failures + 1 end,
            window_start = case when t.window_start <= ? then excluded.window_start else t.window_start end`,
    [bucket, now, windowOver, windowOver],
  );
}
