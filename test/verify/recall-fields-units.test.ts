import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/** Tenth round (vrecall2): a field's value without a verb, units of other systems (docs/verifier.md, "Tenth round: recall"). */
describe('verifier: fields and units', () => {
  it('field: a table row states its amount with no verb; the claim verb only links subject and amount', async () => {
    const doc = '| Item | Size | Price |\n| --- | --- | --- |\n| Hawthorn seed trays | 40 cm tray | £3.20 |';
    expect(await verdict('Hawthorn seed trays are sold in 40 cm trays.', doc)).toBe('supported');
    expect(await verdict('Hawthorn seed trays are sold in 60 cm trays.', doc)).toBe('contradicted');
  });

  it('field, its limit: a date claim still needs its verb in a field (signed on is not a start date)', async () => {
    const doc = '**Start date:** 12 January 2026';
    expect(await verdict('The agreement was signed on 12 January 2026.', doc)).toBe('unverifiable');
  });

  it('field, its limit: a row stating the claim amount in another column is no conflict', async () => {
    const doc = '| Budget line | Year 1 | Year 2 | Total |\n| --- | --- | --- | --- |\n| Field sampling and travel | £5,100 | £6,900 | £12,000 |';
    expect(await verdict('The grant allocates £12,000 to field sampling and travel.', doc)).not.toBe('contradicted');
  });

  it('imperial unit: the same figure in gallons against litres is a conflict', async () => {
    expect(await verdict('The cooling tank holds 2,400 gallons of glycol.', 'The cooling tank holds 2,400 litres of glycol.')).toBe('contradicted');
  });

  it('French pound: livres is a mass, against kilograms a conflict; livres sterling is money', async () => {
    const doc = 'Le transpalette a une capacité nominale de 1 800 kg.';
    expect(await verdict('Le transpalette a une capacité nominale de 1 800 livres.', doc)).toBe('contradicted');
    expect(await verdict('La cotisation annuelle est de 500 livres sterling.', 'La cotisation annuelle est de 500 £.')).toBe('supported');
  });

  it('lower-case to is no terabyte unit: £27,000 to a budget line is £27,000', async () => {
    expect(await verdict('The trust gives £27,000 to the library fund.', 'The trust gives the library fund £27,000.')).toBe('supported');
  });
});
