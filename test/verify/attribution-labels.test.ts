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
 * Eleventh round of issue 26 (docs/quality.md, "Eleventh round: attribution and labels (vprec4)"). Sentences written for
 * these tests, none from a labelled set.
 */
describe('attribution in a list of names (eleventh round, vprec4)', () => {
  it("a date held in another name's parenthesis supports nothing of this name", async () => {
    const doc =
      '# Our team\n\nOur surveyors, **Oliver Brandt** (member of the Chartered Survey Guild since 2004) and **Nadia Kerr** (specialist in listed buildings), have worked across the county for twenty years.';
    expect(await verdict('Nadia Kerr has been a member of the Chartered Survey Guild since 2004.', doc)).toBe('unverifiable');
    expect(await verdict('Oliver Brandt has been a member of the Chartered Survey Guild since 2004.', doc)).toBe('supported');
  });
  it("a role attached to another name (`A (président), B (secrétaire)`): contradicted, in French", async () => {
    const doc = "# Association des jardins partagés de Vauclair\n\n**Bureau :** Lucien Marest (président), Agathe Rouvier (secrétaire), Paul-Henri Dosne (trésorier).";
    expect(await verdict("Agathe Rouvier est la présidente de l'association des jardins partagés de Vauclair.", doc)).toBe('contradicted');
    expect(await verdict("Lucien Marest est le président de l'association des jardins partagés de Vauclair.", doc)).toBe('supported');
  });
  it('a role attached to another name (`A, x — B, y`): contradicted, in English', async () => {
    const doc = '# Riverside Rowing Club\n\nHarriet Vosper, chair — Colin Ashdown, treasurer — Megan Rudd, secretary';
    expect(await verdict('Colin Ashdown is the chair of the Riverside Rowing Club.', doc)).toBe('contradicted');
    expect(await verdict('Harriet Vosper is the chair of the Riverside Rowing Club.', doc)).toBe('supported');
  });
});

describe('labels: a noun and its number (eleventh round, vprec4)', () => {
  it('the same noun with another number is another thing: contradicted', async () => {
    const doc = '# Excavation report\n\nThe bone comb (SF 208), found in Trench 3, is decorated with ring-and-dot motifs.';
    expect(await verdict('The bone comb SF 208 was found in Trench 6.', doc)).toBe('contradicted');
    expect(await verdict('The bone comb SF 208 was found in Trench 3.', doc)).toBe('supported');
  });
  it('in French (`Tranchée 2` against `Tranchée 5`)', async () => {
    const doc = "# Rapport de fouille\n\nLa fibule en bronze (US 118), découverte dans la Tranchée 2, présente un décor incisé.";
    expect(await verdict('La fibule en bronze US 118 a été découverte dans la Tranchée 5.', doc)).toBe('contradicted');
    expect(await verdict('La fibule en bronze US 118 a été découverte dans la Tranchée 2.', doc)).toBe('supported');
  });
  it("a label the sentence does not state supports nothing", async () => {
    const doc = '# Site works\n\nThe drainage pipes of the eastern zone were laid by the groundworks team in March.';
    expect(await verdict('The drainage pipes of Zone B were laid by the groundworks team in March.', doc)).not.toBe('supported');
  });
  it('a label the sentence does not state supports nothing, in French', async () => {
    const doc = "# Chantier\n\nLa réunion de chantier aura lieu dans la salle du conseil le 12 mars 2025.";
    expect(await verdict('La réunion de chantier aura lieu dans la Salle 4 le 12 mars 2025.', doc)).not.toBe('supported');
  });
});
