import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Thirteenth round of issue 26 (docs/quality.md, "Thirteenth round: supported precision (vprec5)"): two ways a sentence
 * was read as supporting a claim it does not state. Sentences written for these tests, none from a labelled set.
 */
describe('supported precision (thirteenth round, vprec5)', () => {
  describe('a heading’s or range’s year is not the claim’s day', () => {
    it('a heading year (`Price List 2025`) does not support `valid until 30 June 2025`', async () => {
      const doc = '# Orwell Pianos\n\n## Price List 2025\n\nValid from 1 January 2025 to 31 December 2025. All prices include VAT.';
      expect(await verdict('The Orwell price list is valid until 30 June 2025.', doc)).not.toBe('supported');
    });
    it('une période d’années (`de 2024 à 2026`) ne dit pas la date de signature du 12 mars 2024', async () => {
      const doc = '# Contrat Orwell\n\nLe contrat est conclu pour trois récoltes consécutives, de 2024 à 2026 inclus.';
      expect(await verdict('Le contrat Orwell a été signé le 12 mars 2024.', doc)).not.toBe('supported');
    });
    it('a section heading’s year does not give the day the claim names, nor its month', async () => {
      const minutes = '# Orwell board minutes\n\n## Decisions 2025\n\nThe Orwell board approved the new roof.';
      expect(await verdict('The Orwell board approved the new roof on 3 March 2025.', minutes)).not.toBe('supported');
      expect(await verdict('The Orwell library opens in March 2025.', '# Orwell library\n\nThe Orwell library opens in 2025.')).not.toBe('supported');
    });
    it('a day stated in the document’s title still grounds a sentence under a year heading', async () => {
      const minutes = '# Orwell board minutes, 3 March 2025\n\n## Decisions 2025\n\nThe Orwell board approved the new roof.';
      expect(await verdict('The Orwell board approved the new roof on 3 March 2025.', minutes)).toBe('supported');
    });
    it('the same day, or a claim of the year only, is still supported', async () => {
      expect(await verdict('The Orwell contract was signed on 4 February 2026.', 'The Orwell contract was signed on 4 February 2026.')).toBe('supported');
      expect(await verdict('The Orwell contract was signed in 2026.', 'The Orwell contract was signed on 4 February 2026.')).toBe('supported');
    });
  });

  describe('a participle straight after a field’s colon is the line’s verb (reversing verbs)', () => {
    it('Contrat Orwell : résilié le 4 février 2026 ne confirme pas une signature le 4 février', async () => {
      expect(await verdict('Le contrat Orwell a été signé le 4 février 2026.', 'Contrat Orwell : résilié le 4 février 2026.')).toBe('unverifiable');
      expect(await verdict('Le contrat Orwell a été signé le 4 février 2026.', 'Contrat Orwell : annulé le 4 février 2026.')).toBe('unverifiable');
    });
    it('a `Status: Cancelled on 4 February 2026` field does not support a signature on that date', async () => {
      expect(await verdict('The Orwell contract was signed on 4 February 2026.', '# Orwell contract\n\nStatus: Cancelled on 4 February 2026.')).toBe('unverifiable');
    });
    it('the claim’s own participle after the colon still supports', async () => {
      expect(await verdict('Le contrat Orwell a été signé le 4 février 2026.', 'Contrat Orwell : signé le 4 février 2026.')).toBe('supported');
    });
  });
});
