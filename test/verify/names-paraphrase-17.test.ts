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
 * Seventeenth round of issue 26 (docs/quality.md, "Seventeenth round: the verifier's name and paraphrase claims (vpara)"):
 * a name's title said by the sentence, who a name acts for against the parties a document defines, and four paraphrase
 * words. Documents written for these tests, none from a labelled set. Each case fails on main (b1e7c9e); each control
 * passes on both.
 */
describe('names and paraphrases (seventeenth round, vpara)', () => {
  describe('a name given the claim’s title by the sentence (title-holder-stated)', () => {
    const quote =
      '# Quotation — Boiler Replacement\n\n**Site:** Larch Court, 14 Mill Road, Kendal\n\n**Contact:** Mr Owen Castellan, Senior Heating Engineer, Brantwood Heating Ltd\n\n## 1. Scope\n\nTwo condensing boilers will be replaced.\n';
    it('`Contact: Mr Owen Castellan, …` supports `Owen Castellan is Brantwood’s contact for the Larch Court quotation`', async () => {
      expect(await verdict('Owen Castellan is Brantwood’s contact for the Larch Court quotation.', quote)).toBe('supported');
    });
    it('control: another person given the title is not supported', async () => {
      expect(await verdict('Fiona Marwick is Brantwood’s contact for the Larch Court quotation.', quote)).not.toBe('supported');
    });
    it('control: a claim saying more than the title (what the person did) is not supported by the title alone', async () => {
      expect(await verdict('Owen Castellan is Brantwood’s contact for the Larch Court quotation and inspected both boilers.', quote)).not.toBe('supported');
    });
    const contrat = '# Contrat d’entretien des machines\n\n**Prestataire :** Lavoir Martin SARL, 3 rue des Halles, 71000 Mâcon, représentée par M. Paul Vernet, gérant.\n\n## 1. Objet\n\nLe prestataire entretient les machines du client.\n';
    it('`représentée par M. Paul Vernet, gérant` supports `Lavoir Martin SARL est représentée par son gérant, M. Paul Vernet` (French)', async () => {
      expect(await verdict('Lavoir Martin SARL est représentée par son gérant, M. Paul Vernet.', contrat)).toBe('supported');
    });
    it('control: the same title given another name is not supported', async () => {
      expect(await verdict('Lavoir Martin SARL est représentée par son gérant, M. Marc Daumier.', contrat)).not.toBe('supported');
    });
  });

  describe('who a name acts for, against the parties the document defines (role-party-stated / role-party-other)', () => {
    const agreement =
      '# Storage Agreement\n\nThis agreement is made between:\n\n(1) Fenwick Growers’ Co-operative Ltd, Station Road, Fenwick (the "Co-op"); and\n\n(2) Aldous Farming Partnership, Mill Lane, Fenwick (the "Depositor").\n\n## 9. Signatures\n\nSigned for the Co-op: Helen Marsh, Secretary\n\nSigned for the Depositor: Thomas Aldous, Partner\n';
    it('`Signed for the Depositor: Thomas Aldous` contradicts `Thomas Aldous signed the storage agreement on behalf of the Co-op`', async () => {
      expect(await verdict('Thomas Aldous signed the storage agreement on behalf of the Co-op.', agreement)).toBe('contradicted');
    });
    it('`Signed for the Depositor: Thomas Aldous` supports `Thomas Aldous signed … on behalf of Aldous Farming Partnership` (the party by its entry)', async () => {
      expect(await verdict('Thomas Aldous signed the storage agreement on behalf of Aldous Farming Partnership.', agreement)).toBe('supported');
    });
    it('control: a party the document does not define gives no verdict', async () => {
      expect(await verdict('Thomas Aldous signed the storage agreement on behalf of the county council.', agreement)).toBe('unverifiable');
    });
    const contrat =
      '# Contrat de location de salle\n\n**Loueur :** Salle des Tilleuls SARL, 4 rue du Marché, Vienne\n\n**Locataire :** Association Les Amis du Rhône, 12 quai Riondet, Vienne\n\n## Signatures\n\nPour le Locataire : Mme Sophie Darcel, présidente\n';
    it('`Pour le Locataire : Mme Sophie Darcel` contradicts `Mme Sophie Darcel a signé le contrat au nom de Salle des Tilleuls` (a field naming the party)', async () => {
      expect(await verdict('Mme Sophie Darcel a signé le contrat de location au nom de Salle des Tilleuls.', contrat)).toBe('contradicted');
    });
  });

  describe('a verb of office gives its agent a title; a listed name without it (office title, listed without title)', () => {
    const minutes =
      '# Millbrook Allotment Society — Minutes of the Committee Meeting, 4 March 2026\n\n**Present:** Ruth Calloway (Chair), Ian Petrie (Treasurer), Sunita Rao (Secretary), Colin Abbott, Marta Nowak\n\n## 1. Water troughs\n\nColin Abbott reported that two troughs leak.\n';
    it('`Present: Ruth Calloway (Chair), …, Colin Abbott` contradicts `Colin Abbott chaired the committee meeting`', async () => {
      expect(await verdict('Colin Abbott chaired the committee meeting of 4 March 2026.', minutes)).toBe('contradicted');
    });
    it('control: the listed chair is not contradicted', async () => {
      expect(await verdict('Ruth Calloway chaired the committee meeting of 4 March 2026.', minutes)).not.toBe('contradicted');
    });
    it('control: a name another sentence puts beside the title is not contradicted', async () => {
      const chairedElsewhere = `${minutes}\n## 2. Any other business\n\nColin Abbott took the chair for this item.\n`;
      expect(await verdict('Colin Abbott chaired the committee meeting of 4 March 2026.', chairedElsewhere)).not.toBe('contradicted');
    });
  });

  describe('a paraphrase word the lexicon now joins', () => {
    it('`rendues` is `remboursées` (French: the deposit given back)', async () => {
      const doc = '# Conditions de location du gîte\n\nEn cas d’annulation par le locataire plus de deux mois avant la date d’arrivée, les arrhes sont remboursées.\n';
      expect(await verdict('Si le locataire annule plus de deux mois avant la date d’arrivée, ses arrhes lui sont rendues.', doc)).toBe('supported');
    });
    it('`15% off` is a `15% discount`', async () => {
      const doc = '# Advertising Rates 2026\n\n## Volume discounts\n\n- Annual spend over £8,000: 12% discount\n';
      expect(await verdict('Advertisers who spend more than £8,000 a year get 12% off.', doc)).toBe('supported');
    });
    it('`a droit à` is `bénéficient de` (French: entitled to)', async () => {
      const doc = '# Tarifs du musée 2026\n\nLes groupes de plus de 20 personnes doivent réserver au moins 10 jours à l’avance et bénéficient d’une réduction de 20 %.\n';
      expect(await verdict('Un groupe de plus de 20 personnes qui réserve 10 jours à l’avance a droit à 20 % de réduction.', doc)).toBe('supported');
    });
    it('`achètera` is said by `l’achat` (French: the purchase, moved to another year)', async () => {
      const doc = '# Budget du club 2026\n\nL’achat d’une remorque de 6 places, budgété à 4 800 €, est reporté à l’exercice 2028.\n';
      expect(await verdict('Le club achètera sa remorque de 6 places dès l’exercice 2026.', doc)).toBe('contradicted');
    });
  });
});
