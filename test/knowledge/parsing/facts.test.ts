import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../../src/modules/knowledge/parsing/chunk.js';
import {
  contradictionSeverity,
  extractFacts,
  factsContradict,
  isExpired,
  normalizeSubject,
  type ExtractedFact,
} from '../../../src/modules/knowledge/parsing/facts.js';

const chunk = (text: string, ordinal = 0): Chunk => ({ ordinal, text, section: '', page: 1, tokenEstimate: 0 });
const factsOf = (text: string) => extractFacts([chunk(text)]);
const one = (text: string) => {
  const facts = factsOf(text);
  expect(facts).toHaveLength(1);
  return facts[0];
};
const fact = (subject: string, value: string, validUntil: string | null = null): ExtractedFact => ({
  subject,
  value,
  validUntil,
  statement: `${subject} is ${value}.`,
  chunkOrdinal: 0,
});

describe('extractFacts: shapes', () => {
  it.each([
    ['The service fee is 120 EUR.', 'The service fee', '120 EUR'],
    ['Support hours are 9:00 to 17:00.', 'Support hours', '9:00 to 17:00'],
    ['The previous rate was 3.5%.', 'The previous rate', '3.5%'],
    ['One credit equals 1000 tokens.', 'One credit', '1000 tokens'],
    ['The premium plan costs 49 USD per month.', 'The premium plan', '49 USD per month'],
    ['The retry limit is set to 5.', 'The retry limit', '5'],
    ["Le tarif de l'abonnement est de 99 €.", "Le tarif de l'abonnement", 'de 99 €'],
    ['Les frais de dossier sont offerts.', 'Les frais de dossier', 'offerts'],
    ['Le plafond vaut 3 000 €.', 'Le plafond', '3 000 €'],
    ['La licence coûte 200 € par an.', 'La licence', '200 € par an'],
    ['Le délai est fixé à 30 jours.', 'Le délai', '30 jours'],
    ['Hotel cap: 150 EUR', 'Hotel cap', '150 EUR'],
    ['Prix : 10 €', 'Prix', '10 €'],
    ['- Notice period: two months.', 'Notice period', 'two months'],
    ['Note: the deposit is 500 EUR.', 'the deposit', '500 EUR'],
  ])('reads %j', (text, subject, value) => {
    expect(one(text)).toEqual({ subject, value, validUntil: null, statement: text, chunkOrdinal: 0 });
  });

  it.each([
    ['a question', 'Is the fee 120 EUR?'],
    ['a pronoun subject', 'It is valid for everyone.'],
    ['a demonstrative subject', 'This is the new policy.'],
    ['an expletive subject', 'There are three plans.'],
    ['a conditional clause', 'If the invoice is late, a penalty applies.'],
    ['a subject behind a comma', 'For members, the fee is 80 EUR.'],
    ['a prepositional opening', 'In 2024 the fee was 100 EUR.'],
    ['a French pronoun', "C'est gratuit pour les étudiants."],
    ['a subject of more than eight words', 'The amount that every single new customer in the region pays is 10 EUR.'],
    ['a value of more than twelve words', 'The goal is to make sure that every customer gets an answer within one working day or less.'],
    ['the passive voice', 'The key is used to sign every request.'],
    ['a French passive', 'Le siège est situé à Lyon.'],
    ['no verb at all', 'Welcome to the handbook.'],
    ['a URL colon', 'https://example.com/pricing'],
    ['a bare label', 'Warning: read carefully before signing anything.'],
  ])('skips %s', (_, text) => {
    expect(factsOf(text)).toEqual([]);
  });

  it('reads several facts per chunk, keeps each once, and records the chunk ordinal', () => {
    const facts = extractFacts([
      chunk('The fee is 120 EUR. Nothing else here. Hotel cap: 150 EUR', 0),
      chunk('The fee is 120 EUR.\nThe deposit is 300 EUR.', 1),
    ]);
    expect(facts.map((f) => [f.subject, f.value, f.chunkOrdinal])).toEqual([
      ['The fee', '120 EUR', 0],
      ['Hotel cap', '150 EUR', 0],
      ['The deposit', '300 EUR', 1],
    ]);
  });
});

describe('extractFacts: validity dates', () => {
  it.each([
    ['The promo code is SPRING25, valid until 2026-05-31.', 'SPRING25', '2026-05-31'],
    ['The promo code is SPRING25 until 31/05/2026.', 'SPRING25', '2026-05-31'],
    ['The promo code is SPRING25 through May 31, 2026.', 'SPRING25', '2026-05-31'],
    ['The promo code is SPRING25 (expires on Dec. 1st 2026).', 'SPRING25', '2026-12-01'],
    ['The promo code is SPRING25 valid until 31 May 2026.', 'SPRING25', '2026-05-31'],
    ['Le code promo est PRINTEMPS jusqu’au 1er juin 2026.', 'PRINTEMPS', '2026-06-01'],
    ['Le code promo est PRINTEMPS, valable jusqu’au 15 février 2026.', 'PRINTEMPS', '2026-02-15'],
    ["Tarif réduit : 80 € jusqu'au 31/12/2026", '80 €', '2026-12-31'],
    ['Until 2026-01-15, the entry fee is 5 EUR.', '5 EUR', '2026-01-15'],
  ])('reads %j', (text, value, validUntil) => {
    expect(one(text)).toMatchObject({ value, validUntil, statement: text });
  });

  it('ignores impossible dates, dates without a validity marker, and markers without a date', () => {
    expect(one('The promo code is SPRING25 until 31/02/2026.').validUntil).toBeNull();
    expect(one('The launch date is 2026-03-01.')).toMatchObject({ value: '2026-03-01', validUntil: null });
    expect(one('The shop is open until 6 pm.')).toMatchObject({ value: 'open until 6 pm', validUntil: null });
  });

  it('reads a date only in the sentence of the fact', () => {
    expect(one('The fee is 120 EUR. It applies until 2026-12-31.')).toMatchObject({ value: '120 EUR', validUntil: null });
  });
});

describe('normalizeSubject', () => {
  it('lowercases, strips accents, articles, elisions and punctuation', () => {
    expect(normalizeSubject('  The  Service Fee ')).toBe('service fee');
    expect(normalizeSubject('Le Délai')).toBe('delai');
    expect(normalizeSubject("L'abonnement")).toBe('abonnement');
    expect(normalizeSubject('Le tarif de l’abonnement')).toBe('tarif de abonnement');
    expect(normalizeSubject('A fee')).toBe('fee');
    expect(normalizeSubject('Plan A price')).toBe('plan a price');
    expect(normalizeSubject('Hotel-cap (EUR)')).toBe('hotel cap eur');
  });
});

describe('factsContradict', () => {
  it('needs the same normalised subject and a different value', () => {
    expect(factsContradict(fact('The service fee', '120 EUR'), fact('service fee', '150 EUR'))).toBe(true);
    expect(factsContradict(fact('Le délai', '30 jours'), fact('le delai', '45 jours'))).toBe(true);
    expect(factsContradict(fact('The service fee', '120 EUR'), fact('The setup fee', '150 EUR'))).toBe(false);
    expect(factsContradict(fact('The capital', 'Paris'), fact('the capital', 'paris.'))).toBe(false);
  });

  it('treats the same quantity written differently as the same value', () => {
    expect(factsContradict(fact('fee', '120 EUR'), fact('fee', '€120'))).toBe(false);
    expect(factsContradict(fact('fee', '120 euros'), fact('fee', '120 EUR'))).toBe(false);
    expect(factsContradict(fact('cap', '1,500'), fact('cap', '1 500'))).toBe(false);
    expect(factsContradict(fact('rate', '12,5 %'), fact('rate', '12.5%'))).toBe(false);
    expect(factsContradict(fact('tarif', 'de 99 €'), fact('tarif', '99 EUR'))).toBe(false);
    expect(factsContradict(fact('deadline', 'March 1, 2026'), fact('deadline', '2026-03-01'))).toBe(false);
    expect(factsContradict(fact('fee', '120 EUR'), fact('fee', '120 USD'))).toBe(true);
  });
});

describe('contradictionSeverity', () => {
  const asOf = new Date('2026-06-15T10:00:00Z');

  it('is high when both values are quantities that differ', () => {
    expect(contradictionSeverity(fact('fee', '120 EUR'), fact('fee', '150 EUR'), asOf)).toBe('high');
    expect(contradictionSeverity(fact('rate', '3%'), fact('rate', '4 %'), asOf)).toBe('high');
    expect(contradictionSeverity(fact('deadline', '2026-03-01'), fact('deadline', '1 April 2026'), asOf)).toBe('high');
  });

  it('is medium when a value is not a quantity', () => {
    expect(contradictionSeverity(fact('owner', 'the finance team'), fact('owner', 'the legal team'), asOf)).toBe('medium');
    expect(contradictionSeverity(fact('fee', '120 EUR'), fact('fee', 'free'), asOf)).toBe('medium');
  });

  it('is low when either fact is expired, whatever the values', () => {
    expect(contradictionSeverity(fact('fee', '120 EUR', '2026-06-14'), fact('fee', '150 EUR'), asOf)).toBe('low');
    expect(contradictionSeverity(fact('fee', '120 EUR'), fact('fee', '150 EUR', '2025-12-31'), asOf)).toBe('low');
    expect(contradictionSeverity(fact('fee', '120 EUR', '2026-06-15'), fact('fee', '150 EUR'), asOf)).toBe('high');
  });
});

describe('isExpired', () => {
  it('holds through the validity day itself', () => {
    const asOf = new Date('2026-06-15T23:59:00Z');
    expect(isExpired({ validUntil: '2026-06-15' }, asOf)).toBe(false);
    expect(isExpired({ validUntil: '2026-06-14' }, asOf)).toBe(true);
    expect(isExpired({ validUntil: null }, asOf)).toBe(false);
  });
});
