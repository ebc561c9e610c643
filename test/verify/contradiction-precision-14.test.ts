import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { scopedWords } from '../../src/modules/verify/scope.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/** The words of a text a negation governs. */
const negatedWords = (text: string) => scopedWords(text).filter((w) => w.negated).map((w) => w.w);

/**
 * Fourteenth round of issue 26 (docs/quality.md, "Fourteenth round: contradicted precision (vcontra5)"): the structures behind
 * the wrong contradictions of the development sets. Sentences written for these tests, none from a labelled set.
 */
describe('contradicted precision (fourteenth round, vcontra5)', () => {
  describe('a negation word that is no negation of the clause', () => {
    it('`par personne` is the noun person, not `nobody`', async () => {
      const doc =
        '# Musée Orlan\n\n## Tarifs\n\n| Sortie | Durée | Niveau | Prix par personne |\n|---|---|---|---|\n| Visite libre du musée Orlan | 1 heure | Facile | 8 € |\n| Visite guidée du musée Orlan | 2 heures | Facile | 12 € |';
      expect(await verdict('La visite guidée du musée Orlan coûte 12 € par personne.', doc)).not.toBe('contradicted');
      expect(negatedWords('La visite coûte 12 € par personne.')).toEqual([]);
    });
    it('`personne` with `ne` still negates its clause', () => {
      expect(negatedWords('Personne n’est admis dans la réserve.')).toContain('admis');
    });
    it('a `non-` prefix negates the phrase it opens, not the clause’s verb', async () => {
      const doc = '# Orwell hall hire\n\nA non-refundable advance deposit of £40 is required to book the hall.';
      expect(await verdict('Orwell requires a £40 advance deposit to book the hall.', doc)).not.toBe('contradicted');
      expect(negatedWords('A non-refundable advance deposit of £40 is required to book the hall.')).not.toContain('required');
    });
    it('a `non-` prefix against the claim’s own word still contradicts', async () => {
      const doc = '# Orwell hall hire\n\nThe £40 advance deposit for the Orwell hall is non-refundable.';
      expect(await verdict('The £40 advance deposit for the Orwell hall is refundable.', doc)).toBe('contradicted');
    });
  });

  describe('a negative quantifier as a verb’s object', () => {
    it('`costs nothing` does not deny the borrowing it prices (`at no charge` says the same)', async () => {
      const doc = '# Orwell climbing school\n\nHelmets can be hired for climbing courses at no charge.';
      expect(await verdict('Hiring a helmet on a climbing course costs nothing.', doc)).not.toBe('contradicted');
      expect(negatedWords('Hiring a helmet costs nothing.')).toEqual(['costs']);
    });
    it('a field’s value `none` still denies its whole label', async () => {
      const doc = '# Orwell van\n\n| Feature | Orwell van |\n|---|---|\n| Heated seats | none |';
      expect(await verdict('The Orwell van has heated seats.', doc)).toBe('contradicted');
    });
  });

  describe('`not … without` is a requirement, not a denial', () => {
    it('`may not give a refund without approval` agrees with `requires approval`', async () => {
      const doc = '# Orwell shop returns\n\nAny refund above £50 requires the manager’s written approval.';
      expect(await verdict('The shop may not give a refund above £50 without the manager’s written approval.', doc)).not.toBe('contradicted');
      expect(negatedWords('may not give a refund without the manager’s approval')).not.toContain('approval');
    });
    it('`may give … without approval` against `may not give … without approval` still contradicts', async () => {
      const doc = '# Orwell shop returns\n\nThe Orwell shop may not give refunds above £50 without the manager’s approval.';
      expect(await verdict('The Orwell shop may give refunds above £50 without the manager’s approval.', doc)).toBe('contradicted');
    });
  });

  describe('a record field’s label is no name in place of the claim’s', () => {
    it('`**Incoterm:** DAP Hamburg (… the consignee)` names no consignee', async () => {
      const doc = '# Freight quotation\n\n- **Origin:** Port of Shanghai\n- **Incoterm:** DAP Hamburg (duties paid by the consignee)\n- **Transit:** 34 days';
      expect(await verdict('The consignee in Hamburg is Lindqvist Marine Supplies.', doc)).not.toBe('contradicted');
    });
    it('a name with one word changed in a label is still the claim’s name replaced', async () => {
      expect(await verdict('The Orwell invoice was approved by Fiona Drake.', '# Orwell invoice\n\nFiona Blake: approved the Orwell invoice.')).toBe('contradicted');
    });
  });

  describe('an amount conflict where another line states the claim’s amount', () => {
    it('another row with more words (`Carte 10 entrées adulte`) is another line than `Entrée adulte`', async () => {
      const doc =
        '# Piscine Orlan — tarifs\n\n| Tarif | Résidents | Non-résidents |\n|---|---|---|\n| Entrée adulte | 4,40 € | 6,10 € |\n| Entrée enfant | 2,80 € | 3,90 € |\n| Carte 10 entrées adulte | 38,00 € | 52,00 € |';
      expect(await verdict('Un non-résident paie 6,10 € pour une entrée adulte à la piscine Orlan.', doc)).not.toBe('contradicted');
    });
    it('a deposit per set is not the rate card’s price of the set', async () => {
      const doc =
        '# Orlan Kayak Hire\n\n## Rates\n\n| Package | 1 day | 3 days | 6 days |\n|---|---|---|---|\n| Touring kayak (Prijon Kodiak) | €45 | €120 | €210 |\n| Standard kayak (Dagger Zydeco) | €35 | €90 | €160 |\n\n## Deposit\n\nA card pre-authorisation of €400 per touring kayak and €250 per standard or junior kayak is taken as a deposit.';
      expect(await verdict('A standard kayak costs €90 for three days at Orlan.', doc)).not.toBe('contradicted');
    });
    it('the claim’s amount on another milestone’s row does not stop the conflict on the claim’s milestone', async () => {
      const doc =
        '# Orlan subcontract\n\n## Payment schedule\n\n| Milestone | Work | Date | Amount |\n|---|---|---|---|\n| M3 | Heat pumps installed | 4 September 2026 | £136,000 |\n| M4 | Second fix and balancing | 30 October 2026 | £92,100 |';
      expect(await verdict('Milestone M3 of the Orlan subcontract is worth £92,100.', doc)).toBe('contradicted');
    });
  });
});
