/**
 * SPEC, Limits (Other constants) and the Webhook delivery states: the retry schedule as data. The 10 s
 * acknowledgement timeout is `config.webhookTimeoutMs` (`SVC_WEBHOOK_TIMEOUT_MS`, lowered only by tests).
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Attempts 1 to 3, driven by the in-process worker. */
export const IMMEDIATE_ATTEMPTS = 3;

/**
 * Delay after a failed attempt n (index n - 1) before attempt n + 1. The first three attempts land at
 * 0 s, 1 s and 5 s when the receiver fails fast (1 s, then 4 s more); the sweep's retries follow at 5 min,
 * 30 min, 2 h and 12 h after the previous failure. Seven attempts in all, about 14 hours.
 */
export const RETRY_DELAYS_MS = [1 * SECOND, 4 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR] as const;

/** The log keeps the latest 50 deliveries per endpoint. */
export const DELIVERY_LOG_LENGTH = 50;

/** Beginning of the receiver's answer kept in the log. */
export const RESPONSE_BODY_MAX_BYTES = 4096;

/**
 * How long a claimed attempt stays reserved for the process that claimed it. The worker and the sweep
 * renew the lease of attempts still in flight every `LEASE_RENEW_MS` (heartbeat), so it only runs out
 * when the claimer died: another process then takes the attempt over within about 15 s (plus its 1 s
 * poll). Test and replay attempts, made inside a request and not renewed, fit in it too: the 10 s
 * acknowledgement timeout plus connection set-up.
 */
export const LEASE_MS = 15 * SECOND;
export const LEASE_RENEW_MS = 5 * SECOND;

/** When the attempt after `attemptsMade` failed attempts is due, or null when none is left. */
export function nextAttemptAfterFailure(attemptsMade: number, failedAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attemptsMade - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay);
}
