import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';

/** The verdict of one claim against one document named `source`. */
async function verdictIn(claim: string, source: string, content: string): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages([{ source, content }]);
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Seventeenth round of issue 26 (docs/quality.md, "Seventeenth round: … (vprec8)"): wrong supports and contradictions of the
 * development sets fixed by a general rule each. Documents written for these tests, none from a labelled set. Each case fails
 * on main (9dccba5); each control passes on both.
 */
describe('precision (seventeenth round, vprec8)', () => {
  describe('a record field dated by a document label is that document’s date, not an event’s', () => {
    const invoice =
      '# INVOICE\n\n**Harbourside Window Care Ltd**\n14 Quay Street, Falmouth TR11 3HH\n\n**Invoice no.:** HWC-2026-0417\n**Invoice date:** April 9, 2026\n**Service date:** April 2, 2026\n**Payment due:** May 9, 2026 (Net 30)\n\n**Bill to:**\nQuayside Dental Practice\n';
    const source = 'window-cleaning-invoice.md';
    it('`**Invoice date:** April 9, 2026` does not support `Harbourside … cleaned the Quayside windows on April 9, 2026`', async () => {
      expect(await verdictIn('Harbourside Window Care cleaned the Quayside windows on April 9, 2026.', source, invoice)).not.toBe('supported');
    });
    it('control: the service date still supports the cleaning’s date', async () => {
      expect(await verdictIn('Harbourside Window Care cleaned the Quayside windows on April 2, 2026.', source, invoice)).toBe('supported');
    });
    it('control: the invoice’s own date is still supported', async () => {
      expect(await verdictIn('Invoice HWC-2026-0417 is dated April 9, 2026.', source, invoice)).toBe('supported');
    });
  });
  describe('two names of the claim found in two parts of a list, each beside another name', () => {
    const lease =
      '# Fleet Lease Agreement — Electric Delivery Bikes\n\n**Agreement number:** CRL-FL-0412\n**Lessor:** Corvell Cycles Ltd, 4 Dock Road, Penrith, represented by Ms Priya Nandakumar, Sales Director\n**Lessee:** Ambleside Bakehouse Ltd, 9 Fell Street, Penrith, represented by Mr Owen Garside, Managing Director\n**Date of signature:** 3 March 2026\n\nSigned: Priya Nandakumar, for Corvell Cycles Ltd — Owen Garside, for Ambleside Bakehouse Ltd\n';
    it('`Priya Nandakumar, for Corvell Cycles Ltd — Owen Garside, for Ambleside Bakehouse Ltd` does not support `Owen Garside signed … on behalf of Corvell Cycles`', async () => {
      expect(await verdict('Owen Garside signed the lease on behalf of Corvell Cycles.', lease)).not.toBe('supported');
    });
    it('control: the signatory of his own party is still supported', async () => {
      expect(await verdict('Owen Garside signed the lease on behalf of Ambleside Bakehouse.', lease)).toBe('supported');
    });
  });
  describe('the claim’s figure per a unit the row states in its label cell, not beside the amount', () => {
    const fees =
      '# Port de plaisance de Kerlouan — Tarifs 2026\n\n## Redevances d’escale\n\n| Redevance | Résident | Visiteur |\n|---|---|---|\n| Ponton flottant, par mètre de longueur et par nuit | 2,10 € | 3,30 € |\n';
    it('`| … par mètre de longueur et par nuit | 2,10 € | 3,30 € |` does not contradict `Un résident paie 2,10 € par mètre …`', async () => {
      expect(await verdict('Un résident paie 2,10 € par mètre de longueur et par nuit pour une place au ponton flottant.', fees)).not.toBe('contradicted');
    });
    it('control: the same figure per another unit the sentence does not state still contradicts', async () => {
      const cheese = '# Fromagerie Lannic — Tarifs professionnels\n\n| Code | Fromage | Format | Prix |\n|---|---|---|---|\n| FL-204 | Tomme de Lannic | pièce de 400 g | 9,80 € la pièce |\n';
      expect(await verdict('La Tomme de Lannic est facturée 9,80 € le kilo.', cheese)).toBe('contradicted');
    });
  });
  describe('a negation over a bound the claim’s amount is not said with (a cap)', () => {
    const contract =
      '# Seasonal Employment Contract — Harrowfield Vineyard\n\n## 4. Working time\n\nThe Picker will not be required to work more than **45 hours in any week** during the harvest.\n';
    it('`will not be required to work more than 45 hours in any week` does not contradict `caps the working week at 45 hours`', async () => {
      expect(await verdict('The Harrowfield contract caps the working week at 45 hours.', contract)).not.toBe('contradicted');
    });
    it('control: the claim said with the same bound is still contradicted', async () => {
      expect(await verdict('The Picker will be required to work more than 45 hours in any week during the harvest.', contract)).toBe('contradicted');
    });
  });
  describe('a yes-or-no matter said of one of the claim’s amounts and not the other (another range)', () => {
    const terms =
      '# Kitesong Harp Hire — Booking Terms\n\n## 2. Prices\n\nThe harp and harpist are hired for £480 per performance.\n\n## 3. Travel\n\nTravel is free within 30 miles of Ashbourne. Beyond that distance we charge £0.50 per mile for the return journey, calculated from Mill Yard.\n';
    it('`Travel is free within 30 miles` does not contradict `Harp travel beyond 30 miles is charged at £0.50 per mile`', async () => {
      expect(await verdict('Harp travel beyond 30 miles is charged at £0.50 per mile.', terms)).not.toBe('contradicted');
    });
    it('control: a claim of the one amount the sentence states is still contradicted', async () => {
      expect(await verdict('Harp travel within 30 miles is charged.', terms)).toBe('contradicted');
    });
  });
});
