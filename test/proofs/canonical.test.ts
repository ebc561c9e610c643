import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { canonicalJson, certificateJson } from '../../src/modules/proofs/canonical.js';
import type { CertificateBody } from '../../src/modules/proofs/proofs.schemas.js';

/** What the `canonicalize` package writes or throws: the reference canonicalJson must match byte for byte. */
const reference = (value: unknown): { text?: string; error?: string } => {
  try {
    const text = canonicalize(value === undefined ? null : value);
    return text === undefined ? { error: 'Value has no JSON representation' } : { text };
  } catch (err) {
    return { error: (err as Error).message };
  }
};
const ours = (value: unknown): { text?: string; error?: string } => {
  try {
    return { text: canonicalJson(value) };
  } catch (err) {
    return { error: (err as Error).message };
  }
};

/** A random JSON-ish value: keys and strings with escapes, astral characters, digits-only keys, numbers of every form. */
function randomValue(rand: () => number, depth: number): unknown {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const str = () => {
    const parts = ['a', 'Z', 'é', '\u20ac', '😀', '"', '\\', '\n', '\t', '\u0001', '\u2028', '10', '2', '_', ' ', '\u007f'];
    let s = '';
    for (let i = Math.floor(rand() * 6); i > 0; i--) s += pick(parts);
    return s;
  };
  const r = rand();
  if (depth > 4 || r < 0.45) {
    return pick<() => unknown>([
      () => null,
      () => rand() < 0.5,
      () => Math.floor(rand() * 1000) - 500,
      () => (rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20),
      () => pick([0, -0, 1e21, 1e-7, 123456789012345680000, 5e-324, Number.MAX_VALUE, 0.1 + 0.2]),
      str,
    ])();
  }
  if (r < 0.7) return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 6); i > 0; i--) o[str()] = randomValue(rand, depth + 1);
  return o;
}

describe('canonicalJson (RFC 8785), written directly for plain JSON', () => {
  it('writes what the canonicalize package writes for random JSON values, byte for byte', () => {
    let seed = 28;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 3000; i++) {
      const v = randomValue(rand, 0);
      expect(ours(v)).toEqual(reference(v));
      // The same value as a parsed request body (the gateway's case).
      const parsed = JSON.parse(JSON.stringify(v)) as unknown;
      expect(ours(parsed)).toEqual(reference(parsed));
    }
  });

  it('orders the keys of small and large objects as the package does (digit-only, astral, accented, escaped keys)', () => {
    const keys = ['b', 'a', '10', '2', '😀', 'é', '\u20ac', 'A', '_', '"q"', 'aa', '', 'Z', '\n', 'model', 'messages', 'role', 'content', '1', '\ufb01'];
    for (let n = 0; n <= keys.length; n++) {
      for (const order of [keys.slice(0, n), keys.slice(0, n).reverse()]) {
        const o = Object.fromEntries(order.map((k, i) => [k, i]));
        expect(ours(o)).toEqual(reference(o));
      }
    }
  });

  it('leaves every value that is not plain JSON to the package: the same text or the same refusal', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    const deep: unknown[] = [];
    let cur = deep;
    for (let i = 0; i < 200; i++) cur.push((cur = []));
    const withToJSON = Object.assign([1, 2], { toJSON: () => 'array' });
    const cases: unknown[] = [
      undefined,
      NaN,
      Infinity,
      { n: -Infinity },
      '\ud800',
      { '\udc00x': 1 },
      { '\udc00skipped': undefined, ok: 1 },
      ['a\ud83d'],
      [1, undefined, 3],
      [1, , 3], // eslint-disable-line no-sparse-arrays
      { s: Symbol('x'), k: 1 },
      [Symbol('x')],
      { d: new Date(0) },
      withToJSON,
      { m: new Map([[1, 2]]) },
      Object.assign(Object.create(null), { b: 1, a: [true, false] }),
      { b: 1n },
      cyclic,
      deep,
      { f: () => 1 },
    ];
    for (const v of cases) expect(ours(v)).toEqual(reference(v));
  });
});

describe('certificateJson: a certificate body written for its known shape', () => {
  /** A certificate body with random values of the right types (escapes, astral characters, every number form). */
  function randomBody(rand: () => number): CertificateBody {
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const str = () => {
      const parts = ['a', 'Z', 'é', '\u20ac', '😀', '"', '\\', '\n', '\t', '\u0001', '\u2028', '10', ':', '/', ' ', '\u007f', 'prf_01J'];
      let s = '';
      for (let i = Math.floor(rand() * 8); i > 0; i--) s += pick(parts);
      return s;
    };
    const num = () => pick([0, -0, 1, 42, 123456, 2 ** 31 - 1, 1e21, 5e-324, 0.5, -7, Number.MAX_SAFE_INTEGER]);
    return {
      version: 1,
      id: str(),
      workspaceId: str(),
      seq: num(),
      createdAt: new Date(Math.floor(rand() * 4e12)).toISOString(),
      route: str(),
      modelAddress: str(),
      model: str(),
      conversationId: rand() < 0.5 ? null : str(),
      requestHash: str(),
      answerHash: str(),
      usage: { promptTokens: num(), completionTokens: num(), totalTokens: num() },
      prevHash: rand() < 0.2 ? null : str(),
      keyId: str(),
      algorithm: 'Ed25519',
      ...(rand() < 0.3 ? { outcome: pick(['failed', 'abandoned'] as const) } : {}),
    };
  }

  it('writes what canonicalJson writes for random certificate bodies, byte for byte', () => {
    let seed = 2813;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 3000; i++) {
      const body = randomBody(rand);
      expect(certificateJson(body)).toBe(canonicalJson(body));
      expect(certificateJson(body)).toBe(reference(body).text);
    }
  });

  it('gives any other shape to canonicalJson: the same text for every value', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const base = randomBody(rand);
    const variants: unknown[] = [
      { ...base, extra: 'x' },
      { ...base, outcome: undefined },
      { ...base, conversationId: undefined },
      { ...base, prevHash: 3 },
      { ...base, seq: NaN },
      { ...base, seq: '12' },
      { ...base, id: 'a\ud800' },
      { ...base, model: { nested: true } },
      { ...base, usage: { ...base.usage, extraTokens: 1 } },
      { ...base, usage: { promptTokens: 1, completionTokens: 2 } },
      { ...base, usage: null },
      Object.assign(Object.create(null), base),
      (({ keyId: _dropped, ...rest }) => rest)(base),
    ];
    for (const v of variants) {
      const body = v as CertificateBody;
      expect(ours(body)).toEqual(reference(body));
      const expected = ours(body);
      const actual = (() => {
        try {
          return { text: certificateJson(body) };
        } catch (err) {
          return { error: (err as Error).message };
        }
      })();
      expect(actual).toEqual(expected);
    }
  });
});
