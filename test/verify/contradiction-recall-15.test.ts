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

const negated = (text: string) => scopedWords(text).filter((w) => w.negated).map((w) => w.w);

/**
 * Fifteenth round of issue 26 (docs/quality.md, "Fifteenth round: contradicted claims left unverifiable (vcontra7)"): the
 * holder of the same title, a negation over a list's commas, a negated label over its whole line, a name before a compound
 * noun, a rival amount named by another noun, a rate per a multiple of its unit. Sentences written for these tests, none from a
 * labelled set. Each case fails on main (67beaf8); each control passes on both.
 */
describe('contradiction recall (fifteenth round)', () => {
  describe('title holder: the same title given to another name', () => {
    it('a title in apposition before the name against a record field with the title after the name', async () => {
      const doc = '# Harbour Marina berthing rules\n\nBerths are allocated each March.\n\n**Issued by:** Colin Barrow, harbour master';
      expect(await verdict('The berthing rules were issued by the harbour master, Peter Quayle.', doc)).toBe('contradicted');
      // Control: the document's own holder of the title.
      expect(await verdict('The berthing rules were issued by the harbour master, Colin Barrow.', doc)).not.toBe('contradicted');
    });
    it('a French feminine title before the name against the masculine one after another name', async () => {
      const doc = '# Rapport annuel 2024 du dépôt de Saint-Avold\n\nLe dépôt a reçu 120 camions.\n\n**Rédigé par :** Marc Petit, directeur de site — le 2 mars 2025';
      expect(await verdict('Le rapport annuel 2024 du dépôt a été rédigé par la directrice de site, Anne Roux.', doc)).toBe('contradicted');
    });
    it('a feminine title after the name, qualified by what the document is about', async () => {
      const doc = "# Devis de l'agence Horizon\n\n**Suivi du dossier :** Paul Garnier, gérant\n\nMontant : 1 200 €";
      expect(await verdict("Sylvie Laurent, gérante de l'agence, assure le suivi du dossier.", doc)).toBe('contradicted');
    });
    it('a naming copula against a record field whose label is the title', async () => {
      const doc = '# Compte rendu du conseil\n\n**Secrétaire de séance :** M. Hugo Martel\n\nLe conseil approuve le budget.';
      expect(await verdict('M. Bruno Lefort était le secrétaire de séance.', doc)).toBe('contradicted');
    });
    it('a person of the document moved to another person’s title', async () => {
      const doc = '# Essai de laboratoire\n\n**Prélèvement :** 3 mars, par M. Jean Perrin, technicien\n\n**Mme Claire Dufour**, responsable qualité';
      expect(await verdict('Le rapport est signé par M. Jean Perrin, responsable qualité.', doc)).toBe('contradicted');
    });
    it('a title opening both names (`Operations Manager …`)', async () => {
      const doc = '# Ferry timetable\n\nTimetable reference FT-22, issued on 3 May by Operations Manager Ruth Calder.';
      expect(await verdict('The ferry timetable was issued by Operations Manager Alan Moffat.', doc)).toBe('contradicted');
    });
    it('controls: another title, a person holding both titles, a name written longer', async () => {
      const doc = '# Essai de laboratoire\n\n**Prélèvement :** 3 mars, par M. Jean Perrin, technicien\n\n**Mme Claire Dufour**, responsable qualité';
      // Another title: the document says nothing of who is the lab's director.
      expect(await verdict('Le rapport est signé par M. Luc Morel, directeur du laboratoire.', doc)).not.toBe('contradicted');
      const both = '# Essai\n\n**M. Jean Perrin**, technicien\n\n**Mme Claire Dufour**, responsable qualité\n\nM. Jean Perrin, responsable qualité adjoint, relit les rapports.';
      expect(await verdict('Le rapport est relu par M. Jean Perrin, responsable qualité adjoint.', both)).not.toBe('contradicted');
      const ferry = '# Kestrel Strait Ferries timetable\n\nIssued on 3 May by Kestrel Strait Ferries Ltd.';
      expect(await verdict('The timetable was issued by Kestrel Strait Ferries.', ferry)).not.toBe('contradicted');
      // A rank of one word many hold: another councillor voting against is no contradiction of this one.
      const council = '# Council minutes\n\nThe council rejected the proposal to raise parking fees. Councillor Nadia Brook voted against the budget.';
      expect(await verdict('Councillor Peter Vance voted against the budget.', council)).not.toBe('contradicted');
    });
  });

  describe('negation over a list: its commas separate items, not clauses', () => {
    it('reads every item of a negated list as negated', () => {
      expect(negated("The policy does not cover the owner's saddle, bridle or rugs.")).toEqual(expect.arrayContaining(['saddle', 'bridle', 'rugs']));
      expect(negated('It does not cover roofs, gutters, or chimneys.')).toEqual(expect.arrayContaining(['roofs', 'gutters', 'chimneys']));
    });
    it('contradicts a claim affirming two of the items', async () => {
      const doc = "# Livery terms\n\nThe yard's insurance does not cover the owner's saddle, bridle or rugs.";
      expect(await verdict("The yard's insurance covers the owner's bridle and rugs.", doc)).toBe('contradicted');
    });
    it('controls: a clause after a comma is not an item', () => {
      expect(negated('Members are not charged, and guests pay £5.')).not.toEqual(expect.arrayContaining(['guests']));
      expect(negated('Members are not charged, guests pay a fee or a deposit.')).not.toEqual(expect.arrayContaining(['guests']));
      expect(negated('The policy does not cover theft, but it covers fire or flood.')).not.toEqual(expect.arrayContaining(['fire']));
    });
  });

  describe('a negated label of up to four words governs its whole line', () => {
    it('reads every item of `Not included in the price:` as negated, past its brackets (their aside apart)', () => {
      const words = negated('Not included in the price: airport transfers (£25 each way), the spa, and wine with dinner.');
      expect(words).toEqual(expect.arrayContaining(['transfers', 'spa', 'wine', 'dinner']));
    });
    it('controls: a clause with a verb before its colon is no label', () => {
      expect(negated('No deposit is required: pay on arrival.')).not.toEqual(expect.arrayContaining(['pay', 'arrival']));
    });
  });

  describe('a name before a compound noun qualifies its head', () => {
    it('`the Harlow Foods group rates` against a negated label on `the rates` in the offer made for Harlow Foods', async () => {
      const doc = '# Saltmarsh Hotel group offer\n\nPrepared for Harlow Foods, 12–14 May.\n\nNot included in the rates: car parking (£13 per vehicle per day), access to the spa and pool, and drinks with dinner.';
      expect(await verdict('Access to the spa and pool is included in the Harlow Foods group rates.', doc)).toBe('contradicted');
    });
    it('control: the same sentence stating the inclusion is no contradiction', async () => {
      const doc = '# Saltmarsh Hotel group offer\n\nPrepared for Harlow Foods, 12–14 May.\n\nIncluded in the rates: car parking, access to the spa and pool, and drinks with dinner.';
      expect(await verdict('Access to the spa and pool is included in the Harlow Foods group rates.', doc)).not.toBe('contradicted');
    });
  });

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

  describe('a rate per a multiple of its unit', () => {
    it('`£0.31 per MWh` is not `£0.31 per kWh`', async () => {
      const doc = '# Colocation terms\n\nPower consumed above the commitment is billed at £0.31 per kWh.';
      expect(await verdict('Power consumed above the commitment is billed at £0.31 per MWh.', doc)).not.toBe('supported');
      // Control: the same rate per the same unit.
      expect(await verdict('Power consumed above the commitment is billed at £0.31 per kWh.', doc)).toBe('supported');
    });
  });
});
