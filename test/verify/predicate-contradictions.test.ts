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
 * Twelfth round of issue 26 (docs/quality.md, "Twelfth round: contradictions by predicate (vcontra4)"): the claim's frame
 * (subject, relation, object, figures) aligned on the sentence's, one slot given another value of the same kind and role.
 * Sentences written for these tests, none from a labelled set.
 */
describe('contradictions by predicate (twelfth round)', () => {
  describe('name slot: one word of a name changed', () => {
    const doc = '# Harbour ferry timetable\n\nThe Gullwing ferry is the island service for Port Ellery and the Lower Fenwick, sailing twice a day.';
    it('a two-word name with one word changed at the same place is another name, not the same one written longer', async () => {
      expect(await verdict('The Gullwing ferry is the island service for Port Ellery and the Upper Fenwick.', doc)).toBe('contradicted');
      expect(await verdict('The Gullwing ferry is the island service for Port Ellery and the Lower Fenwick.', doc)).toBe('supported');
    });
    it('the changed name is the one in the slot, before the title beside it', async () => {
      const approved = '# Refund note RF-7710\n\n## Authorisation\n\nRefund approved by **Nadia Crane**, Finance Controller, on 3 May 2026.\n\nOrder questions stay with **Nadia Crowe**, Account Manager.';
      expect(await verdict('Refund note RF-7710 was approved by Nadia Crowe.', approved)).toBe('contradicted');
    });
    it('a name written longer (one word more) is the same name', async () => {
      const longer = '# Harbour ferry timetable\n\nThe Gullwing ferry is the island service for Port Ellery and Fenwick Bay, sailing twice a day.';
      expect(await verdict('The Gullwing ferry is the island service for Port Ellery and Fenwick.', longer)).not.toBe('contradicted');
    });
  });

  describe('figure slot: the claim\'s agent and verb in the sentence, the rest in its document', () => {
    const doc = '# Kennel boarding form\n\n**Dog\'s name:** Pepper\n\nI agree to the boarding terms above.\n\nSigned: Harriet Lowe, 9 April 2026.';
    it('a date of the claim\'s agent and verb, its stated name left to the document: a contradiction', async () => {
      expect(await verdict('Harriet Lowe signed the boarding form for Pepper on 16 April 2026.', doc)).toBe('contradicted');
      expect(await verdict('Harriet Lowe signed the boarding form for Pepper on 9 April 2026.', doc)).not.toBe('contradicted');
    });
    it('a sentence naming another of the kind decides nothing', async () => {
      const other = '# Kennel boarding form\n\n**Dog\'s name:** Pepper\n\nSigned: Harriet Lowe for Biscuit, 9 April 2026.';
      expect(await verdict('Harriet Lowe signed the boarding form for Pepper on 16 April 2026.', other)).not.toBe('contradicted');
    });
  });

  describe('a label with an aside before its colon', () => {
    const doc = '# Riverside FM sponsorship rates\n\n## Sponsorship\n\n- Tide reports (12 per weekday): £640 per month\n- Road news (8 per weekday): £900 per month';
    it('the label and its aside are what the value is said of', async () => {
      expect(await verdict('Sponsoring the tide reports on Riverside FM costs £900 per month.', doc)).toBe('contradicted');
      expect(await verdict('Sponsoring the tide reports on Riverside FM costs £640 per month.', doc)).toBe('supported');
    });
  });

  describe('hedges are no slot of the frame', () => {
    const doc = '# Boiler servicing\n\n## Annual service\n\nA standard boiler service takes about 50 minutes.';
    it('an adverb and an approximation before the figure left out: the figure in conflict', async () => {
      expect(await verdict('A standard boiler service usually takes around three hours.', doc)).toBe('contradicted');
    });
    it('a word of the frame left out besides the hedges (`gas`) decides nothing', async () => {
      expect(await verdict('A standard gas boiler service usually takes around three hours.', doc)).not.toBe('contradicted');
    });
  });

  describe('a record field whose label holds the claim\'s subject', () => {
    const doc = '# Contrat d\'entretien des chaudières\n\n**Prestataire :** Thermique Valmont SAS\n\n## Interlocuteurs\n\n- Responsable de zone chez le prestataire : Mme Claire Dutertre.\n- Technicien attitré : M. Hugo Lemaire.';
    it('the field states another name in the claim\'s slot', async () => {
      expect(await verdict('La responsable de zone de Thermique Valmont pour le contrat est M. Hugo Lemaire.', doc)).toBe('contradicted');
    });
    it('the field\'s own name agrees', async () => {
      expect(await verdict('La responsable de zone de Thermique Valmont pour le contrat est Mme Claire Dutertre.', doc)).not.toBe('contradicted');
    });
  });

  describe('role test: a date of the other end', () => {
    it('a date said with an antonym of the claim\'s event word is no conflict', async () => {
      const doc = '# Office Cleaning Services Agreement\n\n**Agreement reference:** CL-2031\n\n**Term:** 24 months, ending 31 May 2027\n\n## Signatures\n\nSigned for Brightway Cleaning Ltd: **Maria Velez**, Director';
      expect(await verdict('The Brightway cleaning agreement starts on 1 June 2025 and lasts two years.', doc)).not.toBe('contradicted');
    });
  });
});
