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
 * Eighth round of issue 26 (docs/quality.md, "Eighth round: support recall"): claims their documents support, left
 * unverifiable. Sentences written for these tests, none from a labelled set.
 */
describe('eighth round: support recall', () => {
  describe("a document's own number in its head is every sentence's context", () => {
    const invoice = [
      '# Invoice — Harlow Signs Ltd',
      '',
      '**Invoice number:** HSL-2027-0815',
      '**Purchase order:** PO-KT-5521',
      '',
      '## Items',
      '',
      '| Item | Description | Quantity | Unit price | Amount |',
      '| --- | --- | --- | --- | --- |',
      '| 1 | Window vinyl lettering, matt white | 12 | £14.50 | £174.00 |',
    ].join('\n');

    it('a claim naming the invoice by the number of its head reads the rows of that invoice: another total is a conflict', async () => {
      expect(await verdict('The window vinyl lettering on invoice HSL-2027-0815 totals £174.00.', invoice)).toBe('supported');
      expect(await verdict('The window vinyl lettering on invoice HSL-2027-0815 totals £190.00.', invoice)).toBe('contradicted');
    });

    it('another number of the same series is still another document', async () => {
      expect(await verdict('The window vinyl lettering on invoice HSL-2027-0816 totals £174.00.', invoice)).toBe('unverifiable');
    });

    it('an amount per unit (`each`) is the one under the unit column, not the line total', async () => {
      expect(await verdict('The window vinyl lettering on invoice HSL-2027-0815 was billed at £14.50 each.', invoice)).toBe('supported');
      expect(await verdict('The window vinyl lettering on invoice HSL-2027-0815 was billed at £15.50 each.', invoice)).toBe('contradicted');
    });
  });

  describe('the sides of a size are in the unit written after the last one', () => {
    const quote = '# Quote\n\n| Item | Price |\n| --- | --- |\n| Oak shelf, 120 x 30 cm, pack of 2 | £85.00 |';

    it('`120 x 30 cm` states both sides in centimetres: the claim stating them is supported', async () => {
      expect(await verdict('The oak shelf measures 120 x 30 cm.', quote)).toBe('supported');
    });

    it('a claim with another side is not supported', async () => {
      expect(await verdict('The oak shelf measures 100 x 30 cm.', quote)).not.toBe('supported');
    });
  });

  describe("a name of the claim left to its document", () => {
    it('a name written longer beside the claim\'s (`Dana Whitlock, Whitlock Risk Advisers`) is that name, not another one the statement is about', async () => {
      const schedule = '# Policy Schedule\n\n**Policyholder:** Keswick Bakery Ltd\n\n## Parties\n\n**Broker:** Dana Whitlock, Whitlock Risk Advisers';
      expect(await verdict("The broker for Keswick Bakery's policy is Dana Whitlock.", schedule)).toBe('supported');
    });

    const quote = ['# Wedding quotation', '', '**Planner:** Larkmoor Events Ltd', '**Couple:** Ada Finch and Tom Reyes', '', '## Not included', '', 'Flowers, music and the photographer are not included in this quote;'].join('\n');
    it('a name qualifying a noun the sentence says by a synonym (`the Larkmoor Events quotation` / `this quote`)', async () => {
      expect(await verdict('Flowers are not included in the Larkmoor Events quotation.', quote)).toBe('supported');
    });

    const convention = ['# Convention de stage', '', '**Stagiaire :** Mme Inès Valfort', '', '## Suspension', '', 'Une absence pour maladie est sans effet sur la convention de stage.'].join('\n');
    it('a name after `de` qualifies the noun before it (`la convention de stage de Inès Valfort` / `la convention de stage`)', async () => {
      expect(await verdict('Une absence pour maladie est sans effet sur la convention de stage de Inès Valfort.', convention)).toBe('supported');
    });

    it('not where the sentence says a name acts for a party: a role each party may hold is not told apart by its noun', async () => {
      const contract = ['# Contrat de prestation', '', '**Client :** Boulangerie Vasselin', '**Prestataire :** Ateliers Morand', '', '## Signatures', '', 'Pour le Client : Claire Dumont, gérante.'].join('\n');
      expect(await verdict('Claire Dumont est la gérante des Ateliers Morand.', contract)).not.toBe('supported');
    });
  });

  describe('a negated claim whose verb the sentence negates too', () => {
    const policy = '# Harbour Telecom service credits\n\nCredits are applied to the next invoice and are not paid in cash.';
    it("the verb's complements standing outside the sentence's negation do not make the polarity unclear", async () => {
      expect(await verdict('Harbour Telecom does not pay service credits in cash.', policy)).toBe('supported');
    });

    it('a verb the sentence affirms is no support', async () => {
      expect(await verdict('Harbour Telecom does not apply credits to the next invoice.', policy)).not.toBe('supported');
    });
  });

  describe('who a document is for and who wrote it (paraphrase lexicon)', () => {
    const invoice = '# Invoice TR-2027-311\n\n**For the attention of:** Nadia Keller, Finance Officer';
    it('`addressed to` is said by `For the attention of`', async () => {
      expect(await verdict('Invoice TR-2027-311 is addressed to Nadia Keller.', invoice)).toBe('supported');
    });

    it('`written by` is said by `Author:`, and a name in brackets after the author is his team, not another name', async () => {
      const report = '# Incident report: storage outage of 3 March 2027\n\n**Author of this report:** Tomas Lindqvist (Platform Engineering)';
      expect(await verdict('The incident report was written by Tomas Lindqvist.', report)).toBe('supported');
    });

    it('`a progressé` is said by `une hausse`', async () => {
      const minutes = "# Assemblée générale du club\n\nLe nombre d'adhérents est passé de 200 à 230 en un an, soit une hausse de 15 %.";
      expect(await verdict("Le nombre d'adhérents a progressé de 15 % en un an.", minutes)).toBe('supported');
    });
  });

  describe('amounts in words', () => {
    const lease = '# Equipment lease\n\nThe tenant may buy the equipment at the end of the term for 10% of its new value.';
    it('a fraction in words is a percentage (`a tenth` / `10%`); another share is no support', async () => {
      expect(await verdict('The tenant may buy the equipment at the end of the term for a tenth of its new value.', lease)).toBe('supported');
      expect(await verdict('The tenant may buy the equipment at the end of the term for a quarter of its new value.', lease)).not.toBe('supported');
    });

    it('`d’une année sur l’autre` is no amount (a year read as 12 months against the sentence’s other durations)', async () => {
      const rules = "# Règlement\n\nLes jours de congé d'ancienneté sont perdus après 2 ans et ne sont pas reportables d'une année sur l'autre.";
      expect(await verdict("Les jours de congé d'ancienneté ne sont pas reportables d'une année sur l'autre.", rules)).toBe('supported');
    });
  });

  describe("a table column's header gives its figures a currency", () => {
    const prices = '# Laboratory price list\n\n| Code | Test | Turnaround | Price (CHF) |\n| --- | --- | --- | --- |\n| B-210 | Coliform bacteria | 5 working days | 95.00 |';
    it('`Price (CHF)` makes `95.00` an amount in CHF: the claim is supported, another figure contradicted', async () => {
      expect(await verdict('The coliform bacteria test B-210 costs CHF 95.00.', prices)).toBe('supported');
      expect(await verdict('The coliform bacteria test B-210 costs CHF 120.00.', prices)).toBe('contradicted');
    });

    it('a currency the header does not name is no conflict', async () => {
      expect(await verdict('The coliform bacteria test B-210 costs EUR 120.00.', prices)).not.toBe('contradicted');
    });
  });

  it('a bare year after `for` is a year, not an amount (`the premium for 2027`)', async () => {
    const schedule = '# Policy schedule 2027\n\n| Item | Amount (USD) |\n| --- | --- |\n| Net premium payable | 12,480.00 |';
    expect(await verdict('The net premium payable for 2027 is USD 12,480.', schedule)).toBe('supported');
  });
});
