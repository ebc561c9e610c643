import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { CertificateBody } from './proofs.schemas.js';

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

/**
 * The object's keys in RFC 8785's order (UTF-16 code units, as `Array#sort` and `<` compare strings). A few
 * keys, the usual object of a request body, are sorted in place by insertion: `sort` allocated a work array
 * per object (issue 28: 3.4 kB per gateway call with the certificate's).
 */
function sortedKeys(o: object): string[] {
  const keys = Object.keys(o);
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

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
  const keys = sortedKeys(o);
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

/**
 * `canonicalJson(body)` of a certificate's body, written for its known shape (issue 28: the general writer's
 * keys sorted and strings made per field were the largest allocation site of a gateway call, 8.6 kB of its
 * 119 kB, and a certificate is written once per call). The keys are in RFC 8785's order (UTF-16 code units:
 * `model` before `modelAddress`, `outcome` between it and `prevHash`; `usage`'s three likewise), each string
 * `JSON.stringify`d and each number written as `JSON.stringify` writes a finite one, which is what the
 * general writer does for them. Any other shape (a key more or less, a field of another type, a non-finite
 * number, a lone surrogate) goes through `canonicalJson`, so the text is the same for every value.
 */
export function certificateJson(b: CertificateBody): string {
  if (!knownCertificate(b)) return canonicalJson(b);
  const u = b.usage;
  return `{"algorithm":${q(b.algorithm)},"answerHash":${q(b.answerHash)},"conversationId":${b.conversationId === null ? 'null' : q(b.conversationId)},"createdAt":${q(b.createdAt)},"id":${q(b.id)},"keyId":${q(b.keyId)},"model":${q(b.model)},"modelAddress":${q(b.modelAddress)},${b.outcome === undefined ? '' : `"outcome":${q(b.outcome)},`}"prevHash":${b.prevHash === null ? 'null' : q(b.prevHash)},"requestHash":${q(b.requestHash)},"route":${q(b.route)},"seq":${b.seq},"usage":{"completionTokens":${u.completionTokens},"promptTokens":${u.promptTokens},"totalTokens":${u.totalTokens}},"version":${b.version},"workspaceId":${q(b.workspaceId)}}`;
}

const q = (s: string): string => JSON.stringify(s);
const text = (v: unknown): boolean => typeof v === 'string' && wellFormed(v);
const finite = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);

/** The body's fields (15, and `outcome` when present and not undefined), each of the type `certificateJson` writes, and nothing else. */
function knownCertificate(b: CertificateBody): boolean {
  const u = b.usage as unknown;
  if (typeof u !== 'object' || u === null || Object.getPrototypeOf(u) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const usage = u as CertificateBody['usage'];
  return (
    Object.keys(b).length === ('outcome' in b ? 16 : 15) &&
    Object.keys(usage).length === 3 &&
    text(b.algorithm) && text(b.answerHash) && (b.conversationId === null || text(b.conversationId)) && text(b.createdAt) &&
    text(b.id) && text(b.keyId) && text(b.model) && text(b.modelAddress) && (b.outcome === undefined ? !('outcome' in b) : text(b.outcome)) &&
    (b.prevHash === null || text(b.prevHash)) && text(b.requestHash) && text(b.route) && finite(b.seq) &&
    finite(usage.completionTokens) && finite(usage.promptTokens) && finite(usage.totalTokens) && finite(b.version) && text(b.workspaceId)
  );
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
