import { describe, expect, it } from 'vitest';
import { entitiesOf } from '../../src/lib/language/entities.js';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { rolesOf } from '../../src/modules/verify/roles.js';
import { scopedWords } from '../../src/modules/verify/scope.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Sixth round of issue 26 (docs/quality.md, "Sixth round: contradictions"): a contradiction only where the sentence
 * states the claim's own fact otherwise. Sentences written for these tests, none from a labelled set.
 */
describe('contradictions', () => {
  describe('negation scope: a preposition of absence', () => {
    it('`without` negates its own object, not the clause before it nor what follows a conjunction', async () => {
      const doc = '# Data processing agreement\n\nThe Processor shall inform the Controller of a security breach without undue delay and in any case within 24 hours of discovering it.';
      expect(await verdict('The Processor must inform the Controller of a security breach within 24 hours of discovering it.', doc)).toBe('supported');
      expect(await verdict('The Processor must inform the Controller of a security breach within 48 hours of discovering it.', doc)).toBe('contradicted');
    });

    it('`sans` and `without` still negate their object', () => {
      const negated = (text: string) => scopedWords(text).filter((w) => w.negated).map((w) => w.w);
      expect(negated('Le paiement en trois fois est proposé sans frais pour les commandes.')).toEqual(['frais', 'pour', 'les', 'commandes']);
      expect(negated('Pets are allowed without deposit or fee, and in any room.')).toEqual(['deposit', 'or', 'fee']);
      expect(negated('Pets are not allowed in the rooms.')).toEqual(['pets', 'are', 'allowed', 'in', 'the', 'rooms']);
    });
  });

  describe('dates: what the preposition says of the date', () => {
    it('`depuis le` is where something starts, like `à compter du`, not the `le` of another event', async () => {
      const doc = '# Politique de télétravail\n\nVersion applicable à compter du 1er mars 2027, après consultation du comité social et économique le 9 février 2027.';
      expect(await verdict('La politique de télétravail est applicable depuis le 1er mars 2027.', doc)).toBe('supported');
      expect(await verdict('La politique de télétravail est applicable depuis le 9 février 2027.', doc)).toBe('contradicted');
    });
  });

  describe('dates stated as a possibility or under a condition', () => {
    it('an option (`may end this lease on`, `provided …`) is not the date of the claim\'s fact', async () => {
      const option = "# Lease of Bay 4\n\nThe Tenant may end this lease on **1 July 2030** by giving the Landlord six months' written notice, provided the rent has been paid in full.";
      expect(await verdict('The lease of Bay 4 ends on 30 June 2035.', option)).toBe('unverifiable');
    });

    it('a modal after the date leaves the date itself stated', async () => {
      const stated = '# Lease of Bay 4\n\nThis lease ends on **30 June 2035**, but the Tenant may renew it once.';
      expect(await verdict('The lease of Bay 4 ends on 30 June 2033.', stated)).toBe('contradicted');
    });
  });

  describe('a changed name beside a name left to the document', () => {
    it('of two names absent from the sentence, the one replaced by a name of its shape is changed, the other left to the document', async () => {
      const doc =
        '# Leave policy\n\nThis policy applies to every employee of Harwick.\n\n**Owner:** People team, Head of People, Moira Tallis\n\n' +
        'Payroll questions about leave pay go to the Payroll Lead, Dorian Fenstock.';
      expect(await verdict('Payroll questions about leave pay at Harwick go to Moira Tallis.', doc)).toBe('contradicted');
      expect(await verdict('Payroll questions about leave pay at Harwick go to Dorian Fenstock.', doc)).not.toBe('contradicted');
    });
  });

  describe('names in their role: who acts for whom', () => {
    const agreement =
      '# Supply agreement\n\nThis agreement is made between Harbury Tools Ltd (the Supplier) and Kelso Farms (the Customer).\n\n' +
      'Signed for the Supplier by **Marta Quinlan**, Director, and for the Customer by **Owen Pritchard**, Finance Manager.';

    it('reads `for <party> by <name>`, `on behalf of <party>:`, `pour le <party> :`, `au nom du <party> par`', () => {
      const roles = (text: string) => rolesOf(text, entitiesOf(text)).map((r) => [r.party.join(' '), r.name.text]);
      expect(roles('Signed for the Landlord by Simon Hale, and for the Tenant by Rita Okoye.')).toEqual([['landlord', 'Simon Hale'], ['tenant', 'Rita Okoye']]);
      expect(roles('Signed on behalf of the Supplier: Dr Anna Berg')).toEqual([['supplier', 'Anna Berg']]);
      expect(roles('Pour le Client : **Hélène Garnier**, gérante.')).toEqual([['client', 'Hélène Garnier']]);
      expect(roles('Fait au nom du bailleur par M. Julien Peyrac.')).toEqual([['bailleur', 'M. Julien Peyrac']]);
    });

    it('a name said to sign for another party than the claim says, where another name signs for it, is a contradiction', async () => {
      expect(await verdict('The supply agreement was signed for the customer by Marta Quinlan.', agreement)).toBe('contradicted');
    });

    it('a name signing for the party the claim says is in its role, whatever names stand beside it', async () => {
      expect(await verdict('The supply agreement was signed for the customer by Owen Pritchard.', agreement)).toBe('supported');
      expect(await verdict('The supply agreement was signed for the supplier by Marta Quinlan.', agreement)).toBe('supported');
    });

    it('a second name after the first for the same party is not another party\'s', async () => {
      const doc = '# Supply agreement\n\nSigned for the Supplier by **Marta Quinlan** and **Ivo Brandt**, Directors.';
      expect(await verdict('The supply agreement was signed for the supplier by Ivo Brandt.', doc)).not.toBe('contradicted');
    });

    it('the party a name acts for (`Pour le Client`) is a role the claim\'s party holds, not another name in its place', async () => {
      const doc = '# Contrat de service\n\nEntre Fromagerie Garnier (le Client) et Solvane SAS (le Prestataire).\n\nPour le Client : **Hélène Garnier**, gérante.';
      expect(await verdict('Hélène Garnier est la gérante de Fromagerie Garnier.', doc)).not.toBe('contradicted');
    });
  });
});
