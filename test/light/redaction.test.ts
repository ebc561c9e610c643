import { describe, expect, it } from 'vitest';
import { redactQuery } from '../../src/modules/light/redaction.js';

describe('redactQuery', () => {
  it('removes dossier and client names whatever their case, accents and punctuation', () => {
    expect(redactQuery('Is the Société Générale-Lyon deal (Hôtel-Dieu) closed?', ['societe generale-lyon', 'Hotel-Dieu'])).toBe('is the deal closed?');
    expect(redactQuery('Ask about a.b*c [x] and \\path/ now', ['a.b*c', '[x]', '\\path/'])).toBe('ask about and now');
  });

  it('masks personal data and survives any name a dossier may have', () => {
    expect(redactQuery('Mail jane@example.com or call +33 6 12 34 56 78 about IBAN FR14 2004 1010 0505 0001 3M02 606', [])).toBe(
      'mail or call about iban',
    );
    const odd = ['-', '(', ')', '\\', '$', '\ud800', 'a{2}', '?', ' '];
    expect(() => redactQuery('a question - with ( odd ) parts?', odd)).not.toThrow();
  });
});
