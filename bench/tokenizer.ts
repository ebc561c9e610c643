/**
 * Token counting: our o200k encoder (src/modules/models/tokenizer.ts) against js-tiktoken, the floor it
 * replaced, on the same texts in the same run.
 *
 *   npx tsx bench/tokenizer.ts          (SIZES=2500,10000,100000 characters by default)
 *
 * Pure CPU, one process (no server, no load generator). For each text: milliseconds to count it, with a
 * fresh piece cache (the first count of a text) and with a warm one (the same words again), and whether
 * the counts agree. js-tiktoken is skipped past 20 000 characters of an unbroken run (its byte-pair merge
 * is quadratic: it would run for minutes).
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { countTextTokens, loadTokenizer } from '../src/modules/models/tokenizer.js';

const SIZES = (process.env.SIZES ?? '2500,10000,100000').split(',').map(Number);
const words = 'The quick brown fox pays 12,345 € to the lazy dog; ça coûte 3 000 € — naïve café 東京. ';

const texts: Record<string, (n: number) => { text: string; run: boolean }> = {
  prose: (n) => ({ text: words.repeat(Math.ceil(n / words.length)).slice(0, n), run: false }),
  'letters run': (n) => ({ text: 'x'.repeat(n), run: true }),
  'random letters run': (n) => ({ text: Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join(''), run: true }),
  'spaces run': (n) => ({ text: ' '.repeat(n), run: true }),
};

const tiktoken = new Tiktoken(createRequire(import.meta.url)('js-tiktoken/ranks/o200k_base') as TiktokenBPE);
loadTokenizer();

function time<T>(fn: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = fn();
  return { value, ms: performance.now() - started };
}

console.log('| text | characters | js-tiktoken ms | ours ms (first) | ours ms (again) | ratio | counts agree |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
for (const [name, make] of Object.entries(texts)) {
  for (const size of SIZES) {
    const { text, run } = make(size);
    const ours = time(() => countTextTokens(text));
    const again = time(() => countTextTokens(text));
    const floor = run && size > 20_000 ? undefined : time(() => tiktoken.encode(text, [], []).length);
    const ratio = floor ? (floor.ms / ours.ms).toFixed(1) + '×' : 'n/a';
    const agree = floor ? String(floor.value === ours.value) : 'n/a';
    console.log(
      `| ${name} | ${size} | ${floor ? floor.ms.toFixed(1) : 'skipped'} | ${ours.ms.toFixed(1)} | ${again.ms.toFixed(1)} | ${ratio} | ${agree} |`,
    );
  }
}
