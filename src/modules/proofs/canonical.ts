import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** RFC 8785 (JCS) canonical JSON. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value === undefined ? null : value);
  if (text === undefined) throw new Error('Value has no JSON representation');
  return text;
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
