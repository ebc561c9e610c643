import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/** Ninth round (vrecall): the same fact written in other forms than the document's (docs/verifier.md, "Ninth round: recall"). */
describe('verifier: the same fact in other forms', () => {
  it('duration: a number joined to its unit by a hyphen is that duration (a three-year term is a term of three years)', async () => {
    const doc = 'Dana Whitfield was appointed Secretary for a term of three years.';
    expect(await verdict('Dana Whitfield was appointed Secretary for a three-year term.', doc)).toBe('supported');
    expect(await verdict('Dana Whitfield was appointed Secretary for a two-year term.', doc)).toBe('contradicted');
  });

  it('fraction: the numerator word of a fraction is no amount of its own (seven-tenths is 70 %)', async () => {
    expect(await verdict('The filter must pass at least seven-tenths of its rated flow.', 'The filter must pass at least 70% of its rated flow.')).toBe('supported');
    expect(await verdict('The filter must pass at least seven-tenths of its rated flow.', 'The filter must pass at least 60% of its rated flow.')).toBe('contradicted');
  });

  it('clause number: the number opening a clause is no amount (6.1 The Processor shall…)', async () => {
    const doc = '6.1 The Contractor shall report any site accident to the Client without undue delay and in any case within 24 hours of becoming aware of it.';
    expect(await verdict('The Contractor must report a site accident to the Client within 24 hours of becoming aware of it.', doc)).toBe('supported');
  });

  it('tax basis: before VAT is excluding VAT, and excluding VAT is no exception to the sentence', async () => {
    const doc = '**Monthly licence fee:** €2,300 (excluding VAT) for 40 named users';
    expect(await verdict('The licence costs €2,300 a month before VAT.', doc)).toBe('supported');
    expect(await verdict('The licence costs €2,300 a month excluding VAT.', 'The monthly licence fee is €2,300 excluding VAT.')).toBe('supported');
  });

  it('rate per item: a yearly amount is not compared with a price per visit', async () => {
    expect(await verdict('The cleaning visits cost £9,000 a year.', 'The cleaning visits cost £95 per visit.')).toBe('unverifiable');
    expect(await verdict('The cleaning visits cost £120 per visit.', 'The cleaning visits cost £95 per visit.')).toBe('contradicted');
  });

  it('participle opening a claim: an adjective, not its verb; as after a participle keeps the negation (not counted as)', async () => {
    const doc = 'Planned maintenance takes place on Saturdays between 02:00 and 04:00, is announced a week ahead, and is not counted as an outage.';
    expect(await verdict('Planned maintenance on Saturdays counts as an outage.', doc)).toBe('contradicted');
  });
});
