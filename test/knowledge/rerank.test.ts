import { describe, expect, it } from 'vitest';
import { rerank } from '../../src/modules/knowledge/rerank.js';
import { queryWordGroups, termGroups } from '../../src/modules/knowledge/search-text.js';

const hit = (sourceId: string, text: string, rank: number, sourceName = `${sourceId}.md`) => ({ sourceId, sourceName, section: '', text, rank });
const order = (query: string, hits: ReturnType<typeof hit>[]) => rerank(hits, termGroups(query, queryWordGroups(query))).map((h) => h.text);

describe('knowledge search: reordering of an expanded query (rerank.ts)', () => {
  it('synonym beside the exact word: a stray synonym does not lift a passage over one holding the words themselves', () => {
    // Summed, the two synonyms of "air" (WordNet's "atmosphere" and "aura") would weigh as much as "replacement".
    const stray = hit('manual', 'The air filter keeps the atmosphere of the room fresh and its aura calm.', 0.5);
    const exact = hit('manual', 'Air filter replacement: every 6 months.', 0.3);
    expect(order('air filter replacement', [stray, exact])[0]).toBe(exact.text);
  });

  it('name stated once in the document: the passage that answers outranks the heading that names the parties', () => {
    const heading = hit('lease', 'Lease between Harlow Brook Business Park and Braddock Tile Ltd, signed 2 March 2026.', 0.6);
    const answer = hit('lease', 'The initial annual rent is £42,000, payable quarterly in advance.', 0.2);
    const otherHeading = hit('supply', 'Supply agreement between Braddock Tile Ltd and Quillmere.', 0.5);
    expect(order('What is the initial annual rent of Harlow Brook Business Park?', [heading, otherHeading, answer])[0]).toBe(answer.text);
  });

  it('name in another document only: it counts for the passages of its own document, not the others', () => {
    const mine = hit('lease', 'The initial annual rent is £42,000.', 0.2, 'lease-harlow-brook.md');
    const other = hit('office', 'The initial annual rent is £18,500.', 0.3, 'lease-office.md');
    expect(order('What is the initial annual rent at Harlow Brook?', [other, mine])[0]).toBe(mine.text);
  });

  it('paraphrase of the lexicon: "how heavy" finds the passage stating the weight', () => {
    const weight = hit('manual', 'Specification | AQ-200 Clean air delivery rate | 280 m³/h Dimensions | 30 × 30 × 58 cm Weight | 5.2 kg', 0.1);
    const other = hit('manual', 'Remove all packaging. Place the purifier on a flat surface.', 0.4);
    expect(order('How heavy is the AQ-200 air purifier?', [other, weight])[0]).toBe(weight.text);
  });

  it('cross-lingual: a French question ranks the English passage holding the translations of its words first', () => {
    const heading = hit('loan', 'Lender: Corvain Savings Bank plc, Business Lending Centre. Borrower: Hollowmere Joinery Ltd.', 0.55);
    const answer = hit('loan', '2.1 Interest accrues at a fixed rate of 6.2% per year on the outstanding principal.', 0.5);
    expect(order("Quel est le taux d'intérêt du prêt accordé par Corvain Savings Bank ?", [heading, answer])[0]).toBe(answer.text);
  });

  it('similarity: each hit keeps its full-text rank; the order changes, not the figure', () => {
    const query = 'refund policy annual plans';
    const out = rerank([hit('a', 'Shipping fees.', 0.9), hit('b', 'Refund policy: annual plans are prorated.', 0.1)], termGroups(query, queryWordGroups(query)));
    expect(out.map((h) => [h.sourceId, h.rank])).toEqual([
      ['b', 0.1],
      ['a', 0.9],
    ]);
  });
});
