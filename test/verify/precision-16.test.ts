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
 * Sixteenth round of issue 26 (docs/quality.md, "Sixteenth round: precision on the fresh sets (vprec6)"): rules made stricter
 * where they read a sentence about another thing or another person. Documents written for these tests, none from a labelled
 * set. Each case fails on main (1d33b90); each control passes on both.
 */
describe('precision (sixteenth round, vprec6)', () => {
  describe('a negation in a sentence sharing only the claim’s verb, the rest held by its title', () => {
    const doc =
      '# Harbour Lane Planetarium — School Visit Booking Terms 2026–27\n\n## 7. What is not included\n\n- Pupils’ coats and bags are not covered by the Planetarium’s insurance.\n- Packed lunches are brought by the school.\n';
    it('`Pupils’ coats … are not covered` does not reverse `The booking terms cover school visits …`', async () => {
      expect(await verdict('The booking terms cover school visits from 1 September 2026 to 31 July 2027.', doc)).not.toBe('contradicted');
    });
    it('control: a negation of the claim’s own statement is still a contradiction', async () => {
      const own = '# Harbour Lane Library — Room Booking Terms 2026\n\n## 2. Rooms\n\nThe Library does not hire out the reading room.\n';
      expect(await verdict('The Library hires out the reading room.', own)).toBe('contradicted');
    });
  });

  describe('a negated claim whose denied thing the sentence lacks', () => {
    const doc = '# Comité des fêtes de Saint-Aubin — Procès-verbal\n\n## 2. Kermesse du village 2026\n\nLa kermesse aura lieu le **samedi 13 juin 2026** sur la place de la mairie.\n';
    it('`La kermesse aura lieu …` does not reverse `Il n’y aura pas de tombola à la kermesse du village en 2026`', async () => {
      expect(await verdict('Il n’y aura pas de tombola à la kermesse du village en 2026.', doc)).not.toBe('contradicted');
    });
  });

  describe('the claim’s subject person held only by the document’s head names, another person named in the sentence', () => {
    const doc =
      '# Tour Terms — Wexford Community Choir\n\nHarbourline Tours Ltd, Chapel Yard, Ashwell. Tour leader: Peter Quinlan. Musical director: Ms Rosa Kettering.\n\n## 2. The tour\n\n**Musical director:** Ms Rosa Kettering\n';
    it('`Musical director: Ms Rosa Kettering` does not support `Peter Quinlan is the musical director`', async () => {
      expect(await verdict('Peter Quinlan is the musical director for the choir tour.', doc)).not.toBe('supported');
    });
    it('control: the person the sentence names is still supported', async () => {
      expect(await verdict('Ms Rosa Kettering is the musical director for the choir tour.', doc)).toBe('supported');
    });
  });

  describe('a courtesy title is no word of the name', () => {
    const doc =
      '# Compte rendu du conseil d’école\n\n**Présents :** Mme Claire Dumas, directrice ; M. Julien Garnier ; M. Paul Meunier.\n\n**Secrétaire de séance :** M. Paul Meunier, enseignant de CE2.\n';
    it('`Secrétaire de séance : M. Paul Meunier` does not support `M. Julien Garnier était le secrétaire de séance`', async () => {
      expect(await verdict('M. Julien Garnier était le secrétaire de séance du conseil d’école.', doc)).not.toBe('supported');
    });
    it('control: `M. Paul Meunier était le secrétaire de séance` is still supported', async () => {
      expect(await verdict('M. Paul Meunier était le secrétaire de séance du conseil d’école.', doc)).toBe('supported');
    });
  });
});
