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
 * Twelfth round of issue 26 (docs/quality.md, "Twelfth round: reversing verbs block graded support (vguard)"): a verb of the
 * sentence that undoes or changes a fact (predicate.ts `reversing`), which the claim does not share, blocks support by the
 * date and amount rules: the sentence states another event on that date or of that amount. Sentences written for these
 * tests, none from a labelled set.
 */
describe('reversing verbs block graded support (twelfth round, vguard)', () => {
  describe('English', () => {
    it('a date said of a cancellation does not support a signature on that date', async () => {
      expect(await verdict('The Orwell contract was signed on 4 February 2026.', 'The Orwell contract was cancelled on 4 February 2026.')).toBe('unverifiable');
      expect(await verdict('The Orwell contract was signed on 4 February 2026.', 'The Orwell contract was signed on 4 February 2026.')).toBe('supported');
    });
    it('a date said of a postponement does not support the event on that date', async () => {
      expect(await verdict('The Orwell hearing is on 4 February 2026.', 'The Orwell hearing was postponed from 4 February 2026.')).toBe('unverifiable');
    });
    it('an amount said of a withdrawal does not support its award', async () => {
      expect(await verdict('The grant of £12,000 was awarded to the club.', 'The grant of £12,000 awarded to the club was withdrawn.')).toBe('unverifiable');
    });
    it('an amount said of a reduction is not the amount the claim states plainly', async () => {
      expect(await verdict('The Orwell fee is £40 per month.', 'The Orwell fee was reduced to £40 per month.')).toBe('unverifiable');
    });
    it('a reversing verb in another clause, about another date, blocks nothing', async () => {
      expect(await verdict('Construction of the Orwell library starts in September 2025.', 'Construction of the Orwell library starts in September 2025 and should end in 2027.')).toBe('supported');
    });
    it('a claim stating a change of an amount is said by another verb of change', async () => {
      expect(await verdict('Orwell admissions dropped by 30 % with the treatment.', 'The treatment reduced Orwell admissions by 30 %.')).toBe('supported');
    });
    it('a claim sharing the reversing verb is still supported', async () => {
      expect(await verdict('The contract was cancelled on 4 February 2026.', 'The Orwell contract was cancelled on 4 February 2026.')).toBe('supported');
    });
  });

  describe('French', () => {
    it('une subvention annulée ou refusée ne prouve pas son versement', async () => {
      expect(await verdict('La subvention de 12 000 euros a été accordée au club.', 'La subvention de 12 000 euros accordée au club a été annulée.')).toBe('unverifiable');
      expect(await verdict('La subvention de 12 000 € a été versée au club Orwell.', 'La subvention de 12 000 € du club Orwell a été refusée.')).toBe('unverifiable');
    });
    it('une réunion reportée au 12 mars n’a pas lieu le 12 mars pour autant', async () => {
      expect(await verdict('La réunion du comité Orwell a lieu le 12 mars 2026.', 'La réunion du comité Orwell est reportée au 12 mars 2026.')).toBe('unverifiable');
    });
    it('un loyer réduit à 850 € n’est pas le loyer dit sans plus', async () => {
      expect(await verdict('Le loyer Planora est de 850 € par mois.', 'Le loyer Planora a été réduit à 850 € par mois.')).toBe('unverifiable');
    });
    it('une affirmation qui nie son propre verbe n’est pas bloquée par un verbe de suspension', async () => {
      const doc = '## Article 9 — Interruption\n\nUne interruption pour raison médicale suspend la mission Orwell sans la rompre, pendant 8 jours au plus.';
      expect(await verdict('Une interruption pour raison médicale de 8 jours ne rompt pas la mission Orwell.', doc)).not.toBe('contradicted');
    });
    it('la même phrase, le même verbe : toujours confirmée', async () => {
      expect(await verdict('Le contrat Orwell a été signé le 4 février 2026.', 'Le contrat Orwell a été signé le 4 février 2026.')).toBe('supported');
      expect(await verdict('La subvention de 12 000 € du club Orwell a été annulée.', 'La subvention de 12 000 € du club Orwell a été annulée.')).toBe('supported');
    });
  });
});
