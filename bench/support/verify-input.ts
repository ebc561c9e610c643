/**
 * The generated input of bench/verify.ts: a text of `words` words and `passages` passages of six sentences,
 * from a fixed seed, so every run (the benchmark, a profile, test/verify/verdict-identity.test.ts) reads the
 * same words.
 */
const NOUNS = ['revenue', 'profit', 'contract', 'tenant', 'warehouse', 'budget', 'library', 'trial', 'bridge', 'invoice', 'payment', 'employee', 'audit', 'shipment', 'policy', 'fee', 'loan', 'office', 'report', 'customer'];
const VERBS = ['rose', 'fell', 'reached', 'covers', 'includes', 'requires', 'exceeds', 'funds', 'employs', 'approved'];
const UNITS = ['EUR', '%', 'days', 'people', 'million euros', 'months'];
const NAMES = ['Acme', 'Northwind', 'Westbrook', 'Delta', 'Helix', 'Orion'];

/** A generator of sentences, texts and passages from `seed` (one sequence: the order of calls matters). */
export function verifyWords(seed = 42) {
  const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  function sentence(): string {
    const words = [pick(NAMES), pick(NOUNS), pick(VERBS), String(Math.floor(rand() * 900) + 10), pick(UNITS), 'in', String(2015 + Math.floor(rand() * 10))];
    while (words.length < 16) words.push(pick(NOUNS));
    if (rand() < 0.2) words.splice(3, 0, 'not');
    return `${words.join(' ')}.`;
  }
  function textOf(words: number): string {
    const out: string[] = [];
    let n = 0;
    while (n < words) {
      const s = sentence();
      out.push(s);
      n += s.split(' ').length;
    }
    return out.join(' ');
  }
  const passageOf = (sentences: number) => Array.from({ length: sentences }, sentence).join(' ');
  return { sentence, textOf, passageOf };
}

/**
 * bench/verify.ts's first case: the text, then the passages, in that order from the seed; `next` goes on with
 * the same sequence (the benchmark's collection chunks).
 */
export function verifyInput(words = 10_000, passages = 200, seed = 42) {
  const next = verifyWords(seed);
  const text = next.textOf(words);
  return { text, passages: Array.from({ length: passages }, (_, i) => ({ source: `passage-${i}`, content: next.passageOf(6) })), next };
}
