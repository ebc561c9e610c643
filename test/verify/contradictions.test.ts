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
});
