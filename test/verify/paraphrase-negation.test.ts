import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { hasRestriction } from '../../src/modules/verify/scope.js';
import { stemmerFor } from '../../src/modules/verify/text.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Seventh round of issue 26 (docs/quality.md, "Seventh round: paraphrase and negation"): a claim stating a document's
 * fact in other words, or its opposite. Sentences written for these tests, none from a labelled set.
 */
describe('paraphrase and negation', () => {
  describe('lemmas before stems', () => {
    it('an English irregular form stems as its verb (`held`, `paid`, `sold`)', () => {
      const stem = stemmerFor('en');
      expect(stem('held')).toBe(stem('hold'));
      expect(stem('paid')).toBe(stem('pays'));
      expect(stem('sold')).toBe(stem('selling'));
      expect(stem('saw')).not.toBe(stem('see'));
    });

    it('a French irregular form stems as its infinitive (`repris` / `reprend`, `rompt` / `rompre`)', () => {
      const stem = stemmerFor('fr');
      expect(stem('repris')).toBe(stem('reprend'));
      expect(stem('rompt')).toBe(stem('rompre'));
      expect(stem('couvert')).toBe(stem('couvre'));
      // `compris` is *included*, not a form of `comprendre`.
      expect(stem('comprises')).not.toBe(stem('comprend'));
    });

    it('a folded French feminine participle stems as its masculine (`rejetée` / `rejeté`)', () => {
      const stem = stemmerFor('fr');
      expect(stem('rejetee')).toBe(stem('rejete'));
      expect(stem('approuvees')).toBe(stem('approuve'));
    });

    it('a French claim in the present is supported by the participle of the same verb', async () => {
      const doc = '# Conditions de retour\n\nLes cartouches d’encre entamées ne sont pas reprises par le fournisseur.';
      expect(await verdict('Le fournisseur ne reprend pas les cartouches d’encre entamées.', doc)).toBe('supported');
    });
  });

  describe('a word meaning a negation against its positive counterpart', () => {
    it('`interdit` contradicts `permis` when the rest aligns', async () => {
      const doc = '# Règlement intérieur\n\nIl est interdit de fumer dans les ateliers.';
      expect(await verdict('Il est permis de fumer dans les ateliers.', doc)).toBe('contradicted');
    });

    it('`prohibited` contradicts `allowed`; `not prohibited` does not', async () => {
      expect(await verdict('Pets are allowed in the guest rooms.', '# House rules\n\nPets are prohibited in the guest rooms.')).toBe('contradicted');
      expect(await verdict('Pets are allowed in the guest rooms.', '# House rules\n\nPets are not prohibited in the guest rooms.')).not.toBe('contradicted');
    });
  });

  describe('exceptions', () => {
    it('`à l’exception de` and `with the exception of` are exceptions', () => {
      expect(hasRestriction('le remplacement des pièces, à l’exception de la carte de commande')).toBe(true);
      expect(hasRestriction('all parts, with the exception of the battery')).toBe(true);
    });
  });

  describe('a pronoun subject takes the previous sentence as its context', () => {
    it('`It still works` is about the previous sentence’s subject', async () => {
      const doc = '# Release notes 7.1\n\nThe legacy CSV importer is deprecated in this version. It still works with files saved by older versions.';
      expect(await verdict('The legacy CSV importer still works with files saved by older versions.', doc)).toBe('supported');
    });

    it('`Elle ne s’applique pas` contradicts the claim that the previous sentence’s discount applies', async () => {
      const doc = '# Conditions générales de vente\n\nLa remise de 5 % s’applique aux commandes de plus de 200 €. Elle ne s’applique pas aux frais de port.';
      expect(await verdict('La remise de 5 % s’applique aussi aux frais de port.', doc)).toBe('contradicted');
    });
  });

  describe('names left to the document', () => {
    it('a subject’s name only the document holds does not prevent a reversed statement from contradicting', async () => {
      const doc = '# Règlement intérieur d’Orvalis Conseil\n\nIl est interdit de fumer dans les ateliers.';
      expect(await verdict('Chez Orvalis Conseil, il est permis de fumer dans les ateliers.', doc)).toBe('contradicted');
    });
  });

  describe('a preposition of absence on both sides', () => {
    it('`without consent` stated by both leaves the verb to decide: `shall not transfer` against `may transfer`', async () => {
      const doc = '# Data processing agreement\n\nThe Processor shall not transfer personal data outside the United Kingdom without the Controller’s written consent.';
      expect(await verdict('The Processor may transfer personal data outside the United Kingdom without the Controller’s consent.', doc)).toBe('contradicted');
    });
  });
});
