import { alternativesOf } from '../../lib/language/alternatives.js';
import { relatedWords } from '../../lib/language/asked.js';
import { specificTermsOf } from '../../lib/language/entities.js';
import { translationsOf } from '../../lib/language/glossary.js';
import { stem } from '../models/index.js';
import { foldText } from './parsing/sentences.js';

/**
 * Text as the full-text index sees it, on both sides (chunks and queries), so that tokenisation is
 * the same: case and accents folded, every character that is not a letter or a digit made a space.
 * The index uses PostgreSQL's language-neutral `simple` configuration on this text: no stemming and
 * no stop words in the index, which keeps French, English and mixed documents searchable alike and
 * behaves identically on the embedded database. See docs/knowledge.md (Search).
 */
export function indexText(text: string): string {
  return foldText(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const words = (text: string): string[] => indexText(text).split(' ').filter(Boolean);

/**
 * A crude plural fold shared by index and query: a word of more than three letters ending in one `s`
 * also stands for the word without it (`fees` ↔ `fee`, `délais` ↔ `delai`). It is added beside the
 * word, never instead of it, so exact matches still rank first.
 */
export function singularOf(word: string): string | null {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && /\p{L}$/u.test(word.slice(0, -1)) ? word.slice(0, -1) : null;
}

/** Singular forms of the plural-looking words of a chunk, indexed at the lowest weight. */
export function indexSingulars(text: string): string {
  const out = new Set<string>();
  for (const w of words(text)) {
    const s = singularOf(w);
    if (s) out.add(s);
  }
  return [...out].join(' ');
}

// Function words of English and French: dropped from natural-language queries (they would match
// nearly every passage), kept when the query has nothing else.
const STOP_WORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from as into about over under than that this these those ' +
    'is are was were be been being am do does did done have has had having will would shall should can could may might must ' +
    'i me my we our you your he him his she her it its they them their what which who whom whose when where why how ' +
    'not no yes all any some each every there here so such too very just also only own same other more most few s t ' +
    'please tell give show list explain describe know need want find ' +
    'le la les l un une des du de d et ou mais donc or ni car si alors que qu qui quoi quel quelle quels quelles dont ou ' +
    'ce cet cette ces c ca cela ceci je j me m moi tu te t toi il elle on nous vous ils elles leur leurs lui y en ' +
    'mon ma mes ton ta tes son sa ses notre nos votre vos est sont etre ete etait suis es sommes etes ai as avons avez ont ' +
    'a au aux avec sans pour par sur sous dans chez vers entre pas ne plus moins tres tout tous toute toutes aussi comme ' +
    'quand comment pourquoi combien svp merci stp dit dire donner donne liste lister expliquer decrire'
  ).split(' '),
);

const MAX_TERMS = 32;

/** The words of a natural-language query worth matching, plus their singular forms; at most 32 words. */
export function queryTerms(query: string): string[] {
  return [...new Set(queryWordGroups(query).flat())];
}

/** The words of the query worth matching, each with its singular form when it has one (in query order). */
export function queryWordGroups(query: string): string[][] {
  const all = [...new Set(words(query))];
  const content = all.filter((w) => !STOP_WORDS.has(w));
  const chosen = (content.length > 0 ? content : all).slice(0, MAX_TERMS);
  return chosen.map((w) => {
    const s = singularOf(w);
    return s && s !== w ? [w, s] : [w];
  });
}

/** Words of the query the first tier of a bounded ranking pairs (its size grows with their square). */
const MAX_PAIRED_WORDS = 10;

/**
 * The tsquery of passages holding at least two different words of the query (a word or its singular),
 * over its first MAX_PAIRED_WORDS words; empty for a query of one word. The first tier of the bounded
 * ranking (knowledge.repository.ts, searchChunks).
 */
export function twoWordQuery(groups: string[][]): string {
  const g = groups.slice(0, MAX_PAIRED_WORDS).map((forms) => (forms.length === 1 ? `'${forms[0]}'` : `(${forms.map((f) => `'${f}'`).join(' | ')})`));
  const pairs: string[] = [];
  for (let i = 0; i < g.length; i++) for (let j = i + 1; j < g.length; j++) pairs.push(`(${g[i]} & ${g[j]})`);
  return pairs.join(' | ');
}

/** Expansion terms per query, at most (they widen the match; the exact words still rank first). */
const MAX_EXPANSIONS = 24;
/** Shortest prefix searched for another form of a word (`resili` finds résiliation and résilier). */
const MIN_FORM_PREFIX = 5;

/** The word's stem as a word prefix (`resili` of résiliation), when at least 5 letters and shorter than the word. */
function formPrefix(term: string): string | null {
  if (/\d/.test(term)) return null;
  const s = stem(term);
  let n = 0;
  while (n < s.length && s[n] === term[n]) n++;
  return n >= MIN_FORM_PREFIX && n < term.length ? term.slice(0, n) : null;
}

/**
 * What may stand for a word in a passage, folded, one index word each, none of `exact`, closest first: its
 * renderings in the other language (the glossary), its paraphrases in the shared business lexicon and the
 * forms WordNet derives from it (relatedWords: *heavy* / *weight*, *hosted* / *stored*), then its WordNet
 * synonyms (alternativesOf).
 */
function alternativeWords(term: string, exact: Set<string>): string[] {
  const out = new Set<string>();
  for (const alt of [...translationsOf(term), ...relatedWords(term), ...alternativesOf(term)]) for (const w of indexText(alt).split(' ')) if (w && !exact.has(w) && !STOP_WORDS.has(w)) out.add(w);
  return [...out];
}

/**
 * What the search adds below the exact words of a natural-language query (docs/knowledge.md, "Synonyms and
 * languages"): for each content word, its other forms (the stem as a word prefix, `resili:*`), its WordNet
 * synonyms and its renderings in the other language (`invoice` → `facture`), taken a word at a time up to
 * MAX_EXPANSIONS. As to_tsquery terms.
 */
export function expansionTerms(terms: string[]): string[] {
  const exact = new Set(terms);
  const out: string[] = [];
  const add = (t: string) => {
    if (out.length < MAX_EXPANSIONS && !out.includes(t)) out.push(t);
  };
  for (const term of terms) {
    const prefix = formPrefix(term);
    if (prefix) add(`'${prefix}':*`);
  }
  // One alternative of each word in turn, so that the bound leaves none of the words without its own.
  const lists = terms.map((term) => alternativeWords(term, exact));
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) add(`'${l[i]}'`);
  return out;
}

/** A content word of a query with what may stand for it in a passage, weighed below it (rerank.ts). */
export interface TermGroup {
  /** The word and its singular form. */
  exact: string[];
  /** Its stem as a word prefix, when shorter than the word. */
  prefix: string | null;
  /** Its WordNet synonyms and renderings in the other language (and those of its singular). */
  alternatives: Set<string>;
  /** A word of a name, a code or a figure of the query (specificTermsOf): it tells which document, not which passage. */
  specific: boolean;
}

/** The groups of queryWordGroups of a query with their other forms, synonyms and translations. */
export function termGroups(query: string, groups: string[][]): TermGroup[] {
  const exact = new Set(groups.flat());
  const specific = new Set(specificTermsOf(query).flatMap((e) => e.words.flatMap((w) => indexText(w).split(' '))));
  return groups.map((forms) => ({
    exact: forms,
    prefix: formPrefix(forms[0]!),
    alternatives: new Set(forms.flatMap((f) => alternativeWords(f, exact))),
    specific: forms.some((f) => specific.has(f)),
  }));
}

/** `'a' | 'b' | ...` for to_tsquery: any term matches, and cover density ranks passages holding more of them higher. */
export function orQuery(terms: string[]): string {
  return terms.map((t) => `'${t}'`).join(' | ');
}

/**
 * Whether the query uses web-search syntax (`"exact phrase"`, `-excluded`, `or`), in which case it goes
 * through websearch_to_tsquery as typed (every plain word then required) instead of the any-word rule.
 */
export function isAdvancedQuery(query: string): boolean {
  return /"/.test(query) || /(^|\s)-[\p{L}\p{N}]/u.test(query) || /\s(or|OR)\s/.test(query);
}

/** The query folded like the index while keeping websearch_to_tsquery's operators (quotes, leading minus, `or`). */
export function advancedQueryText(query: string): string {
  return foldText(query)
    .replace(/[^\p{L}\p{N}"\s-]+/gu, ' ')
    .replace(/(?<=[\p{L}\p{N}])-+(?=[\p{L}\p{N}])/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** First characters of a passage, cut on a word boundary. */
export function previewOf(text: string, max = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
