import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { dates } from '../../src/modules/verify/dates.js';
import { quantities } from '../../src/modules/verify/quantities.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Eighteenth round of issue 26 (docs/quality.md, "Eighteenth round: supported values (vamount, …)"): supported claims of an amount,
 * a unit or a date the verifier left unverifiable, each cause fixed by a general rule. Documents written for these tests, none from a
 * labelled set. Each case fails on main (ebade39); each control passes on both.
 */
describe('supported values (eighteenth round, vamount)', () => {
  describe('pence and centimes in words are hundredths of their currency', () => {
    it('reads `38 pence` as £0.38 and `10 centimes` as 0,10 €', () => {
      const stem = (w: string) => w;
      expect(quantities('charged at 38 pence per mile', stem)[0]).toMatchObject({ value: 0.38, unit: 'GBP', dimension: 'money' });
      expect(quantities('une indemnité de 10 centimes par kilomètre', stem)[0]).toMatchObject({ value: 0.1, unit: 'EUR', dimension: 'money' });
      expect(quantities('| Standing charge | 88.6 p/day |', stem)[0]).toMatchObject({ value: 0.886, unit: 'GBP' });
    });
    const travel = '# Ashgrove Piano Tuning — Price list\n\nTuning visits within 15 miles of Hereford are free of travel charges. Beyond 15 miles of Hereford, travel is charged at 45p per mile.\n';
    it('`travel is charged at 45p per mile` supports `Beyond 15 miles of Hereford, travel is charged at 45 pence per mile`', async () => {
      expect(await verdict('Beyond 15 miles of Hereford, travel is charged at 45 pence per mile.', travel)).toBe('supported');
    });
    it('control: `50 pence per mile` is not supported', async () => {
      expect(await verdict('Beyond 15 miles of Hereford, travel is charged at 50 pence per mile.', travel)).not.toBe('supported');
    });
  });

  describe('the first end of a range takes the unit written after the last', () => {
    const fridge = '# Larchfield Pharmacy — Cold chain procedure\n\n4.1 Vaccines are stored in the pharmacy fridge between 2 °C and 8 °C at all times.\n';
    it('`between 2 °C and 8 °C` supports `Vaccines are stored in the pharmacy fridge between 2 and 8 degrees Celsius` (`Celsius` a unit, not a name)', async () => {
      expect(await verdict('Vaccines are stored in the pharmacy fridge between 2 and 8 degrees Celsius.', fridge)).toBe('supported');
    });
    it('control: `between 4 and 8 degrees Celsius` is not supported', async () => {
      expect(await verdict('Vaccines are stored in the pharmacy fridge between 4 and 8 degrees Celsius.', fridge)).not.toBe('supported');
    });
  });

  describe('a row’s cell holding only a currency gives it to the next cell’s figure', () => {
    const quote =
      '# Harbourline Forwarding — Quotation HF-Q-2291\n\n| Service | Basis | Currency | Amount |\n|---|---|---|---|\n| Sea freight Shanghai–Felixstowe | per container | USD | 3,150.00 |\n| Port handling, Felixstowe | per container | GBP | 240.00 |\n';
    it('`| … | per container | USD | 3,150.00 |` supports `Sea freight from Shanghai to Felixstowe is priced at USD 3,150 per container`', async () => {
      expect(await verdict('Sea freight from Shanghai to Felixstowe is priced at USD 3,150 per container.', quote)).toBe('supported');
    });
    it('control: the same figure in euros is not supported', async () => {
      expect(await verdict('Sea freight from Shanghai to Felixstowe is priced at EUR 3,150 per container.', quote)).not.toBe('supported');
    });
  });

  describe('a count of things against the same bare figure of a row', () => {
    const invoice =
      '# Clinique vétérinaire des Prés — Facture F-2026-0144\n\n| Acte | Quantité | Prix unitaire HT | Montant HT |\n|---|---|---|---|\n| Échographie abdominale | 4 | 55,00 € | 220,00 € |\n| Consultation | 1 | 45,00 € | 45,00 € |\n';
    it('`| Échographie abdominale | 4 | 55,00 € | 220,00 € |` supports `La clinique a facturé quatre échographies abdominales pour un montant de 220 € HT`', async () => {
      expect(await verdict('La clinique a facturé quatre échographies abdominales pour un montant de 220 € HT.', invoice)).toBe('supported');
    });
    it('control: `cinq échographies` is not supported', async () => {
      expect(await verdict('La clinique a facturé cinq échographies abdominales pour un montant de 220 € HT.', invoice)).not.toBe('supported');
    });
    it('control: a section’s number in the context counts nothing', async () => {
      const lab = '# Laboratoire Kerbrat — Présentation\n\n## 8. Équipe\n\nResponsable technique : M. Loïc Kerbrat, technicien de laboratoire.\n';
      expect(await verdict('Le laboratoire Kerbrat emploie huit techniciens.', lab)).not.toBe('supported');
    });
  });

  describe('a range of days in one month: both ends are dates', () => {
    it('reads `14–16 October 2024` and `du 14 au 21 juin 2025` as two days each, the first no bare number', () => {
      const days = (t: string) => dates(t).map((d) => [new Date(d.from * 86_400_000).toISOString().slice(0, 10), d.range]);
      expect(days('14–16 October 2024')).toEqual([['2024-10-14', 'first'], ['2024-10-16', 'last']]);
      expect(days('du 14 au 21 juin 2025')).toEqual([['2025-06-14', 'first'], ['2025-06-21', 'last']]);
    });
    const festival = '# Quayside Festival 2026 — Event plan\n\n| Item | Dates | Days |\n|---|---|---|\n| Festival | 12–14 July 2026 | 3 |\n| Set-up | 11 July 2026 | 1 |\n';
    it('`| Festival | 12–14 July 2026 | 3 |` supports `The festival runs from 12 to 14 July 2026`', async () => {
      expect(await verdict('The festival runs from 12 to 14 July 2026.', festival)).toBe('supported');
    });
    it('control: another last day of the range is not supported', async () => {
      expect(await verdict('The festival runs from 12 to 16 July 2026.', festival)).not.toBe('supported');
    });
    it('control: a day of another event does not contradict an end of the range', async () => {
      const note = '# Quayside Festival 2026 — Notes\n\nTwo technician days are charged because the set-up day of 11 July is included.\n';
      expect(await verdict('The festival took place from 12 to 14 July 2026, with set-up the day before.', note)).not.toBe('contradicted');
    });
  });

  describe('the sentence’s only fact besides those equal to the claim’s other facts', () => {
    const pool = '# Piscine municipale des Ormes — Tarifs\n\n| Prestation | Tarif |\n|---|---|\n| Entrée enfant (moins de 10 ans) | 3,50 € |\n| Entrée adulte | 5,20 € |\n';
    it('`| Entrée enfant (moins de 10 ans) | 3,50 € |` supports `Un enfant de moins de 10 ans paie 3,50 € pour entrer à la piscine`', async () => {
      expect(await verdict('Un enfant de moins de 10 ans paie 3,50 € pour entrer à la piscine.', pool)).toBe('supported');
    });
    it('control: `4,50 €` is not supported', async () => {
      expect(await verdict('Un enfant de moins de 10 ans paie 4,50 € pour entrer à la piscine.', pool)).not.toBe('supported');
    });
  });

  describe('the role a document defines a party as stands for the party’s name', () => {
    const agreement =
      '# Location Agreement — Hatherley Grange\n\n## Parties\n\n(1) Hatherley Grange Estates Ltd, Upper Slad (the "Owner").\n(2) Copperline Films Ltd, 12 Wharf Road, Bristol (the "Producer").\n\n## Fees\n\n3.1 The Producer shall pay a location fee of £18,000.\n3.2 In addition, the Producer shall pay a refundable security deposit of £4,000.\n';
    it('`the Producer shall pay a refundable security deposit of £4,000` supports `Copperline Films must pay a refundable security deposit of £4,000 for the use of Hatherley Grange`', async () => {
      expect(await verdict('Copperline Films must pay a refundable security deposit of £4,000 for the use of Hatherley Grange.', agreement)).toBe('supported');
    });
    it('control: a representative named in the party’s entry is not the party (`…, represented by Ruth Penhale (the "Producer")`)', async () => {
      const represented = agreement.replace('12 Wharf Road, Bristol (the "Producer")', '12 Wharf Road, Bristol, represented by Ruth Penhale (the "Producer")');
      expect(await verdict('Ruth Penhale must pay a refundable security deposit of £4,000 for the use of Hatherley Grange.', represented)).not.toBe('supported');
    });
    it('control: the other party’s name is not supported by the Producer’s deposit', async () => {
      expect(await verdict('Hatherley Grange Estates must pay a refundable security deposit of £4,000 for the use of Copperline Films.', agreement)).not.toBe('supported');
    });
  });
});
