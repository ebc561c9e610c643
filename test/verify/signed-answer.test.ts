import { describe, expect, it } from 'vitest';
import { verifyInput } from '../../bench/support/verify-input.js';
import { Verifier, type ClaimResult } from '../../src/modules/verify/engine.js';
import { canonicalJson } from '../../src/modules/proofs/index.js';
import { claimCanonicalJson, signedAnswerOf } from '../../src/modules/verify/verify.service.js';

/** The signed answer's claims, written directly for their shape, are byte for byte `canonicalJson`'s (RFC 8785). */
describe('the signed answer of a report', () => {
  it('equals the canonical JSON of { id, claims, counts } on bench/verify.ts input', async () => {
    const { text, passages } = verifyInput(2_000, 40);
    const v = new Verifier(text);
    await v.addPassages(passages.map((p, i) => (i % 3 === 0 ? { ...p, sourceId: `src_${i}`, chunkId: `chk_${i}` } : i % 3 === 1 ? { ...p, sourceId: `src_${i}` } : p)));
    const claims = await v.verify(text);
    expect(claims.some((c) => c.evidence.some((e) => e.chunkId !== undefined))).toBe(true);
    const counts = { supported: 1, contradicted: 2, unverifiable: 3 };
    expect(await signedAnswerOf({ id: 'vrf_1', claims, counts })).toBe(canonicalJson({ id: 'vrf_1', claims, counts }));
  });

  it('writes awkward strings and numbers as RFC 8785 does, and leaves other shapes to canonicalJson', () => {
    const evidence = { source: 'a "quoted"\n\u2028 source \u00e9 😀 \u0001', quote: '\\ back\tslash', start: 0, end: 1e21, score: 0.1 + 0.2, sourceId: 'z', chunkId: 'y' };
    const claim: ClaimResult = { text: 'émoji 😀 </script>', start: 5, end: -0, verdict: 'supported', rule: 'numbers', evidence: [evidence, { ...evidence, score: 1e-7 }] };
    expect(claimCanonicalJson(claim)).toBe(canonicalJson(claim));
    const extra = { ...claim, note: 'x' } as ClaimResult;
    expect(claimCanonicalJson(extra)).toBe(canonicalJson(extra));
    const lone = { ...claim, text: 'a\uD800b' };
    expect(() => claimCanonicalJson(lone)).toThrow(/surrogate/i);
  });
});
