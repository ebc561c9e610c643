import { describe, expect, it } from 'vitest';
import { answerTypeOf, holdsAnswerType } from '../../src/lib/language/answer-type.js';
import { specificTermsOf } from '../../src/lib/language/entities.js';
import { expansionTerms, queryTerms } from '../../src/modules/knowledge/search-text.js';
import { coverageOf, termGroups } from '../../src/modules/light/coverage.js';
import { declined } from '../../src/modules/light/grounded.js';
import { answers } from '../../src/modules/light/light.service.js';

/** Light's gate and the search's expansion (issue 26), each rule on the kind of case it handles (docs/light.md, "The gate"). */
const passage = (text: string, sourceName = 'price-list.md', section = '') => ({ text, section, sourceName, sourceId: 'src_1' });
const gateOf = (question: string) => ({ terms: specificTermsOf(question), namedIn: [] as Set<string>[], type: answerTypeOf(question) });

describe("light's gate", () => {
  it('absent entity: a passage without the product model the question names does not answer (AQ-500 is not AQ-350)', () => {
    const q = 'What is the clean air delivery rate of the AQ-500?';
    expect(answers(passage('| AQ-350 | up to 60 m² | 450 m³/h |'), gateOf(q))).toBe(false);
    expect(answers(passage('| AQ-500 | up to 80 m² | 600 m³/h |'), gateOf(q))).toBe(true);
  });

  it('absent entity: an invoice number counts as written, not as its pieces found apart', () => {
    const q = 'What is the total of invoice INV-2025-0412?';
    expect(answers(passage('Total due: £3,108.00. See also order 0412 of 2025.', 'invoice-inv-2025-0318.md'), gateOf(q))).toBe(false);
    expect(answers(passage('Total due: £3,108.00.', 'invoice-inv-2025-0412.md'), gateOf(q))).toBe(true);
  });

  it('answer type: a when-question needs a date in the passage, a how-much question a figure, who a person or body, where a place', () => {
    expect(answerTypeOf('When was the agreement signed?')).toBe('date');
    expect(answerTypeOf('Combien coûte le transport ?')).toBe('amount');
    expect(answerTypeOf('How long is the warranty?')).toBe('duration');
    expect(answerTypeOf('Who chairs the board?')).toBe('person');
    expect(answerTypeOf('Où se trouve le siège ?')).toBe('place');
    expect(holdsAnswerType('date', 'The agreement was signed by both parties.')).toBe(false);
    expect(holdsAnswerType('date', 'The agreement was signed on 14 February 2025.')).toBe(true);
    expect(holdsAnswerType('duration', 'The warranty lasts 2 years.')).toBe(true);
    expect(holdsAnswerType('person', 'The board is chaired by the finance director.')).toBe(true);
    expect(holdsAnswerType('place', 'Data is stored in Frankfurt.')).toBe(true);
  });

  it('deadline: a when-must question is answered by a time limit too', () => {
    expect(answerTypeOf('When must invoices be paid?')).toBe('deadline');
    expect(holdsAnswerType('deadline', 'Invoices are payable within 30 days.')).toBe(true);
    expect(holdsAnswerType('date', 'Invoices are payable within 30 days.')).toBe(false);
  });

  it('synonym: a synonym of the question word covers it, below the word itself', () => {
    const groups = termGroups('What is the price of the filter?');
    const freq = { total: 10, df: groups.map(() => 1) };
    const exact = coverageOf(groups, freq, [{ section: '', text: 'The price of the filter is 40 EUR.' }]);
    const synonym = coverageOf(groups, freq, [{ section: '', text: 'The cost of the filter is 40 EUR.' }]);
    expect(synonym.coverage).toBeGreaterThan(0.5);
    expect(synonym.coverage).toBeLessThan(exact.coverage);
  });

  it('cross-lingual: an English question covers a French passage through the glossary', () => {
    const groups = termGroups('What is the total of the invoice?');
    const freq = { total: 10, df: groups.map(() => 1) };
    expect(coverageOf(groups, freq, [{ section: '', text: 'Le total de la facture est de 640 €.' }]).coverage).toBeGreaterThan(0.7);
  });

  it('near miss: the heaviest word the best passage lacks is reported (the gate refuses above SVC_LIGHT_MAX_MISSING)', () => {
    const groups = termGroups('What penalty is charged when late?');
    const freq = { total: 100, df: groups.map((g) => (g.prefix.startsWith('penal') ? 0 : 3)) };
    const found = coverageOf(groups, freq, [{ section: '', text: 'A fee is charged when the payment is late.' }]);
    expect(found.coverage).toBeGreaterThan(0.5);
    expect(found.missing).toBeGreaterThan(0.4);
  });

  it("a real model's refusal in its own words is a refusal (English and French)", () => {
    expect(declined('NOT_IN_DOCUMENTS')).toBe(true);
    expect(declined('The passages do not mention any penalty for late acknowledgement.')).toBe(true);
    expect(declined('Les documents ne précisent pas le tarif horaire.')).toBe(true);
    expect(declined('The fee is 40 EUR [1].')).toBe(false);
  });
});

describe('knowledge search expansion', () => {
  it('adds word forms, synonyms and translations below the exact words', () => {
    const terms = queryTerms('When is the invoice due for the lease termination?');
    const wide = expansionTerms(terms);
    expect(wide).toContain("'facture'");
    expect(wide).toContain("'resiliation'");
    expect(wide.some((t) => t.endsWith(':*'))).toBe(true);
    for (const t of terms) expect(wide).not.toContain(`'${t}'`);
  });
});
