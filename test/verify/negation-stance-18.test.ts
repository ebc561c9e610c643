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
 * Eighteenth round of issue 26 (docs/quality.md, "Eighteenth round: negation and paraphrase (vneg)"): a yes-or-no matter said the
 * same way by another word (stanceAgreed, the support twin of stanceReversed), the matter said by a phrase (`not part of`, `outside
 * the scope of`), a list's negated lead-in, a bracketed figure. Sentences written for these tests, none from a labelled set. Each
 * case fails on main (ebade39); each control holds on both.
 */
describe('negation and paraphrase (eighteenth round)', () => {
  describe('a matter said the same way by another word (stanceAgreed)', () => {
    it('`not part of` against `not included in`, the document naming the school', async () => {
      const doc = '# Brackley Violin School — Fees Policy 2026\n\n## Fees\n\nConcert ticket costs are not included in tuition fees.';
      expect(await verdict('Concert ticket costs are not part of the Brackley Violin School tuition fees.', doc)).toBe('supported');
      // Control: another thing's negation does not decide.
      expect(await verdict('Sheet music costs are not part of the Brackley Violin School tuition fees.', doc)).not.toBe('supported');
    });
    it('`not covered by` against `are excluded`', async () => {
      const doc = '# Marlow Lift Services — Maintenance Quotation\n\n## Exclusions\n\nLift shaft lighting upgrades and pit waterproofing are excluded.';
      expect(await verdict('Pit waterproofing is not covered by the Marlow Lift Services quotation.', doc)).toBe('supported');
    });
    it('French `non inclus` against `ne sont pas compris`', async () => {
      const doc = '# Devis Menuiseries Dubreuil\n\n## Conditions\n\nLes travaux de plâtrerie ne sont pas compris dans ce devis.';
      expect(await verdict('Les travaux de plâtrerie ne sont pas inclus dans le devis de Menuiseries Dubreuil.', doc)).toBe('supported');
    });
    it('`outside the scope of` against `not covered by this policy`', async () => {
      const doc = '# Northfield Archive — Reading Room Policy\n\n## Scope\n\nThe map store is managed separately and is not covered by this policy.';
      expect(await verdict('The map store is outside the scope of the Northfield reading room policy.', doc)).toBe('supported');
    });
    it('an exception of another thing leaves the rule said of the claim’s', async () => {
      const doc = '# Tallis warranty\n\n3.1 The warranty does not cover: cracked screens, water damage and batteries (other than the built-in cell).';
      expect(await verdict('Cracked screens are not covered by the Tallis warranty.', doc)).toBe('supported');
      // Control: the exception is the claim's thing.
      expect(await verdict('The built-in cell is not covered by the Tallis warranty.', doc)).not.toBe('supported');
    });
    it('a condition in the sentence keeps the support away', async () => {
      const doc = '# Harbour rules\n\nDinghies are not allowed on the pontoon if the harbour master has not registered them.';
      expect(await verdict('Dinghies are not permitted on the pontoon.', doc)).not.toBe('supported');
    });
  });

  describe('a list a negated sentence introduces', () => {
    it('an item under `The following are not returnable:` says it is not returnable', async () => {
      const doc = '# Brantley Tiles — Returns\n\nFull boxes may be returned within 30 days. The following are not returnable under any circumstances:\n\n- tiles that have been cut or laid;\n- special-order glazes.';
      expect(await verdict('Tiles that have been cut cannot be returned to Brantley.', doc)).toBe('supported');
    });
    it('a positive lead-in under a mixed heading is no negation', async () => {
      const doc = "# Sorties glacier\n\n## Ce qui est compris et ce qui ne l'est pas\n\nLe prix comprend :\n- l'encadrement par un guide diplômé ;\n- le prêt des crampons.";
      expect(await verdict("Le prêt des crampons n'est pas compris dans le prix.", doc)).not.toBe('supported');
    });
  });

  describe('a figure in brackets is an aside', () => {
    it('`(28,50 € par personne) n’est pas comprise` still says the matter', async () => {
      const doc = '# Club de randonnée — Cotisation\n\nLa licence fédérale (28,50 € par personne) n’est pas comprise dans la cotisation.';
      expect(await verdict('La licence fédérale est comprise dans la cotisation du club.', doc)).toBe('contradicted');
    });
  });
});
