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
 * Eighth round of issue 26 (docs/quality.md, "Eighth round: contradictions"): contradicted claims left unverifiable
 * because a unit or a currency was read as a word of the claim, the same figure in another unit was not compared, or
 * the claim's subject was named only by its document. Sentences written for these tests, none from a labelled set.
 */
describe('eighth round: units, currencies and subjects', () => {
  describe('the same figure written with another unit or currency is a conflict', () => {
    it('kilometres against miles (a unit of the same dimension, the figure kept)', async () => {
      const doc = 'The nearest fuel depot is 14 miles from the quarry.';
      expect(await verdict('The nearest fuel depot is 14 kilometres from the quarry.', doc)).toBe('contradicted');
      expect(await verdict('The nearest fuel depot is 14 miles from the quarry.', doc)).toBe('supported');
    });

    it('feet against metres', async () => {
      expect(await verdict('The minimum distance from the public for the survey drone is 60 feet.', 'The minimum distance from the public for the survey drone is 60 metres.')).toBe('contradicted');
    });

    it('a currency code before the figure is the amount’s, not a word of the claim (EUR against CHF)', async () => {
      const doc = 'The lender charges an arrangement fee of CHF 9,500, payable on signature.';
      expect(await verdict('The lender charges an arrangement fee of EUR 9,500.', doc)).toBe('contradicted');
      expect(await verdict('The lender charges an arrangement fee of CHF 9,500.', doc)).toBe('supported');
    });

    it('megawatt-hours against kilowatt-hours', async () => {
      expect(await verdict("La production annuelle estimée de l'installation est de 4 200 MWh.", "La production annuelle estimée de l'installation est de 4 200 kWh.")).toBe('contradicted');
    });

    it('days against hours: the figure as written is compared, not the hours it converts to', async () => {
      expect(await verdict('La durée hebdomadaire de travail de référence est de 39 jours.', 'La durée hebdomadaire de travail de référence est de 39 heures.')).toBe('contradicted');
    });

    it('a unit of another dimension with the same figure (× g against rpm, tonnes against m³)', async () => {
      const table = ['# Rotor R-9 data sheet', '', '| Parameter | R-9 |', '| --- | --- |', '| Maximum speed | 12,000 rpm |'].join('\n');
      expect(await verdict('The maximum speed of the R-9 rotor is 12,000 × g.', table)).toBe('contradicted');
      expect(await verdict('The maximum speed of the R-9 rotor is 12,000 rpm.', table)).toBe('supported');
      expect(await verdict('The storage silo has a capacity of 30 tonnes.', 'The storage silo has a capacity of 30 m³.')).toBe('contradicted');
    });

    it('of two facts as much about the claim, the one with its figure is the one it restates in another unit', async () => {
      const doc = '- Minimum distance from spectators: 30 metres for the small drone and 90 metres for the large drone.';
      expect(await verdict('The minimum distance from spectators for the large drone is 90 feet.', doc)).toBe('contradicted');
    });
  });

  describe('a rate per unit of measure', () => {
    const doc = 'Business mileage is reimbursed at 45p per mile, claimed monthly.';
    it('is compared with what it is counted per: per kilometre against per mile is a conflict', async () => {
      expect(await verdict('Business mileage is reimbursed at 45p per kilometre.', doc)).toBe('contradicted');
      expect(await verdict('Business mileage is reimbursed at 45p per mile.', doc)).toBe('supported');
    });
  });

  describe('a year written alone is no amount', () => {
    it('is not compared with a figure without a unit (`for 2027` against `12,480.00`)', async () => {
      const table = ['# Crop policy schedule', '', '| Item | Amount (USD) |', '| --- | --- |', '| **Net premium payable by the policyholder** | **12,480.00** |'].join('\n');
      expect(await verdict('The net premium payable by the policyholder for 2027 is USD 12,480.', table)).not.toBe('contradicted');
    });
  });

  describe("the claim's subject named only by its document", () => {
    const invoice = [
      '# Customs clearance invoice',
      '',
      '## Shipment details',
      '',
      '- Shipment reference: SHP-44120',
      '- Carrier: Northline Freight',
      '- Declared value of the goods: USD 18,400.00',
    ].join('\n');
    it('contradicts as it supports: the sentence covers the claim and its amount differs', async () => {
      expect(await verdict('The declared value of the goods of shipment SHP-44120 is USD 18,400.00.', invoice)).toBe('supported');
      expect(await verdict('The declared value of the goods of shipment SHP-44120 is USD 21,000.00.', invoice)).toBe('contradicted');
      expect(await verdict('The declared value of the goods of shipment SHP-44120 is EUR 18,400.00.', invoice)).toBe('contradicted');
    });

    it('a date too', async () => {
      const contract = ['# Franchise agreement', '', '## Parties', '', 'Contract number FR-2291.', '', '## Signature', '', 'The agreement was signed on 3 March 2026.'].join('\n');
      expect(await verdict('The agreement FR-2291 was signed on 3 March 2026.', contract)).toBe('supported');
      expect(await verdict('The agreement FR-2291 was signed on 10 March 2026.', contract)).toBe('contradicted');
    });
  });

  describe('a name after the noun it qualifies (the French order) is what the claim is about', () => {
    it('`le loyer Fournix` left to the document: the sentence reverses the claim', async () => {
      const contract = ['# Contrat de location de matériel', '', '## Article 1 — Parties', '', 'Le loueur est Fournix Location SAS, à Lyon.', '', '## Article 3 — Loyer', '', 'Les pièces d’usure (joints, courroies et filtres) ne sont pas comprises dans le loyer.'].join('\n');
      expect(await verdict("Les pièces d'usure, comme les courroies, sont comprises dans le loyer Fournix.", contract)).toBe('contradicted');
    });
  });

  describe("a date held by the document's title", () => {
    const timetable = ['# Harbour Ferries — Winter Timetable 2025–2026', '', 'Timetable reference HF-2526, issued 3 October 2025 by the operations manager.'].join('\n');
    it('agrees only where the sentence states no other date about the same thing', async () => {
      expect(await verdict('The Harbour Ferries winter timetable was issued on 3 November 2025.', timetable)).toBe('contradicted');
      expect(await verdict('The Harbour Ferries winter timetable was issued on 3 October 2025.', timetable)).toBe('supported');
    });
  });

  describe('a claim denying that a thing exists', () => {
    const policy = [
      '# Commercial insurance schedule',
      '',
      '**Policyholder:** Harbourline Couriers Ltd',
      '',
      '## Claims',
      '',
      'Report any accident likely to lead to a claim within 14 days to the insurer. Claims under section B require the mileage records for the 12 months before the loss.',
    ].join('\n');
    it('is not reversed by a heading naming the thing, nor by a sentence naming it without its verb', async () => {
      expect(await verdict('Harbourline Couriers has made no insurance claim since 2023.', policy)).not.toBe('contradicted');
    });
    it('is not reversed by another figure of its window (`in the last five years` against `for the 12 months before the loss`)', async () => {
      expect(await verdict('Harbourline Couriers has made no insurance claim in the last five years.', policy)).not.toBe('contradicted');
    });
  });

  describe('a list under a negated heading', () => {
    const warranty = [
      '# Corlan vacuum cleaner warranty',
      '',
      '## 3. What is covered',
      '',
      'Corlan repairs any part that fails because of a defect in manufacture.',
      '',
      '## 4. What is not covered',
      '',
      '- Damage caused by vacuuming ash or plaster dust.',
      '- Products used by cleaning companies or hotels.',
    ].join('\n');
    it('says each item with the heading’s polarity: covering an item is contradicted, not covering it supported', async () => {
      expect(await verdict('The Corlan warranty covers damage caused by vacuuming ash.', warranty)).toBe('contradicted');
      expect(await verdict('The Corlan warranty does not cover damage caused by vacuuming ash.', warranty)).toBe('supported');
    });
  });
});
