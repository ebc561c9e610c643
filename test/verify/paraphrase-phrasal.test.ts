import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { isSupportVerb, phrasalMeanings, phrasalVerb } from '../../src/lib/language/wordnet.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Eighth round of issue 26 (docs/quality.md, "Eighth round: multi-word paraphrase"): a claim saying the sentence's fact with
 * a phrasal verb or a support verb and a noun. Sentences written for these tests, none from a labelled set.
 */
describe('eighth round: multi-word paraphrase', () => {
  describe("WordNet's phrasal verbs", () => {
    it('a verb and its particle are read as the phrasal verb WordNet knows, inflected or not', () => {
      expect(phrasalVerb('carried', 'out')).toBe('carry_out');
      expect(phrasalVerb('passes', 'on')).toBe('pass_on');
      expect(phrasalVerb('cut', 'off')).toBe('cut_off');
      expect(phrasalVerb('invoice', 'out')).toBeNull();
    });

    it("a phrasal verb's meanings are its senses' one-word verbs and their derived nouns", () => {
      expect(phrasalMeanings('carry_out')).toEqual(expect.arrayContaining(['execute', 'implement', 'execution']));
      expect(phrasalMeanings('cut_off')).toEqual(expect.arrayContaining(['interrupt', 'interruption']));
      expect(phrasalMeanings('hand_over_the_moon')).toEqual([]);
    });

    it('support verbs are read through their base form', () => {
      expect(isSupportVerb('made')).toBe(false); // an irregular past: the engine reads it through its lemma
      expect(isSupportVerb('gives')).toBe(true);
      expect(isSupportVerb('carry_out')).toBe(true);
      expect(isSupportVerb('inspect')).toBe(false);
    });
  });

  describe('a phrasal verb of the claim is said by a one-word verb of the sentence', () => {
    const notice = '# Site notice\n\nThe contractor will interrupt the water supply to Block C on Tuesday morning for the valve replacement.';

    it('`cut off` against `interrupt`: supported', async () => {
      expect(await verdict('The contractor will cut off the water supply to Block C.', notice)).toBe('supported');
    });

    it('another phrasal verb (`set up`, whose meanings are not `interrupt`) is not supported', async () => {
      expect(await verdict('The contractor will set up the water supply to Block C.', notice)).not.toBe('supported');
    });
  });

  describe('a support verb and its noun are said by the verb derived from the noun', () => {
    const report = '# Lift maintenance\n\nAn engineer from Corbel Lifts inspects the passenger lift at Harwick House every quarter.';

    it('`carries out an inspection` against `inspects`: supported', async () => {
      expect(await verdict('An engineer from Corbel Lifts carries out an inspection of the passenger lift at Harwick House.', report)).toBe('supported');
    });

    it('a support verb with another noun (`carries out a repair`) is not supported by `inspects`', async () => {
      expect(await verdict('An engineer from Corbel Lifts carries out a repair of the passenger lift at Harwick House.', report)).not.toBe('supported');
    });
  });
});
