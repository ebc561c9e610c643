import { errors } from '../errors/index.js';

/**
 * Opaque page cursors over a monotonic sequence number (`seq` of verifier reports and certificates): the
 * cursor names the last row of a page, so pages stay stable while new rows arrive.
 */
export const encodeSeqCursor = (seq: number): string => Buffer.from(JSON.stringify({ s: seq }), 'utf8').toString('base64url');

/** The sequence number a cursor names; 400 `validation_failed` on `cursor` for anything else. */
export function decodeSeqCursor(cursor: string): number {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown };
    if (typeof v.s === 'number' && Number.isSafeInteger(v.s) && v.s > 0) return v.s;
  } catch {
    // falls through
  }
  throw errors.validation('cursor', 'cursor is not valid');
}
