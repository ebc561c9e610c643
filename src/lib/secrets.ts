import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random secret with a recognisable prefix, e.g. `svc_` or `whsec_`; 32 bytes of entropy. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

export function constantTimeEqualHex(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** Short display form: the prefix part and the last four characters. */
export function previewOf(secret: string, keep = 8): string {
  return `${secret.slice(0, keep)}…${secret.slice(-4)}`;
}
