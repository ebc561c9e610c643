import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadHalf } from '../../bench/support/quality-set.js';
import { verifyInput } from '../../bench/support/verify-input.js';
import { SentenceFactsCache, Verifier, type ClaimResult, type PassageInput } from '../../src/modules/verify/engine.js';
import { words, wordsOf } from '../../src/modules/verify/text.js';

/**
 * The verifier's speed work (issues 26 and 28) must not change a verdict: every report below is compared,
 * claim by claim (offsets, verdict, rule, each evidence's source, offset and score), with the reports the
 * engine gave when the fixture was written. The cases: the claims of the tuning halves (tuning, tuning-2, tuning-3; each against its documents,
 * as bench/quality.ts sends them), the labelled set of docs/verifier.md (each claim against all its passages),
 * and bench/verify.ts's generated input (10 000 words against 200 passages), once fresh and once through a
 * shared index (`share`, as a collection's index is reused). The held-out halves are never read.
 *
 * A change of the rules that changes verdicts on purpose rewrites the fixture (`UPDATE_VERDICTS=1 npx vitest
 * run test/verify/verdict-identity.test.ts`) and says so in its commit; a speed change never does.
 */
const FIXTURE = new URL('./fixtures/verdicts.json', import.meta.url);

const line = (r: ClaimResult) => `${r.start}-${r.end} ${r.verdict} ${r.rule}${r.evidence.map((e) => ` ${e.source}@${e.start}-${e.end}:${e.score}`).join('')}`;

async function reportOf(text: string, passages: PassageInput[], cache?: SentenceFactsCache): Promise<string[]> {
  const v = new Verifier(text, undefined, cache);
  await v.addPassages(passages);
  return (await v.verify(text)).map(line);
}

async function tuningReports(half: string, out: Record<string, string[]>, cache?: SentenceFactsCache): Promise<void> {
  const tuning = loadHalf(half);
  for (const claim of tuning.claims) {
    const base = (n: string) => n.replace(/^.*\//, '');
    const docs = claim.documents
      .map((n) => tuning.documents.find((d) => d.name === base(n) || d.name === `${base(n)}.md` || d.name.replace(/\.md$/, '') === base(n)))
      .filter((d) => d !== undefined);
    out[`${half} ${claim.id}`] = await reportOf(claim.claim, (docs.length > 0 ? docs : tuning.documents).map((d) => ({ source: d.name, content: d.text })), cache);
  }
}

async function reports(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const half of ['tuning', 'tuning-2', 'tuning-3']) await tuningReports(half, out);
  const labelled = JSON.parse(readFileSync(new URL('./fixtures/quality-set.json', import.meta.url), 'utf8')) as { passages: PassageInput[]; claims: { text: string }[] };
  for (const [i, claim] of labelled.claims.entries()) out[`labelled ${i}`] = await reportOf(claim.text, labelled.passages);
  const { text, passages } = verifyInput(10_000, 200);
  out['generated fresh'] = await reportOf(text, passages);
  const index = new Verifier(text);
  await index.addPassages(passages);
  const first = index.share();
  await first.verify(text);
  out['generated shared'] = (await index.share().verify(text)).map(line);
  return out;
}

describe('verdicts kept by the verifier speed work', () => {
  it('gives the same report as when the fixture was written, claim by claim', async () => {
    const got = await reports();
    if (process.env.UPDATE_VERDICTS === '1') writeFileSync(FIXTURE, `${JSON.stringify(got, null, 0).replace(/\],"/g, '],\n"')}\n`);
    const expected = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, string[]>;
    expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
    for (const key of Object.keys(expected)) expect(got[key], key).toEqual(expected[key]);
  }, 300_000);

  it('gives the same reports with the facts of passage sentences kept from an earlier verification (SentenceFactsCache)', async () => {
    const expected = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, string[]>;
    const cache = new SentenceFactsCache(100_000);
    const { text, passages } = verifyInput(10_000, 200);
    await reportOf(text, passages, cache);
    const filled = cache.size;
    expect(filled).toBeGreaterThan(100);
    expect(await reportOf(text, passages, cache), 'generated, facts kept').toEqual(expected['generated fresh']);
    expect(cache.size).toBe(filled);
    const first: Record<string, string[]> = {};
    await tuningReports('tuning', first, cache);
    const again: Record<string, string[]> = {};
    await tuningReports('tuning', again, cache);
    for (const key of Object.keys(again)) expect(again[key], key).toEqual(expected[key]);
  }, 300_000);

  it('keeps at most its bound of sentences, the least recently used out first', async () => {
    const cache = new SentenceFactsCache(50);
    const { text, passages } = verifyInput(2_000, 40);
    await reportOf(text, passages, cache);
    expect(cache.size).toBe(50);
  });
});

describe("a claim stem's shared reading (what cover reads of it, kept per verifier)", () => {
  it('is read again once passages are added: the same report as a fresh verifier over all of them', async () => {
    // The claim's words weigh less once the added passages repeat them, so the evidence's score (the weighted share of the
    // claim the sentence holds: `promptly` missing) moves: a reading kept from before the passages were added gives 0.713.
    const first = [{ source: 'lease.md', content: 'The tenant pays the rent to the landlord. The landlord insures the building.' }];
    const more = [{ source: 'notes.md', content: 'The tenant signed the lease. The tenant moved in. The tenant left the keys. The rent is reviewed.' }];
    const claim = 'The tenant promptly pays the rent to the landlord.';
    const v = new Verifier(claim);
    await v.addPassages(first);
    // Another claim writing the same words (a claim's own text is judged once per verifier).
    await v.verify('The tenant pays the rent promptly to the landlord.');
    await v.addPassages(more);
    const fresh = new Verifier(claim);
    await fresh.addPassages([...first, ...more]);
    const expected = await fresh.verify(claim);
    expect(expected[0]!.evidence[0]!.score).toBe(0.687);
    expect(await v.verify(claim)).toEqual(expected);
  });
});

describe('the folded words of a text without offsets (wordsOf)', () => {
  it("are words()'s, runs over 40 characters left out, in ASCII and in other scripts", () => {
    const long = 'x'.repeat(41);
    for (const text of [
      'The Tenant pays €1,200 on 3 March 2026 (INV-2025-0412).',
      `A run ${long} and ${'y'.repeat(40)} here.`,
      `Le locataire réglera l'échéance ${'é'.repeat(41)} au bailleur, soit 2 916 € TTC.`,
      'Ｆｕｌｌ－ｗｉｄｔｈ ＡＢＣ and naïve café',
      '',
    ]) {
      expect(wordsOf(text), text).toEqual(words(text).map((w) => w.w));
    }
    expect(wordsOf(`a ${long} b`)).toEqual(['a', 'b']);
  });
});
