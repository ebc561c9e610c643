import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { translationsOf } from '../../src/lib/language/glossary.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Eighth round of issue 26 (docs/quality.md, "Eighth round: claims across languages"): claims in the other language
 * than their document. Sentences written for these tests, none from a labelled set.
 */
describe('eighth round: claims across languages', () => {
  const lease = [
    '# Bail commercial — Local de la rue des Tanneurs',
    '',
    'Le loyer mensuel est de 1 450 € hors charges.',
    'Les travaux de peinture sont exclus du forfait.',
    'Les échantillons sont fournis gratuitement au locataire.',
  ].join('\n');

  it('a claim sharing no word and no figure with its document in the other language finds its sentence through the glossary', async () => {
    expect(await verdict('Painting works are excluded from the package.', lease)).toBe('supported');
  });

  it("in a passage of the other language a word's glossary rendering counts as the word itself", async () => {
    expect(await verdict('The samples are supplied free of charge to the tenant.', lease)).toBe('supported');
  });

  it('figures still compare as they are across languages: another rent is a conflict', async () => {
    expect(await verdict('The monthly rent is €1,450 excluding charges.', lease)).toBe('supported');
    expect(await verdict('The monthly rent is €1,650 excluding charges.', lease)).toBe('contradicted');
  });

  it('a claim about a thing the document does not state stays unverifiable across languages', async () => {
    expect(await verdict('The heating works are excluded from the package.', lease)).toBe('unverifiable');
  });

  it('the common vocabulary of business documents is rendered: money, dates, parties, obligations, exclusions, quantities', () => {
    expect(translationsOf('surcharge')).toContain('supplement');
    expect(translationsOf('scheduled')).toContain('prevu');
    expect(translationsOf('adviser')).toContain('conseiller');
    expect(translationsOf('mandatory')).toContain('obligatoire');
    expect(translationsOf('excluded')).toContain('exclus');
    expect(translationsOf('palettes')).toContain('pallets');
  });
});
