import { describe, expect, it } from 'vitest';
import { entitiesOf } from '../../src/lib/language/entities.js';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/** The rules of issue 26, each tested on the kind of case it handles (docs/verifier.md, "Rules"). */
describe('verifier rules', () => {
  it('negation: a negation in another clause of the evidence sentence does not contradict', async () => {
    const doc = 'The booking fee is not refundable, but the deposit is returned within 30 days.';
    expect(await verdict('The deposit is returned within 30 days.', doc)).toBe('supported');
    expect(await verdict('The booking fee is refundable.', doc)).toBe('contradicted');
  });

  it('negation: a bound (no later than, not more than) is not a negation', async () => {
    expect(await verdict('The report is due by 30 June 2025.', 'The report is due no later than 30 June 2025.')).toBe('supported');
  });

  it('names: recognised by the NLP tagger, not by capitals (VAT is not a name)', () => {
    expect(entitiesOf('The VAT rate is 20%.').map((e) => e.text)).toEqual([]);
    expect(entitiesOf('The lease was signed by Marie Dupont for Harbor Logistics Ltd.').map((e) => e.text)).toEqual(['Marie Dupont', 'Harbor Logistics Ltd']);
    expect(entitiesOf('Does the Aurelo T6 support it?').map((e) => e.text)).toEqual(['Aurelo', 'T6']);
  });

  it('absent entity: a claim about a product no evidence mentions is unverifiable, not judged on its other words', async () => {
    const doc = 'The Aurelo T4 weighs 4 kg and costs 300 EUR.';
    expect(await verdict('The Aurelo T6 weighs 5 kg.', doc)).toBe('unverifiable');
    expect(await verdict('The Aurelo T4 weighs 4 kg.', doc)).toBe('supported');
  });

  it('changed name: another name where the evidence names someone is a contradiction', async () => {
    const doc = 'The lease was signed for the landlord by Jean Martin on 3 May 2025.';
    expect(await verdict('The lease was signed for the landlord by Marie Dupont.', doc)).toBe('contradicted');
  });

  it('amount of the same subject: an amount is compared with the amount of the same thing in the sentence', async () => {
    const doc = 'The deposit is 900 EUR, and the monthly rent is 1 200 EUR.';
    expect(await verdict('The deposit is 1 200 EUR.', doc)).toBe('contradicted');
    expect(await verdict('The monthly rent is 1 200 EUR.', doc)).toBe('supported');
  });

  it('amount of the same line: a table row is compared through its column header', async () => {
    const doc = ['# Invoice INV-2025-0001', '', '| Item | Unit price | Line total |', '|---|---|---|', '| Desk chair | £189.00 | £1,134.00 |'].join('\n');
    expect(await verdict('The line total of the desk chairs on invoice INV-2025-0001 is £1,134.00.', doc)).toBe('supported');
    expect(await verdict('The unit price of the desk chair on invoice INV-2025-0001 is £1,134.00.', doc)).toBe('contradicted');
  });

  it('units and currencies: normalised (grams and kilograms, per cent and %), a different currency or unit contradicts', async () => {
    expect(await verdict('The purifier weighs 5 200 grams.', 'The purifier weighs 5.2 kg.')).toBe('supported');
    expect(await verdict('The purifier weighs 5.2 lb.', 'The purifier weighs 5.2 kg.')).toBe('contradicted');
    expect(await verdict('VAT is charged at twenty per cent.', 'VAT is charged at 20%.')).toBe('supported');
    expect(await verdict('The monthly fee is £4,250.', 'The monthly fee is €4,250.')).toBe('contradicted');
  });

  it('synonyms: a WordNet synonym counts (cost for price)', async () => {
    expect(await verdict('The cost of the filter is 40 EUR.', 'The price of the filter is 40 EUR.')).toBe('supported');
  });

  it('French: stems and the document context (title) carry a French claim', async () => {
    const doc = ['# Contrat de maintenance', '', 'La redevance annuelle est fixée à 12 600 € HT.'].join('\n');
    expect(await verdict('La redevance annuelle du contrat de maintenance est de 12 600 € HT.', doc)).toBe('supported');
    expect(await verdict('La redevance annuelle du contrat de maintenance est de 13 600 € HT.', doc)).toBe('contradicted');
  });

  it('document context: the invoice number in the title counts for a row of its table', async () => {
    const doc = ['# Invoice INV-2025-0318', '', '| Field | Amount |', '|---|---|', '| Total due | £3,108.00 |'].join('\n');
    expect(await verdict('The total due on invoice INV-2025-0318 is £3,108.00.', doc)).toBe('supported');
    expect(await verdict('The total due on invoice INV-2025-0412 is £3,108.00.', doc)).toBe('unverifiable');
  });
});
