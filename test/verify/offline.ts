import { createHash, createPublicKey, verify } from 'node:crypto';

/**
 * Offline checks with nothing but node:crypto, as docs/verifier.md and the archive's VERIFY.md tell a
 * reader: RFC 8785 canonical JSON for bodies of strings, whole numbers, null and objects (keys sorted by
 * UTF-16 code units, no whitespace), SHA-256 and Ed25519.
 */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** Whether a certificate's hash and signature hold, with the PEM of the key it names. */
export function certificateHolds(cert: Record<string, unknown>, pem: string): { hash: boolean; signature: boolean } {
  const { hash, signature, ...body } = cert;
  const bytes = Buffer.from(canonical(body), 'utf8');
  let signed = false;
  try {
    signed = verify(null, bytes, createPublicKey(pem), Buffer.from(String(signature), 'base64url'));
  } catch {
    signed = false;
  }
  return { hash: sha256Hex(bytes) === hash, signature: signed };
}
