/**
 * The other words a word may be written as in a document: its WordNet synonyms (English) and its
 * renderings in the other language and abbreviations (glossary.ts), folded, one word each. Shared by the
 * verifier, light's coverage and the knowledge search, which all weigh them below the word itself.
 */
import { translationsOf } from './glossary.js';
import { synonymsOf } from './wordnet.js';

/** At most this many alternatives per word (WordNet's most frequent senses come first). */
export const MAX_ALTERNATIVES = 8;

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

export function alternativesOf(folded: string): string[] {
  if (folded.length < 3 || /\d/.test(folded)) return [];
  const out = new Set<string>();
  for (const w of translationsOf(folded)) out.add(w);
  for (const w of synonymsOf(folded)) {
    const f = fold(w);
    if (/^[\p{L}]+$/u.test(f) && f.length > 2) out.add(f);
  }
  out.delete(folded);
  return [...out].slice(0, MAX_ALTERNATIVES);
}
