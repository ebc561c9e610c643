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
 * Eleventh round of issue 26 (docs/quality.md, "Eleventh round: contradictions (vcontra3)"): slot alignment, a sentence
 * matching the claim on everything but one slot. Sentences written for these tests, none from a labelled set.
 */
describe('slot alignment (eleventh round, contradictions)', () => {
  describe('name slot: titles', () => {
    const doc =
      '# Convention de stage\n\n- **Enseignant référent à l\'école :** M. Bastien Coraly, maître de conférences.\n- **Tuteur dans l\'entreprise :** M. Julien Vernet, responsable commercial.';
    it('two names sharing only a title (`M.`) are two people: the field of the claim\'s role names another', async () => {
      expect(await verdict("L'enseignant référent à l'école est M. Julien Vernet.", doc)).toBe('contradicted');
      expect(await verdict("L'enseignant référent à l'école est M. Bastien Coraly.", doc)).toBe('supported');
    });
    it('in English too (`Dr`)', async () => {
      const en = '# Project charter\n\n- **Project lead:** Dr Helen Marsh, head of research.\n- **Sponsor:** Dr Owen Pike, finance director.';
      expect(await verdict('The project lead is Dr Owen Pike.', en)).toBe('contradicted');
      expect(await verdict('The project lead is Dr Helen Marsh.', en)).toBe('supported');
    });
  });

  describe('name slot: the subject\'s names left to the document', () => {
    const doc =
      '# Grant award letter\n\n**Project code:** GRN-44-B\n\nThe award is signed by Prof. Alice Varga.\n\nYour grant officer is Mr. Rhys Pendlebury, who will answer any questions.';
    it('the subject\'s code stands in the document, the stated name is replaced in the sentence', async () => {
      expect(await verdict('The grant officer for GRN-44-B is Prof. Alice Varga.', doc)).toBe('contradicted');
      expect(await verdict('The grant officer for GRN-44-B is Mr. Rhys Pendlebury.', doc)).toBe('supported');
    });
    it('a sentence naming another thing of the subject\'s kind decides nothing', async () => {
      const other = '# Grant award letter\n\n**Project code:** GRN-44-B\n\nThe award is signed by Prof. Alice Varga.\n\nThe grant officer of Northvale Trust is Mr. Rhys Pendlebury.';
      expect(await verdict('The grant officer for GRN-44-B is Prof. Alice Varga.', other)).not.toBe('contradicted');
    });
  });

  describe('amount or date slot: one subject modifier left to the context', () => {
    const doc =
      '# Training policy\n\n## Cancellations\n\n- Cancellations made less than 5 working days before the session are charged to the department at €150 per seat.';
    it('a modifier of the subject missing (`Late`), the amount in another currency: a contradiction', async () => {
      expect(await verdict('Late cancellations are charged to the department at £150 per seat.', doc)).toBe('contradicted');
    });
    it('the subject\'s head noun missing (`The deposit for …`) decides nothing', async () => {
      expect(await verdict('The deposit for a session is charged to the department at £150 per seat.', doc)).not.toBe('contradicted');
    });
    it('a qualifier the document tells apart decides nothing', async () => {
      const apart = `${doc}\n- Early cancellations are free of charge.`;
      expect(await verdict('Early cancellations are charged to the department at £150 per seat.', apart)).not.toBe('contradicted');
    });
  });
  describe('polarity slot: one word left out, the main verb reversed', () => {
    it('an antonym of the claim\'s main verb (`exclude` / `include`), a qualifier of the claim left out', async () => {
      const doc = '# Freight rate card\n\nShipping rates exclude customs duties and import taxes, which are paid by the consignee.';
      expect(await verdict('Shipping rates include customs duties at destination.', doc)).toBe('contradicted');
    });
    it('the claim\'s main verb negated (`cannot be combined`), a word of its subject left out', async () => {
      const doc = '# Trade terms\n\nPurifiers are delivered within 3 days.\n\nVolume discounts do not apply to spare parts sold by subscription, and cannot be combined with other promotions.';
      expect(await verdict('Volume discounts on purifiers can be combined with other promotions.', doc)).toBe('contradicted');
    });
    it('a condition in the sentence decides nothing', async () => {
      const doc = '# Freight rate card\n\nShipping rates exclude customs duties unless the consignee asks for delivered duty paid.';
      expect(await verdict('Shipping rates include customs duties at destination.', doc)).not.toBe('contradicted');
    });
  });
});
