import { createHmac, randomBytes } from 'node:crypto';

export const USER_AGENT = 'Svc-Webhooks/1.0';
const SECRET_PREFIX = 'whsec_';

/**
 * `whsec_` followed by the standard base64 of 32 random bytes: the Standard Webhooks secret format, so the
 * public `standardwebhooks` libraries accept it as is.
 */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Reads never show the secret again: only its prefix and last four characters. */
export function secretPreviewOf(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}

/** `X-Svc-Signature`: hex HMAC-SHA256 of the exact body bytes keyed with the whole secret string (SPEC). */
export function svcSignature(secret: string, body: string | Buffer): string {
  return 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * `webhook-signature` (Standard Webhooks): base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the bytes
 * the base64 part of the secret decodes to.
 */
export function standardSignature(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** Headers of one attempt; the Standard Webhooks timestamp and signature are renewed at each attempt. */
export function deliveryHeaders(input: {
  deliveryId: string;
  event: string;
  body: string;
  secret: string;
  at: Date;
  /** The request that caused the event: sent as `X-Request-Id` (not signed), so both sides can find it in their logs. */
  requestId?: string | null;
}): Record<string, string> {
  const timestamp = Math.floor(input.at.getTime() / 1000);
  return {
    ...(input.requestId ? { 'X-Request-Id': input.requestId } : {}),
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Svc-Event': input.event,
    'X-Svc-Signature': svcSignature(input.secret, input.body),
    'X-Svc-Delivery': input.deliveryId,
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(input.secret, input.deliveryId, timestamp, input.body),
  };
}
