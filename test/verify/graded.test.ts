import { describe, expect, it } from 'vitest';
import { paraphrasesOf, paraphraseStems } from '../../src/lib/language/paraphrase.js';
import { relatedOf } from '../../src/lib/language/wordnet.js';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { stemmerFor } from '../../src/modules/verify/text.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Fourth round of issue 26 (docs/verifier.md, "Graded support"): a claim is aligned to its evidence sentence with a
 * graded similarity. Its anchors (amounts, dates, names, codes) must all agree; its other words count by weight, a
 * word as itself above a WordNet synonym or derivation above the business paraphrase lexicon. Sentences written for
 * these tests, none from a labelled set.
 */
describe('graded support', () => {
  describe('the business paraphrase lexicon', () => {
    it('a time move said with another verb (postponed / moved) is supported when the date agrees, contradicted when not', async () => {
      const doc = 'The opening of the Harwell depot is moved from 6 October 2026 to 3 November 2026.';
      expect(await verdict('The opening of the Harwell depot was postponed to 3 November 2026.', doc)).toBe('supported');
      expect(await verdict('The opening of the Harwell depot was postponed to 10 November 2026.', doc)).toBe('contradicted');
    });

    it('report / notify and staff / employees stand for one another', async () => {
      const doc = 'Tenants must report a water leak to the landlord within 48 hours.';
      expect(await verdict('Tenants must notify the landlord of a water leak within 48 hours.', doc)).toBe('supported');
    });

    it('French: signaler / déclarer and salariés / personnel', async () => {
      const doc = 'Le personnel doit déclarer tout accident au responsable dans les 24 heures.';
      expect(await verdict('Les salariés doivent signaler tout accident au responsable dans les 24 heures.', doc)).toBe('supported');
    });

    it('groups are read per language with that language\'s stemmer, and light\'s word lookup is the shared groups', () => {
      const en = stemmerFor('en');
      const fr = stemmerFor('fr');
      expect(paraphraseStems('en', en).get(en('postpone'))?.has(en('delay'))).toBe(true);
      expect(paraphraseStems('en', en).get(en('terminate'))?.has(en('cancel'))).toBe(true);
      expect(paraphraseStems('fr', fr).get(fr('signaler'))?.has(fr('declarer'))).toBe(true);
      expect(paraphrasesOf('settled')).toContain('regle');
    });
  });

  describe('WordNet derivations', () => {
    it('a noun for its verb (payment / paid) counts as the word', async () => {
      expect(relatedOf('pay').derived).toContain('payment');
      const doc = 'The Corvin invoice must be paid within 30 days.';
      expect(await verdict('Payment of the Corvin invoice is due within 30 days.', doc)).toBe('supported');
    });
  });

  describe('what graded coverage does not let through', () => {
    it('a verb the sentence does not hold or render blocks support, even when the date agrees', async () => {
      const doc = 'The Corvin contract was signed on 31 May 2026.';
      expect(await verdict('The Corvin contract was terminated on 31 May 2026.', doc)).toBe('unverifiable');
      expect(await verdict('The Lisk printer was repaired in 2 days.', 'The Lisk printer was delivered in 2 days.')).toBe('unverifiable');
    });

    it('a missing subject blocks support, a missing low-weight qualifier does not', async () => {
      const doc = 'Permanent staff of the Brama plant receive a meal voucher of 9 EUR per shift.';
      expect(await verdict('Seasonal interns of the Brama plant receive a meal voucher of 9 EUR per shift.', doc)).toBe('unverifiable');
      expect(await verdict('Permanent staff of the Brama plant receive a meal voucher of 9 EUR per night shift.', doc)).toBe('supported');
    });

    it('a qualifier of high weight the sentence does not state blocks support', async () => {
      const doc = 'The Orla kettle stand weighs 1.2 kg.';
      expect(await verdict('The Orla kettle stand weighs 1.2 kg when fully assembled with its cable.', doc)).toBe('unverifiable');
    });
  });

  describe('facts of a move', () => {
    it('from … to …: the date after the claim\'s own preposition is the claim\'s', async () => {
      const doc = 'The Vela audit is moved from 2 March 2027 to 9 March 2027.';
      expect(await verdict('The Vela audit was moved to 9 March 2027.', doc)).toBe('supported');
      expect(await verdict('The Vela audit was moved from 2 March 2027.', doc)).toBe('supported');
    });
  });

  describe('rates over a period', () => {
    it('the same figure per month against per year is a conflict; another figure over another period is not compared', async () => {
      const doc = 'Interest on the Tamsworth loan accrues at a fixed rate of 4.8% per year.';
      expect(await verdict('Interest on the Tamsworth loan accrues at 4.8% per month.', doc)).toBe('contradicted');
      expect(await verdict('Interest on the Tamsworth loan accrues at 4.8% per year.', doc)).toBe('supported');
      const rows = '| Item | Amount |\n| --- | --- |\n| Annual fee for both lifts | 6 000,00 € |';
      expect(await verdict('The fee for the lifts is 250 € per lift per month.', rows)).toBe('unverifiable');
      expect(await verdict('La redevance est de 250 € HT par appareil et par mois.', rows)).toBe('unverifiable');
    });
  });

  describe('polarity said by a heading', () => {
    it('a list item under a heading that negates, lacking the claim\'s verb, does not oppose a negated claim', async () => {
      const doc = '## What the Corrin warranty does not cover\n\n- Kettles used commercially, for example by hotels or cafés.';
      expect(await verdict('The Corrin warranty does not cover kettles used by hotels.', doc)).not.toBe('contradicted');
    });
  });

  describe('names', () => {
    it('a longer form of a claim\'s name (`Larchmont Facility Services Ltd` for `Larchmont`) is not another name in place of a missing one', async () => {
      const doc = '# Order BC-3311\n\n| Role | Name | Company |\n| --- | --- | --- |\n| Account manager | Nadia Ferrel | Larchmont Facility Services Ltd |';
      expect(await verdict('Nadia Ferrel is Larchmont\'s account manager for the Orrin Street office.', doc)).not.toBe('contradicted');
    });

    it('the name of what the claim is about may be the document\'s, where the sentence names nothing else in its place', async () => {
      const doc = '# Subcontract — Harlow Pipework for the Denby Library\n\n**Parties:** Harlow Pipework and Denby Build.\n\nThe subcontract sum is £212,400, excluding VAT.';
      expect(await verdict('The subcontract sum for Harlow Pipework is £212,400 excluding VAT.', doc)).toBe('supported');
    });

    it('an acronym of the claim (CSE) the sentence does not hold blocks a graded support', async () => {
      const doc = 'Le référent sécurité désigné par la direction est Mme Laure Ambert, responsable technique.';
      expect(await verdict('Le référent sécurité désigné par le CSE est Mme Laure Ambert.', doc)).toBe('unverifiable');
    });
  });

  describe('names left to the document', () => {
    it('a name the document is about qualifies a claim whose subject the sentence names (elected secretary of the X meeting)', async () => {
      const doc = '# Minutes of the Larkhill Court general meeting\n\n**Owners present:** 14 of 20.\n\nThe meeting of the Larkhill Court owners opened at 18:00.\n\nMs Ines Varga is elected secretary of the meeting.';
      expect(await verdict('Ines Varga was elected secretary of the Larkhill Court general meeting.', doc)).toBe('supported');
    });

    it('a name the claim states is never left to the document (approved by X against a sentence naming no one)', async () => {
      const doc = '# Board minutes\n\n**Present:** Hannah Price, Omar Reyes.\n\nThe launch budget was approved.';
      expect(await verdict('The launch budget was approved by Hannah Price.', doc)).toBe('unverifiable');
    });
  });

  describe('forms', () => {
    it('an option left unticked states nothing', async () => {
      const doc = '## Décision\n\n☐ prononcer la réception sans réserve\n\n☒ prononcer la réception avec réserves';
      expect(await verdict('La réception a été prononcée sans réserve.', doc)).not.toBe('supported');
    });
  });
  describe('fifth round: precision (issue 26)', () => {
    it('a qualifier the document tells apart (gross salary stated elsewhere) blocks a support from a sentence lacking it', async () => {
      const doc = 'The monthly salary of the warehouse supervisor is £2,900. The gross salary is paid on the last day of the month.';
      expect(await verdict('The gross monthly salary of the warehouse supervisor is £2,900.', doc)).toBe('unverifiable');
    });

    it('a qualifier the document never uses may still be left out (annual fee against the fee)', async () => {
      expect(await verdict('The annual fee of the Harwell depot lease is £12,000.', 'The fee of the Harwell depot lease is £12,000.')).toBe('supported');
    });

    it('a sentence naming the claim\'s person but saying nothing of the claim itself, its context holding the rest, supports nothing', async () => {
      const doc = '# Kestrel Fabrication: minutes of the board meeting\n\nPriya Raman commented on the results.';
      expect(await verdict('The Kestrel board minutes were taken by Priya Raman.', doc)).toBe('unverifiable');
    });

    it('a heading naming the claim\'s subject does not state the name the claim states, left to the document', async () => {
      const heading = '# Kestrel Fabrication: minutes of the board meeting\n\n**Present:** Priya Raman, Daniel Osei.';
      expect(await verdict('The Kestrel board minutes were taken by Priya Raman.', heading)).toBe('unverifiable');
      const said = '# Kestrel Fabrication: minutes of the board meeting\n\nThe minutes were taken by Priya Raman.';
      expect(await verdict('The Kestrel board minutes were taken by Priya Raman.', said)).toBe('supported');
    });
  });
});
