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
 * Sixteenth round of issue 26 (docs/quality.md, "Sixteenth round: contradictions said by another word (vcontra8)"): a yes-or-no
 * matter said the other way by an opposite word or a negation (stance.ts, `stanceReversed`), and an amount of the claim's frame
 * left partly to its document (`amountFrameConflict`). Sentences written for these tests, none from a labelled set. Each case
 * fails on main (745e2ac); each control passes on both.
 */
describe('contradiction recall (sixteenth round)', () => {
  describe('a matter said the other way (stanceReversed)', () => {
    it('a permission by a modal against `not allowed`, the exception another thing', async () => {
      const doc = '# Greenway Studios workshop rules\n\nBicycles are not allowed in the workshop, except folding bikes.';
      expect(await verdict('Visitors may bring bicycles into the workshop.', doc)).toBe('contradicted');
      // Control: the claim is the exception itself.
      expect(await verdict('Members may bring folding bikes into the workshop.', doc)).not.toBe('contradicted');
    });
    it('a negated permission against a modal of permission', async () => {
      const doc = '# Loan agreement\n\nVisitors may sketch the drawings for private study, without ink.';
      expect(await verdict('Visitors are not allowed to sketch the drawings.', doc)).toBe('contradicted');
    });
    it('a French permission against `interdite`', async () => {
      const doc = "# Règlement de voirie\n\nL'utilisation de gravier est interdite sur les pistes cyclables du quartier nord ;";
      expect(await verdict('Le gravier peut être utilisé sur les pistes cyclables du quartier nord.', doc)).toBe('contradicted');
    });
    it('`covered` against `excluded from`, a list after a colon', async () => {
      const doc = '# Ashby storage agreement\n\nThe following are excluded from this Agreement: fresh flowers, loose powders and any perishable samples.';
      expect(await verdict('Fresh flowers are covered by the Ashby storage agreement.', doc)).toBe('contradicted');
    });
    it('`soumises à la TVA` against `exonérées de TVA`, the rate left out', async () => {
      const doc = '# Tarifs du cabinet\n\nLes séances de rééducation orthophonique sont exonérées de TVA ;';
      expect(await verdict('Les séances de rééducation orthophonique sont soumises à la TVA de 20 %.', doc)).toBe('contradicted');
    });
    it('a charge against `at no charge`: contradicted, no longer supported', async () => {
      const doc = '# Frame workshop terms\n\n- Condition reports and photographs will be supplied with each framed item at no charge.';
      expect(await verdict('The workshop charges extra for condition reports and photographs.', doc)).toBe('contradicted');
    });
    it('`remboursé` against `ne sont pas remboursées`, one word of the claim said otherwise', async () => {
      const doc = '# Règlement de copropriété\n\nLes avances de trésorerie restent attachées aux lots et ne sont pas remboursées au copropriétaire en cas de vente.';
      expect(await verdict("L'avance de trésorerie est remboursée au copropriétaire qui vend son lot.", doc)).toBe('contradicted');
    });
    it('`included` against `not part of`, the subject held by the pronoun’s antecedent', async () => {
      const doc = '# Studio fees\n\nGrade exam fees are set by the board. They are not part of the monthly fee.';
      expect(await verdict('Grade exam fees are already included in the monthly fee.', doc)).toBe('contradicted');
    });
    it('controls: a condition, a negation with a time, the subject only in the document, the matter said both ways', async () => {
      const cond = '# House rules\n\nDogs are not allowed unless the warden agrees.';
      expect(await verdict('Residents may bring dogs into the house.', cond)).not.toBe('contradicted');
      const time = '# Site rules\n\nNo lorries are permitted on the service road after 08:00.';
      expect(await verdict('Lorries may use the service road during the whole day.', time)).not.toBe('contradicted');
      const invoice = '# Invoice — booth rental\n\nThe translators were hired directly by the client.\n\nTwo set-up days are charged because the rehearsal day is included.';
      expect(await verdict("The translators' fees are not included in the booth rental invoice.", invoice)).not.toBe('contradicted');
      const both = '# Gym rules\n\nTowels are included in the day pass but lockers are excluded.';
      expect(await verdict('Towels are excluded from the day pass.', both)).not.toBe('contradicted');
    });
  });

  describe('an amount of the claim’s frame, a word left to the document (amountFrameConflict)', () => {
    const claim = 'Les garanties financières pour la remise en état du site se montent à 680 000 €.';
    const head = '# Carrière des Essarts\n\nLe site couvre 40 hectares.\n\n';
    it('a verb of value said otherwise (`se montent à` / `s’élèvent à`), a word of the subject elsewhere in the document', async () => {
      expect(await verdict(claim, `${head}Les garanties financières de remise en état s'élèvent à 860 000 € pour la période 2024-2028.`)).toBe('contradicted');
    });
    it('controls: the claim’s amount stated elsewhere in the document, two rival values', async () => {
      const elsewhere = `${head}Les garanties financières de remise en état s'élèvent à 860 000 € pour la période 2024-2028.\n\nLe site a reçu 680 000 € de subventions.`;
      expect(await verdict(claim, elsewhere)).not.toBe('contradicted');
      expect(await verdict(claim, `${head}Les garanties financières de remise en état s'élèvent à 860 000 € ou 910 000 € selon la phase.`)).not.toBe('contradicted');
    });
  });
});
