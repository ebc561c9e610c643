import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JCS) canonical JSON, byte for byte what the `canonicalize` package writes. The values a
 * certificate hashes (a parsed request body, a certificate's fields) are plain JSON: null, booleans,
 * finite numbers, well-formed strings, arrays and plain objects, not too deep. Those are written here
 * directly (issue 28: the package ran a JavaScript scan of every string and key, a `Set` of the path and
 * an array per object, for every gateway call); anything else (a `toJSON`, `undefined` in an array, a
 * non-finite number, a lone surrogate, a cycle) goes through the package, which words the same refusals.
 */
export function canonicalJson(value: unknown): string {
  const v = value === undefined ? null : value;
  const fast = plain(v, 0);
  if (fast !== undefined) return fast;
  const text = canonicalize(v);
  if (text === undefined) throw new Error('Value has no JSON representation');
  return text;
}

/** Deeper than this, the package decides (and finds a cycle, which would recurse here without end). */
const MAX_DEPTH = 64;

/** No lone surrogate (`String.prototype.isWellFormed`, Node 20; not in the ES2023 typings this project compiles with). */
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The canonical text of a plain JSON value, or undefined when the package must decide. */
function plain(v: unknown, depth: number): string | undefined {
  switch (typeof v) {
    case 'string':
      return wellFormed(v) ? JSON.stringify(v) : undefined;
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : undefined;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      break;
    default:
      return undefined;
  }
  if (v === null) return 'null';
  if (depth >= MAX_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === 'function') return undefined;
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) {
      const item = plain(v[i], depth + 1);
      if (item === undefined) return undefined;
      out += i === 0 ? item : `,${item}`;
    }
    return `${out}]`;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const value = o[key];
    if (value === undefined) continue;
    if (!wellFormed(key)) return undefined;
    const item = plain(value, depth + 1);
    if (item === undefined) return undefined;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${item}`;
    first = false;
  }
  return `${out}}`;
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
