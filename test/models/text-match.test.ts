import { describe, expect, it } from 'vitest';
import { contentStems, smallTalkOf, splitSentences, stem } from '../../src/modules/models/text-match.js';

describe('text matching', () => {
  it('brings inflected forms to one stem', () => {
    expect(new Set(['order', 'orders', 'ordered', 'ordering'].map(stem)).size).toBe(1);
    expect(stem('policies')).toBe(stem('policy'));
    expect(stem('factures')).toBe(stem('facture'));
  });

  it('drops stop words and accents in English and French', () => {
    expect([...contentStems('What is the refund délai for the invoices?')]).toEqual(['refund', 'delai', 'invoic']);
    expect([...contentStems('Quelle est la date de la facturation ?')]).toEqual(['dat', 'factur']);
  });

  it('splits sentences at end punctuation and line breaks, not inside abbreviations', () => {
    expect(splitSentences('First one. Second, e.g. this one! Third?\n- a bullet\n\n2) numbered')).toEqual([
      'First one.',
      'Second, e.g. this one!',
      'Third?',
      'a bullet',
      'numbered',
    ]);
  });

  it('recognises small talk but not real questions', () => {
    expect(smallTalkOf('Hi there!')).toBe('greeting');
    expect(smallTalkOf('Bonjour')).toBe('greeting');
    expect(smallTalkOf('Thank you so much')).toBe('thanks');
    expect(smallTalkOf('merci')).toBe('thanks');
    expect(smallTalkOf('bye')).toBe('farewell');
    expect(smallTalkOf('Hi, what is the refund policy?')).toBeUndefined();
  });
});
