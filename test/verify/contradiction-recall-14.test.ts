import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { quantities } from '../../src/modules/verify/quantities.js';
import { scopedWords } from '../../src/modules/verify/scope.js';
import { stemmerFor } from '../../src/modules/verify/text.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Fourteenth round of issue 26 (docs/quality.md, "Fourteenth round: contradiction recall (vcontra6)"): a changed unit or
 * currency, a name given to the same noun, a negated field label, the currency a document quotes in. Sentences written for
 * these tests, none from a labelled set.
 */
describe('contradiction recall (fourteenth round)', () => {
  describe('unit changed: the same figure in another unit of the same measure', () => {
    it('a temperature scale changed in a list of two readings', async () => {
      const doc = '# Cold chain check\n\nThe dairy room was recorded at +3.1 °C and the deep freezer at −19.4 °C.';
      expect(await verdict('The deep freezer was recorded at −19.4 °F on delivery.', doc)).toBe('contradicted');
      expect(await verdict('The deep freezer was recorded at −19.4 °C on delivery.', doc)).not.toBe('contradicted');
    });
    it('a unit of mass changed in a list of measures', async () => {
      const doc = '# Dunmore Storage terms\n\nStandard crates are 1200 × 800 mm, maximum height 1.5 m, maximum weight 800 kg.';
      expect(await verdict('A standard crate at Dunmore may weigh at most 800 lb.', doc)).toBe('contradicted');
      expect(await verdict('A standard crate at Dunmore may weigh at most 800 kg.', doc)).not.toBe('contradicted');
    });
    it('a unit of length changed in an aside', async () => {
      const doc = '# Print package\n\n- Display prints (3 × 30 sheets, 30 × 40 cm): £120';
      expect(await verdict('The display prints measure 30 × 40 inches.', doc)).toBe('contradicted');
    });
    it('speed, force and a sign after a space are units', () => {
      const stem = stemmerFor('en');
      const units = (t: string) => quantities(t, stem).map((q) => [q.figure, q.unit, q.dimension]);
      expect(units('exceeds 36 knots')).toEqual([[36, 'kn', 'speed']]);
      expect(units('exceeds 36 km/h')).toEqual([[36, 'kmh', 'speed']]);
      expect(units('reaches 710 kN')).toEqual([[710, 'n', 'force']]);
      expect(units('| 710 N |')).toEqual([[710, 'n', 'force']]);
      expect(units('held at 5 °F')).toEqual([[5, 'f', 'temperature']]);
      expect(units('held at 5 °C')).toEqual([[5, 'c', 'temperature']]);
    });
  });

  describe('name slot: the same noun given another name', () => {
    it('a name in apposition to the same role noun', async () => {
      const doc = '# Club rules\n\nDecisions may be appealed in writing to the club secretary, Ms Helen Marsh, within 14 days.';
      expect(await verdict('Appeals must be sent in writing to the club secretary, Ms Helen Ardley.', doc)).toBe('contradicted');
      expect(await verdict('Appeals must be sent in writing to the club secretary, Ms Helen Marsh.', doc)).not.toBe('contradicted');
    });
    it('a name said by a naming copula against the same noun in apposition', async () => {
      const doc = '# Fernhill Clinic privacy notice\n\nOur booking system, MedDiary, is hosted on servers in Leeds.';
      expect(await verdict("Fernhill Clinic's booking system is called ClinBook.", doc)).toBe('contradicted');
    });
    it('a name after the same noun and preposition', async () => {
      const doc = '# Loan agreement\n\nInsurance is provided under the museum\'s transit policy with Allianz, policy no. TR-55120.';
      expect(await verdict("The objects are insured under the museum's transit policy with Zurich.", doc)).toBe('contradicted');
    });
    it('a claim name its document mentions elsewhere is left to the other rules', async () => {
      const doc = '# Loan agreement\n\nInsurance is provided under the museum\'s transit policy with Allianz, policy no. TR-55120.\n\nZurich handled the previous loan.';
      expect(await verdict("The objects are insured under the museum's transit policy with Zurich.", doc)).not.toBe('contradicted');
    });
  });

  describe('a negated field label governs its value', () => {
    it('reads the value of `Not included:` as negated', () => {
      const negated = scopedWords('- Not included: clutch replacement and paintwork (quoted separately).').filter((w) => w.negated).map((w) => w.w);
      expect(negated).toEqual(['included', 'clutch', 'replacement', 'and', 'paintwork']);
    });
    it('a claim including what the label excludes is contradicted', async () => {
      const doc = '# Repair estimate\n\n- Included: brake pads and discs.\n- Not included: clutch replacement and paintwork (quoted separately).';
      expect(await verdict('The repair estimate includes a clutch replacement.', doc)).toBe('contradicted');
    });
  });

  describe('the currency a document quotes in', () => {
    const pounds = '# Harwick Lodge tariff\n\n| Room | Night |\n| --- | --- |\n| Single | £85 |\n| Double | £120 |';
    it('a currency the documents never use, all their amounts in another one', async () => {
      expect(await verdict("Harwick Lodge's room rates are quoted in euros.", pounds)).toBe('contradicted');
      expect(await verdict("Harwick Lodge's room rates are quoted in pounds.", pounds)).not.toBe('contradicted');
    });
    it('documents writing the claim\'s currency somewhere decide nothing', async () => {
      expect(await verdict("Harwick Lodge's room rates are quoted in euros.", `${pounds}\n\nGuests paying in euros are charged at the day's rate.`)).not.toBe('contradicted');
    });
  });
});
