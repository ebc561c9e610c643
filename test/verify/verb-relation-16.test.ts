import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { verbsRelated } from '../../src/modules/verify/predicate.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Sixteenth round of issue 26 (docs/quality.md, "Sixteenth round: a claim's verb said by another verb (vverb)"): the
 * whole-predicate support (predicate.ts) reads a claim's verb said by a related verb of the sentence (WordNet, verbs of
 * charge) as said, and a table row's column header as the row's own words. Documents written for these tests, none from a
 * labelled set.
 */
describe('sixteenth round: a claim verb said by a related verb', () => {
  const report = [
    '# Boiler service report — Larchmont Court',
    '',
    '## 2. Work carried out',
    '',
    'A full combustion check was carried out on both boilers using a calibrated Testo 300 analyser.',
  ].join('\n');

  describe('a WordNet relation (`done` / `carried out`)', () => {
    it('the claim\'s verb said by its synonym in the sentence, the rest of the frame held', async () => {
      expect(await verdict('The combustion check was done with a Testo 300 analyser.', report)).toBe('supported');
    });
    it('control: another instrument is not supported', async () => {
      expect(await verdict('The combustion check was done with a Kane 458 analyser.', report)).not.toBe('supported');
    });
    it('control: a verb WordNet does not relate (`repeated`) stays unsupported', async () => {
      expect(await verdict('The combustion check was repeated with a Testo 300 analyser.', report)).not.toBe('supported');
    });
  });

  const terms = [
    '# Hire terms — Castlegate Tool Library',
    '',
    '## 4. Collection',
    '',
    '4.1 Tools not collected within **30 days** of the repair date will incur a storage fee of **£3.50 per tool per week**.',
  ].join('\n');

  describe('verbs of charge (`attract` / `incur`), the claim stating a figure', () => {
    it('the fee said by another verb of charge, the same figure', async () => {
      expect(await verdict('Uncollected tools attract a storage fee of £3.50 per tool per week at Castlegate Tool Library.', terms)).toBe('supported');
    });
    it('control: another figure is not supported', async () => {
      expect(await verdict('Uncollected tools attract a storage fee of £4.50 per tool per week at Castlegate Tool Library.', terms)).not.toBe('supported');
    });
  });

  const visits = [
    '# Visiting Harlow Fen Observatory',
    '',
    '## Contacts',
    '',
    'For questions about school visits or parking, please contact Nerys Albright at visits@harlowfen.org.uk.',
    '',
    'Questions about the telescopes can be sent to Dr Owain Pryce.',
  ].join('\n');

  describe('verbs by which a question reaches a person (`go to` / `contact`), the claim naming the person', () => {
    it('the person reached said by another such verb', async () => {
      expect(await verdict('Questions about school visits go to Nerys Albright.', visits)).toBe('supported');
    });
    it('control: questions about another thing, another person', async () => {
      expect(await verdict('Questions about school visits go to Dr Owain Pryce.', visits)).not.toBe('supported');
    });
  });

  const none = { figure: false, person: false };
  it('verbsRelated: synonyms, hypernyms and verbs of charge; never a reversing verb, a general verb or a verb of error', () => {
    expect(verbsRelated('done', 'carried', none)).toBe(true);
    expect(verbsRelated('attract', 'incur', { figure: true, person: false })).toBe(true);
    expect(verbsRelated('attract', 'incur', none)).toBe(false);
    expect(verbsRelated('signed', 'renewed', none)).toBe(false);
    expect(verbsRelated('signed', 'cancelled', none)).toBe(false);
    expect(verbsRelated('approved', 'rejected', none)).toBe(false);
    expect(verbsRelated('delivered', 'misdelivered', none)).toBe(false);
    expect(verbsRelated('go', 'travel', none)).toBe(false);
    expect(verbsRelated('go', 'contact', none)).toBe(false);
    expect(verbsRelated('go', 'contact', { figure: false, person: true })).toBe(true);
  });
});

describe('sixteenth round: a table row says its column header\'s words', () => {
  const invoice = [
    '# Invoice — Thornbury Heating Services',
    '',
    '| Invoice number | INV-52190 |',
    '|---|---|',
    '| Invoice date | 3 March 2027 |',
    '| Due date | 2 April 2027 |',
  ].join('\n');

  it('a date in a row under its header: the header\'s word (`Invoice`) is the row\'s own', async () => {
    expect(await verdict('Invoice INV-52190 must be paid by 2 April 2027.', invoice)).toBe('supported');
  });
  it('control: another date is not supported', async () => {
    expect(await verdict('Invoice INV-52190 must be paid by 9 April 2027.', invoice)).not.toBe('supported');
  });
});
