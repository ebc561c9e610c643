import type { Language } from './language.js';
import { lemmaOf } from './lemmas.js';
import { createRequire } from 'node:module';

/**
 * The Snowball stemmers of `@orama/stemmers`, loaded by `require` (its CommonJS builds): the package has
 * only subpath exports (`@orama/stemmers/english`), which Node and tsc resolve but madge, the resolver of
 * test/platform/dependencies.test.ts, does not (it would report them as unresolved imports).
 */
const require = createRequire(import.meta.url);
type Stem = (word: string) => string;
const { stemmer: stemEnglish } = require('@orama/stemmers/english') as { stemmer: Stem };
const { stemmer: stemFrench } = require('@orama/stemmers/french') as { stemmer: Stem };

/**
 * Normalisation shared by claims and passages: case and accents folded (NFD, combining marks removed),
 * words as runs of letters and digits. Deterministic and linear in the length of the text.
 */
export function fold(text: string): string {
  // ASCII has nothing to decompose: skip the normalisation (most passages).
  return isAscii(text) ? text.toLowerCase() : text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

const ASCII = /^[\x00-\x7f]*$/;
/** Whether a text is ASCII only: its letters and digits are then `[A-Za-z0-9]`, and folding is lower-casing. */
export const isAscii = (text: string): boolean => ASCII.test(text);

/** The folded runs of letters and digits of a text (`fold(text).match(/[\p{L}\p{N}]+/gu)`), without Unicode classes on ASCII. */
export function foldedWords(text: string): string[] {
  return (isAscii(text) ? text.toLowerCase().match(/[a-z0-9]+/g) : fold(text).match(/[\p{L}\p{N}]+/gu)) ?? [];
}

/** The folded runs of letters of a text (`fold(text).match(/\p{L}+/gu)`), without Unicode classes on ASCII. */
export function foldedLetters(text: string): string[] {
  return (isAscii(text) ? text.toLowerCase().match(/[a-z]+/g) : fold(text).match(/\p{L}+/gu)) ?? [];
}

/** A word longer than this is not a word of a natural language (an adversarial run): skipped. */
export const MAX_WORD = 40;

export interface Word {
  /** Folded form. */
  w: string;
  /** Offsets in the original text. */
  start: number;
  end: number;
}

/**
 * The words of a text with their offsets in it. Folding can change lengths only by dropping combining
 * marks, so words are found on the original text and folded one by one.
 */
export function words(text: string): Word[] {
  const out: Word[] = [];
  if (isAscii(text)) {
    // The same runs and offsets on the lower-cased text (lower-casing ASCII keeps every offset).
    const lower = text.toLowerCase();
    const ascii = /[a-z0-9]+/g;
    for (let m = ascii.exec(lower); m; m = ascii.exec(lower)) {
      if (m[0].length > MAX_WORD) continue;
      out.push({ w: m[0], start: m.index, end: m.index + m[0].length });
    }
    return out;
  }
  const re = /[\p{L}\p{N}]+/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length > MAX_WORD) continue;
    out.push({ w: fold(m[0]), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** The folded words of a text without their offsets (`words(text).map((w) => w.w)`, without an object per word). */
export function wordsOf(text: string): string[] {
  if (isAscii(text)) {
    const found = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
    return found.some((w) => w.length > MAX_WORD) ? found.filter((w) => w.length <= MAX_WORD) : found;
  }
  const out: string[] = [];
  for (const m of text.match(/[\p{L}\p{N}]+/gu) ?? []) if (m.length <= MAX_WORD) out.push(fold(m));
  return out;
}

export type { Language } from './language.js';

const EN = new Set(
  'the a an and or of to in on at by for with from is are was were be been has have had will would it its this that these those which who not no than'.split(' '),
);
const FR = new Set(
  'le la les l un une des du de d et ou au aux en dans par pour sur avec est sont etait ete a ont sera il elle ils elles ce cette ces qui que qu ne n pas plus'.split(
    ' ',
  ),
);

/** English or French, by counting function words (ties: English). */
export function detectLanguage(folded: readonly string[]): Language {
  let en = 0;
  let fr = 0;
  for (const w of folded.length > 20_000 ? folded.slice(0, 20_000) : folded) {
    if (EN.has(w)) en++;
    if (FR.has(w)) fr++;
  }
  return fr > en ? 'fr' : 'en';
}

/** Function words of both languages, ignored by lexical overlap. */
export const STOP_WORDS = new Set(
  (
    'a an the and or but if then of to in on at by for with from as into about over under than that this these those ' +
    'is are was were be been being am do does did have has had having will would shall should can could may might must ' +
    'i me my we our you your he him his she her it its they them their what which who whom whose when where why how ' +
    'all any some each every there here so such too very just also only same other s t its per ' +
    'le la les l un une des du de d et ou mais donc ni car si que qu qui quoi dont ce cet cette ces c ca cela ceci ' +
    'je j me m tu te il elle on nous vous ils elles leur leurs lui y en mon ma mes ton ta tes son sa ses notre nos votre vos ' +
    'est sont etre ete etait etaient sera seront ai as avons avez ont avait a au aux avec pour par sur sous dans chez vers entre ' +
    'tres tout tous toute toutes aussi comme se dela ' +
    'according accordance currently respectively actually selon actuellement'
  ).split(' '),
);

/** Words kept per language's stem memo; past it the memo starts again (bounded memory in a long-lived process). */
const STEM_MEMO_MAX = 200_000;
const stemmers = new Map<Language, (word: string) => string>();

/**
 * A stemmer per language (Snowball, from `@orama/stemmers`), memoised: texts repeat their words, so each distinct
 * word is stemmed once. One per language for the process (stemming is a pure function of the word): every
 * verification shares its memo and, through it, what is built once per stemmer (the paraphrase lexicon's stems,
 * the antonyms). Before, each verification made its own and rebuilt both, about half of the engine's CPU on
 * bench/verify.ts's input (docs/performance.md, "Verifier speed").
 */
export function stemmerFor(language: Language): (word: string) => string {
  let shared = stemmers.get(language);
  if (shared) return shared;
  const stem = language === 'fr' ? stemFrench : stemEnglish;
  const memo = new Map<string, string>();
  shared = (word) => {
    let s = memo.get(word);
    if (s === undefined) {
      // Seventh round: irregular forms and folded French feminines brought to their lemma first (lemmas.ts).
      s = /^\d+$/.test(word) ? word : stem(lemmaOf(word, language));
      if (memo.size >= STEM_MEMO_MAX) memo.clear();
      memo.set(word, s);
    }
    return s;
  };
  stemmers.set(language, shared);
  return shared;
}
