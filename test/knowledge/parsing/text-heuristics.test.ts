import { describe, expect, it } from 'vitest';
import { parseDate } from '../../../src/modules/knowledge/parsing/dates.js';
import { looksLikeHeading, unwrapLines } from '../../../src/modules/knowledge/parsing/lines.js';
import { splitSentences } from '../../../src/modules/knowledge/parsing/sentences.js';

describe('splitSentences', () => {
  it('splits on terminal punctuation before a capital or digit, and on line breaks', () => {
    expect(splitSentences('One is here. Two is "there." 3 follows! Is it? Yes…\nNew line')).toEqual([
      'One is here.',
      'Two is "there."',
      '3 follows!',
      'Is it?',
      'Yes…',
      'New line',
    ]);
  });

  it('does not split decimals, lowercase continuations, abbreviations or initials', () => {
    expect(splitSentences('Pay 3.5 EUR, e.g. by card. Ask Dr. Smith or M. Dupont on Dec. 3 at J. F. Kennedy airport.')).toEqual([
      'Pay 3.5 EUR, e.g. by card.',
      'Ask Dr. Smith or M. Dupont on Dec. 3 at J. F. Kennedy airport.',
    ]);
    expect(splitSentences('Combien ça coûte ? Ça coûte 10 €.')).toEqual(['Combien ça coûte ?', 'Ça coûte 10 €.']);
  });
});

describe('looksLikeHeading', () => {
  it.each(['Introduction', '2.1 Scope', '3. Pricing and Billing', 'IV. Termination', 'GENERAL TERMS', 'Terms of Service', 'Conditions Générales de Vente'])(
    'accepts %j',
    (line) => expect(looksLikeHeading(line)).toBe(true),
  );
  it.each([
    'The fee is 120 EUR.',
    'Page two body text',
    'How do I cancel?',
    'Contact:',
    '2024',
    'A heading that goes on and on with far too many words to be one',
    '1. apples and pears',
  ])('rejects %j', (line) => expect(looksLikeHeading(line)).toBe(false));
});

describe('unwrapLines', () => {
  it('joins wrapped prose, keeps short lines and list items apart, and rejoins hyphenated words', () => {
    expect(
      unwrapLines([
        'This is a long line of prose that was wrapped by the layout and',
        'continues here with the rest of the informa-',
        'tion we need.',
        'Name: Jane',
        'Role: Admin',
        '- first item of a list that is quite long indeed, really',
        '- second item',
      ]),
    ).toBe(
      'This is a long line of prose that was wrapped by the layout and continues here with the rest of the information we need.\nName: Jane\nRole: Admin\n- first item of a list that is quite long indeed, really\n- second item',
    );
  });
});

describe('parseDate', () => {
  it.each([
    ['2026-02-28', '2026-02-28'],
    ['28/02/2026', '2026-02-28'],
    ['February 28, 2026', '2026-02-28'],
    ['Feb 28 2026', '2026-02-28'],
    ['28 February 2026', '2026-02-28'],
    ['28 février 2026', '2026-02-28'],
    ['1er mars 2026', '2026-03-01'],
    ['1 AOÛT 2026', '2026-08-01'],
  ])('reads %j', (text, iso) => expect(parseDate(text)).toBe(iso));

  it.each(['2026-02-30', '31/04/2026', 'Smarch 3, 2026', '2026', 'next Friday'])('rejects %j', (text) => expect(parseDate(text)).toBeNull());
});
