import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { isFrenchVerb } from '../../src/modules/verify/french-verbs.js';
import { quantities } from '../../src/modules/verify/quantities.js';
import { stemmerFor } from '../../src/modules/verify/text.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Sixth round of issue 26 (docs/quality.md, "Sixth round: support"): true claims the earlier rounds left unverifiable,
 * each rule on sentences written for these tests, none from a labelled set.
 */
describe('number words', () => {
  it('a word that is a property of every object (constructor, toString) is a word, not a number', () => {
    const stem = stemmerFor('en');
    expect(quantities('The constructor hasOwnProperty toString valueOf of the crane is 12 m tall', stem)).toHaveLength(1);
    expect(quantities('The constructor pays twelve euros', stem).every((q) => Number.isFinite(q.value))).toBe(true);
  });
});

describe('sixth round: support', () => {
  describe('table columns', () => {
    const specs = ['# Hoist manual', '', '| Specification | HX-10 | HX-12 |', '|---|---|---|', '| Maximum reach (long boom) | 6.2 m | 7.1 m |'].join('\n');

    it('a column header naming the claim\'s model tells which value of the row is the claim\'s', async () => {
      expect(await verdict('The HX-10 has a maximum reach of 6.2 metres with the long boom.', specs)).toBe('supported');
      expect(await verdict('The HX-12 has a maximum reach of 7.1 metres with the long boom.', specs)).toBe('supported');
    });

    it('the other model\'s value against the claim\'s model is a conflict', async () => {
      expect(await verdict('The HX-10 has a maximum reach of 7.1 metres with the long boom.', specs)).toBe('contradicted');
    });

    it('a header word of the claim (before or after tax, insured or excess) picks the column', async () => {
      const prices = ['| Service | Prix HT | Prix TTC |', '|---|---|---|', '| Forfait de nettoyage mensuel | 400,00 € | 480,00 € |'].join('\n');
      expect(await verdict('Le forfait de nettoyage mensuel est de 400 € HT.', prices)).toBe('supported');
      expect(await verdict('Le forfait de nettoyage mensuel est de 480 € TTC.', prices)).toBe('supported');
      const cover = ['| Section | Cover | Sum insured | Excess |', '|---|---|---|---|', '| B | Office equipment | £12,000 | £100 |'].join('\n');
      expect(await verdict('The office equipment is insured for £12,000.', cover)).toBe('supported');
    });

    it('without a column header holding the claim\'s words, two values of one row leave the claim unclear', async () => {
      const row = ['| Item | Year 1 | Year 2 |', '|---|---|---|', '| Licence fee | €900 | €950 |'].join('\n');
      expect(await verdict('The licence fee is €950.', row)).toBe('unverifiable');
    });
  });

  describe('units', () => {
    it('a figure followed by a detached `m` is in metres, a currency before it makes it money', () => {
      const stem = stemmerFor('en');
      expect(quantities('| Lift height | 4.5 m |', stem)[0]).toMatchObject({ value: 4.5, unit: 'm', dimension: 'length' });
      expect(quantities('a budget of £1.2 m', stem)[0]).toMatchObject({ unit: 'GBP', dimension: 'money' });
    });
  });

  describe('restatements', () => {
    it('an amount after `soit` restates the clause before it and is about what that clause is about', async () => {
      const doc = 'Le syndic fixe la provision annuelle pour travaux à 4 % du budget, soit 1 880 €.';
      expect(await verdict('La provision annuelle pour travaux est de 1 880 €.', doc)).toBe('supported');
      expect(await verdict('La provision annuelle pour travaux est de 1 980 €.', doc)).toBe('contradicted');
    });
  });

  describe('names', () => {
    it('a name qualifying a noun the sentence holds (the Tamberly agreement) is left to its document', async () => {
      const doc = ['# Cleaning agreement', '', '**Provider:** Tamberly Services Ltd', '', 'Carpet shampooing and window cleaning are not part of this agreement.'].join('\n');
      expect(await verdict('Window cleaning is not part of the Tamberly agreement.', doc)).toBe('supported');
      expect(await verdict('Window cleaning is not part of the Ostrava agreement.', doc)).toBe('unverifiable');
    });

    it('a French preposition opening a sentence (Chez, Selon) is not part of the name after it', async () => {
      const doc = ['# Charte de télétravail — Morlaine Conseil', '', 'Une indemnité de **3,00 € par jour** de télétravail est versée avec le salaire.'].join('\n');
      expect(await verdict("Chez Morlaine, l'indemnité de télétravail est de 3,00 € par jour.", doc)).toBe('supported');
    });

    it('an acronym of common words (HT, TTC) is a word of the claim, read with its rendering, not a name', async () => {
      const doc = '**Montant des travaux :** **50 000 € HT**, soit **60 000 € TTC** (TVA 20 %)';
      expect(await verdict('Le montant des travaux est de 60 000 € TTC.', doc)).toBe('supported');
      expect(await verdict('Le montant des travaux est de 50 000 € HT.', doc)).toBe('supported');
    });
  });

  describe('negation', () => {
    it('`without` negates what follows it, not the clause before it', async () => {
      const doc = 'The Supplier may subcontract the delivery without the Buyer\'s written consent.';
      expect(await verdict('The Supplier may subcontract the delivery without the Buyer\'s written consent.', doc)).toBe('supported');
      const strict = 'The Supplier shall not subcontract the delivery without the Buyer\'s written consent.';
      expect(await verdict('The Supplier may subcontract the delivery without the Buyer\'s written consent.', strict)).not.toBe('supported');
    });
  });

  describe('dates', () => {
    it('a French date `fixée au` is the date the event is scheduled for', async () => {
      const doc = 'La prochaine réunion de chantier aura lieu le **mardi 9 mars 2027 à 14 h 00**, sur site.';
      expect(await verdict('La prochaine réunion de chantier est fixée au mardi 9 mars 2027.', doc)).toBe('supported');
    });
  });

  describe('graded support over several candidates', () => {
    it('when the best-covered sentence states another amount, the next one stating the claim\'s is read', async () => {
      const doc = [
        'Le marché prévoit une pénalité de **200 € par jour calendaire** de retard sur la date contractuelle.',
        "L'achèvement ayant été constaté le 4 mai 2026, le retard retenu est de **3 jours**, soit une pénalité de **600 €**.",
      ].join('\n\n');
      expect(await verdict('La pénalité de retard retenue est de 600 €.', doc)).toBe('supported');
    });
  });

  describe('support verbs', () => {
    it('give, reach, hold carry no fact of their own: the noun or the figure after them does', async () => {
      const loan = 'No personal guarantee is required from the partners.';
      expect(await verdict('The partners do not have to give a personal guarantee.', loan)).toBe('supported');
      expect(await verdict('The partners must give a personal guarantee.', loan)).not.toBe('supported');
      const specs = ['| Specification | PX-4 |', '|---|---|', '| Maximum operating pressure | 16 bar |'].join('\n');
      expect(await verdict('The PX-4 reaches a maximum operating pressure of 16 bar.', specs)).toBe('supported');
      expect(await verdict('The PX-4 reaches a maximum operating pressure of 18 bar.', specs)).toBe('contradicted');
    });
  });

  describe('French verbs', () => {
    it('after a preposition only an infinitive is a verb; names and number words never are', () => {
      expect(isFrenchVerb('payer', 'de')).toBe(true);
      expect(isFrenchVerb('rompre', 'sans')).toBe(true);
      expect(isFrenchVerb('maintenance', 'de')).toBe(false);
      expect(isFrenchVerb('toiture', 'de')).toBe(false);
      expect(isFrenchVerb('Planora', 'de')).toBe(false);
      expect(isFrenchVerb('cinq', 'de')).toBe(false);
      expect(isFrenchVerb('deux', 'a')).toBe(false);
      expect(isFrenchVerb('signé', 'est')).toBe(true);
      expect(isFrenchVerb('adopté', 'a')).toBe(true);
    });
  });
});
