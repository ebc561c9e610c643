import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { readClaim } from '../../src/lib/language/entities.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Seventh round of issue 26 (docs/quality.md, "Seventh round: document structure"): a claim whose document states
 * (or contradicts) its amount, date or name, left unverifiable because the subject is named only in the document's
 * head, a table's header, or a French elided form. Sentences written for these tests, none from a labelled set.
 */
describe('seventh round: document structure', () => {
  describe("the document's head names (its parties) are every sentence's context", () => {
    const contract = [
      '# Maintenance Agreement',
      '',
      '**Between:** Harwell Dental Practice, 3 Mill Lane, Exeter',
      '**And:** Brackenfield Facilities Ltd',
      '',
      '## 1. Charges',
      '',
      'The monthly maintenance fee is £1,250.',
      '',
      'The annual inspection visit takes place on 5 May 2026.',
      '',
      '## 2. Contacts',
      '',
      'Service requests are handled by the contract manager, Ines Folarin.',
    ].join('\n');

    it('a date of a party named only in the head is compared: another date of the same event is a conflict', async () => {
      expect(await verdict("Harwell Dental Practice's annual inspection visit takes place on 5 May 2026.", contract)).toBe('supported');
      expect(await verdict("Harwell Dental Practice's annual inspection visit takes place on 12 May 2026.", contract)).toBe('contradicted');
    });

    // Eighth round: another amount is a conflict too. The seventh round left it unverifiable (which party's amount it is, the
    // sentence does not say) on one wrong conflict of tuning-6, which was a year read as an amount (units-subjects.test.ts).
    it('an amount of a party named only in the head supports, and another amount is a conflict', async () => {
      expect(await verdict("Harwell Dental Practice's monthly maintenance fee is £1,250.", contract)).toBe('supported');
      expect(await verdict("Harwell Dental Practice's monthly maintenance fee is £1,400.", contract)).toBe('contradicted');
    });

    it('a name the claim states is not taken from the head: a party is not who acts in the sentence', async () => {
      expect(await verdict('Service requests are handled by the contract manager, Brackenfield Facilities.', contract)).not.toBe('supported');
    });

    it('a document without a title has no head names (a chunk): a party it mentions is left to the document', async () => {
      const chunk = contract.replace('# Maintenance Agreement\n', '');
      // Eighth round: left to the document for a conflict as for a support (it was unverifiable, as was the conflict above).
      expect(await verdict("Harwell Dental Practice's monthly maintenance fee is £1,400.", chunk)).toBe('contradicted');
      expect(await verdict("Harwell Dental Practice's monthly maintenance fee is £1,400.", '## 1. Charges\n\nThe monthly maintenance fee is £1,250.')).toBe('unverifiable');
    });
  });

  describe('French elided articles before a name', () => {
    it("`d'Ardelis` is the name Ardelis, `l'Imprimerie Gautier` the name Imprimerie Gautier", () => {
      expect(readClaim("Le CSE d'Ardelis Conseil a rendu son avis.", 'fr').entities[0]!.words).toEqual(['cse', 'ardelis', 'conseil']);
      expect(readClaim("La facture a été émise par l'Imprimerie Gautier.", 'fr').entities.map((e) => e.text)).toContain('Imprimerie Gautier');
    });
  });

  describe('a table row is read with its column headers', () => {
    it("an acronym of the claim (VAT) in the row's column header is the row's", async () => {
      const table = ['# Cleaning services', '', '**Client:** Norbury Veterinary Centre', '', '## Charges', '', '| Item | Charge (excluding VAT) |', '|---|---|', '| Daily cleaning, all rooms | £3,100 per month |'].join('\n');
      expect(await verdict('Norbury Veterinary Centre pays £3,100 a month excluding VAT for daily cleaning of all rooms.', table)).toBe('supported');
    });
  });

  describe('dates', () => {
    it('a date said of a moment is not compared with the start of a span (`du … au …`): the span is another thing\'s', async () => {
      const minutes = ['# Procès-verbal du conseil syndical', '', "Le conseil renouvelle le mandat du syndic pour un an, du 3 mars 2026 au 2 mars 2027."].join('\n');
      expect(await verdict('Le conseil syndical a renouvelé le mandat du syndic le 1er mars 2026.', minutes)).not.toBe('contradicted');
    });

    it("a sentence stating the claim's exact date outweighs a conflicting date of another sentence", async () => {
      const minutes = [
        '# Minutes of the annual meeting',
        '',
        '**Date:** 14 October 2026',
        '',
        '## Budget',
        '',
        'The annual meeting approved the budget and noted the signature, on 2 June 2026, of the lift contract.',
      ].join('\n');
      expect(await verdict('The annual meeting was held on 14 October 2026.', minutes)).toBe('supported');
    });

    it('an antonym in a sentence without the claim\'s date is about the other end of the thing', async () => {
      const terms = ['# Membership terms', '', 'The deposit is refunded within 30 days after the end of the membership.'].join('\n');
      expect(await verdict('The membership starts on 1 October 2026.', terms)).toBe('unverifiable');
    });
  });

  describe('French function words', () => {
    it('`se` (se sont élevées) and `au-delà` carry no fact of their own', async () => {
      const accounts = ['# Comptes', '', "Les dépenses de l'exercice 2025 s'élèvent à 46 215 €."].join('\n');
      expect(await verdict("Les dépenses de l'exercice 2025 se sont élevées à 45 000 €.", accounts)).toBe('contradicted');
      const rates = ['# Tarifs', '', 'Le stockage coûte 18 € par palette et par jour après la franchise.'].join('\n');
      expect(await verdict('Au-delà de la franchise, le stockage coûte 18 € par palette et par jour.', rates)).toBe('supported');
    });
  });
});
