import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { titlesOf } from '../../src/modules/verify/titles.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Eighteenth round of issue 26 (docs/quality.md, "Eighteenth round: contradicted values and names (vcontra)"): a compound
 * measure (`45-minute`) read as the amount it is, not as a code; a title of more than six words; a record field naming several
 * people, one of them another. Sentences written for these tests, none from a labelled set.
 */
describe('contradicted values and names (eighteenth round)', () => {
  describe('a compound measure is an amount, not a code', () => {
    const doc = '# Fernwell Swim School — policies\n\n## Fees\n\n| Lesson length | Fee per lesson | Recommended for |\n|---|---|---|\n| 30 minutes | £14 | Starters |\n| 60 minutes | £26 | Improvers |';
    it("another value in the row of the claim's own measure contradicts", async () => {
      expect(await verdict('A 60-minute lesson at Fernwell costs £29.', doc)).toBe('contradicted');
    });
    it("the row's own value supports, another row's value does not contradict", async () => {
      expect(await verdict('A 60-minute lesson at Fernwell costs £26.', doc)).toBe('supported');
      expect(await verdict('A 60-minute lesson at Fernwell costs £14.', doc)).not.toBe('contradicted');
    });
    it('a compound measure in a sentence', async () => {
      const terms = '# Cobalt Audio warranty\n\nCustomers may buy one extension of 24 months for $149 per speaker before the standard warranty ends.';
      expect(await verdict('The 24-month warranty extension costs $179 per speaker.', terms)).toBe('contradicted');
      expect(await verdict('The 24-month warranty extension costs $149 per speaker.', terms)).not.toBe('contradicted');
    });
  });

  describe('a title of more than six words', () => {
    it('a title said with its possessor is read (French, seven words)', () => {
      const text = "Mme Odile Ferrand était la trésorière du comité des fêtes d'Arzal.";
      expect(titlesOf(text, { start: 0, end: 17 })).toEqual([['tresorier', 'comite', 'fete', 'arzal']]);
    });
    it('the same title held by another name contradicts; the holder supports', async () => {
      const doc =
        "# Compte rendu du comité des fêtes d'Arzal du 3 mars 2026\n\n**Présents :** M. Paul Garnier, adjoint au maire chargé des affaires culturelles ; 14 bénévoles.\n**Secrétaire de séance :** Mme Julie Morvan, bénévole.\n\nLe comité fixe la date de la fête du port au 12 juillet 2026.";
      expect(await verdict('M. Paul Garnier était le secrétaire de séance du comité des fêtes.', doc)).toBe('contradicted');
      expect(await verdict('Mme Julie Morvan était le secrétaire de séance du comité des fêtes.', doc)).toBe('supported');
    });
  });

  describe('a record field naming several people', () => {
    const doc = '# Chalet Les Mélèzes — conditions de location\n\n**Propriétaires :** Claire et Julien Rocheblave-Durand\n\nLe chalet accueille 8 personnes.';
    it('the other names kept, one changed: contradicted', async () => {
      expect(await verdict('Les propriétaires du chalet Les Mélèzes sont Claire et Julien Marcillac.', doc)).toBe('contradicted');
    });
    it('the names as written: not contradicted', async () => {
      expect(await verdict('Les propriétaires du chalet Les Mélèzes sont Claire et Julien Rocheblave-Durand.', doc)).not.toBe('contradicted');
    });
    it('a field of another noun: not contradicted', async () => {
      const other = '# Chalet Les Mélèzes — conditions de location\n\n**Gardiens :** Claire et Julien Rocheblave-Durand\n\nLe chalet accueille 8 personnes.';
      expect(await verdict('Les propriétaires du chalet Les Mélèzes sont Claire et Julien Marcillac.', other)).not.toBe('contradicted');
    });
  });

  describe("a date claim's scheduling verb (`planned for`, `set for`) and a second date of the same event", () => {
    const doc =
      '# Fellbridge Rowing Club — committee minutes\n\nThe secretary confirmed that the open regatta will be held at Fellbridge Reach on Saturday 14 June 2025, with Saturday 21 June as the back-up date in case of flooding. Entries close a week before.';
    it('another date of the event said with another scheduling verb contradicts', async () => {
      expect(await verdict('The open regatta is planned for Saturday 7 June 2025.', doc)).toBe('contradicted');
      expect(await verdict('The open regatta is set for Saturday 7 June 2025.', doc)).toBe('contradicted');
    });
    it("the event's date supports", async () => {
      expect(await verdict('The open regatta is planned for Saturday 14 June 2025.', doc)).toBe('supported');
    });
    it('the back-up date the sentence states too does not contradict', async () => {
      expect(await verdict('The open regatta is planned for Saturday 21 June 2025.', doc)).not.toBe('contradicted');
      expect(await verdict('The open regatta will be held on Saturday 21 June 2025.', doc)).not.toBe('contradicted');
    });
  });
});
