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
 * Fifteenth round of issue 26 (docs/quality.md, "Fifteenth round: contradicted claims left unverifiable (vcontra7)"), its
 * precision part: a rival amount named by a noun the claim does not say yields to a support of the claim's amount. Sentences
 * written for these tests, none from a labelled set. The case fails on main (2d2dbfd); the control passes on both.
 */
describe('contradicted precision (fifteenth round)', () => {
  describe('a rival amount named by a noun the claim does not say', () => {
    const table = '# Northway Exchange — Student Handbook\n\n## 1. Programmes and fees\n\n| Programme | Duration | Departure | Fee |\n|---|---|---|---|\n| Summer Course | 3 weeks | July | €1,900 |\n| Trimester | 3 months | September or January | €4,100 |\n| Full Year | 10 months | September | €9,200 |\n\n';
    it('`a supplement of €950 for the Trimester …` yields to the row stating the claim’s fee', async () => {
      const doc = `${table}Host countries are Norway, Italy and Korea. Placements in Korea carry a supplement of €950 for the Trimester and Full Year programmes; the Summer Course is not offered in Korea.`;
      expect(await verdict('The Trimester programme costs €4,100.', doc)).toBe('supported');
    });
    it('control: a rival with no noun of its own (`cost €950`) is still read as a conflict', async () => {
      const doc = `${table}Placements in Korea cost €950 for the Trimester and Full Year programmes.`;
      expect(await verdict('The Trimester programme costs €4,100.', doc)).toBe('contradicted');
    });
  });
});
