/**
 * `f` itself. A closure made on a hot path (once per claim, per candidate sentence) is written
 * `const f = unnamed((…) => …)` so that it is not named when it is made: the service runs under tsx, whose
 * esbuild transform keeps names (`keepNames`), so `const f = (…) => …` becomes `__name((…) => …, 'f')`, an
 * `Object.defineProperty` on every new closure (1 to 2 µs each). The verifier made 24 000 of them per
 * request of bench/verify.ts (docs/performance.md, "Verifier speed, eleventh pass"). A closure passed as
 * an argument gets no inferred name, so esbuild leaves it alone; the function's `name` is then `''`.
 */
export const unnamed = <F extends (...args: never[]) => unknown>(f: F): F => f;
