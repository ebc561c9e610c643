import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { quantities } from '../../src/modules/verify/quantities.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

const stem = (w: string) => w;

/**
 * Fourteenth round of issue 26 (docs/quality.md, "Fourteenth round: two parse bugs (vparse)"): the English article `an` read as
 * the French year, and a price of nothing said in words. Sentences written for these tests, none from a labelled set.
 */
describe('two parse bugs (fourteenth round, vparse)', () => {
  describe('the English article `an` before a rate’s period is no French year', () => {
    it('`£68 an hour` is 68 pounds (an hourly rate), not 68 years', () => {
      const [q] = quantities('Labour is billed at £68 an hour.', stem);
      expect(q).toMatchObject({ value: 68, unit: 'GBP', dimension: 'money' });
    });
    it('`£68 an hour` does not state `£816 a year`', async () => {
      expect(await verdict('The Orwell cleaner is paid £68 an hour.', '# Orwell rota\n\nThe Orwell cleaner is paid £816 a year.')).not.toBe('supported');
    });
    it('`£68 an hour` states `£68 per hour`', async () => {
      expect(await verdict('The Orwell cleaner is paid £68 an hour.', '# Orwell rota\n\nThe Orwell cleaner is paid £68 per hour.')).toBe('supported');
    });
    it('the French `an` is still a year in French (`1 an`, `un an`, `2 ans`)', () => {
      expect(quantities('Le contrat dure 1 an et demi.', stem)[0]).toMatchObject({ value: 12, unit: 'month' });
      expect(quantities('La garantie est de un an.', stem)[0]).toMatchObject({ value: 12, unit: 'month' });
      expect(quantities('Warranty: 2 ans on all parts.', stem)[0]).toMatchObject({ value: 24, unit: 'month' });
    });
  });

  describe('a price of nothing said in words is an amount of 0', () => {
    it('`costs nothing` against `costs £5` is a contradiction by amount', async () => {
      const doc = '# Orwell climbing school\n\nHiring a helmet on a climbing course costs nothing.';
      expect(await verdict('Hiring a helmet on a climbing course costs £5.', doc)).toBe('contradicted');
    });
    it('`at no charge`, `free of charge` against `costs £5` are contradictions by amount', async () => {
      expect(await verdict('Hiring a helmet on a climbing course costs £5.', '# Orwell climbing school\n\nHelmets can be hired for climbing courses at no charge.')).toBe('contradicted');
      expect(await verdict('Hiring a helmet on a climbing course costs £5.', '# Orwell climbing school\n\nHelmets can be hired for climbing courses free of charge.')).toBe('contradicted');
    });
    it('a claim `is free` against `costs £5` is a contradiction, not a support', async () => {
      expect(await verdict('Hiring a helmet on a climbing course is free.', '# Orwell climbing school\n\nHiring a helmet on a climbing course costs £5.')).toBe('contradicted');
    });
    it('`gratuit` against `coûte 5 €` is a contradiction by amount', async () => {
      expect(await verdict('La location du casque coûte 5 €.', '# École Orlan\n\nLa location du casque est gratuite.')).toBe('contradicted');
    });
    it('two prices of nothing in other words agree (`is free`, `costs nothing`, `at no charge`)', async () => {
      const doc = '# Orwell climbing school\n\nHelmets can be hired for climbing courses at no charge.';
      expect(await verdict('Hiring a helmet on a climbing course is free.', doc)).toBe('supported');
      expect(await verdict('Hiring a helmet on a climbing course costs nothing.', doc)).toBe('supported');
    });
    it('a negated price of nothing (`not free of charge`, `pas gratuite`) is no amount of 0: no conflict with a price', async () => {
      expect(await verdict('Hiring a helmet on a climbing course is not free of charge.', '# Orwell climbing school\n\nHiring a helmet on a climbing course costs £5.')).not.toBe('contradicted');
      expect(await verdict('La location du casque n’est pas gratuite.', '# École Orlan\n\nLa location du casque coûte 5 €.')).not.toBe('contradicted');
    });
    it('`free` that is no price (`free to cancel`, `free of asbestos`, `a free slot`) is no amount', async () => {
      const doc = '# Orwell hall\n\nBooking the Orwell hall costs £40.';
      expect(await verdict('Customers are free to cancel a booking of the Orwell hall.', doc)).not.toBe('contradicted');
      expect(await verdict('The Orwell hall is free of asbestos.', doc)).not.toBe('contradicted');
    });
  });
});
