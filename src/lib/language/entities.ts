/**
 * Names, codes and numbers of a text: the specific terms a claim or a question is about. Names are the
 * proper-noun runs of wink-nlp's part-of-speech tagger (the `wink-eng-lite-web-model` English model,
 * loaded on first use), not capitalised words: `VAT` or a capitalised heading word the tagger reads as a
 * common noun is not a name. Codes (`T6`, `INV-2025-0412`, `A320neo`) are read by their shape: letters
 * and digits in one token.
 */
import { createRequire } from 'node:module';
import type { WinkMethods } from 'wink-nlp';
import { isKnownWord } from './wordnet.js';
import { unnamed } from '../unnamed.js';

const require = createRequire(import.meta.url);
let nlp: WinkMethods | null = null;
let its: WinkMethods['its'];

function tagger(): WinkMethods {
  if (!nlp) {
    const winkNLP = require('wink-nlp') as (model: unknown, pipe?: string[]) => WinkMethods;
    // Part of speech only: `tag` reads the tokens' values, spaces and tags, none of which wink's sentence-boundary pass
    // (`sbd`) changes (it only fills the document's sentences, which the tagger never reads: wink-nlp's `readDoc` runs
    // `pos` over all the tokens); leaving it out saves about an eighth of each tagging.
    nlp = winkNLP(require('wink-eng-lite-web-model'), ['pos']);
    its = nlp.its;
  }
  return nlp;
}

/** Loads the tagger's model now (about half a second): the server does it before listening (src/app/serve.ts). */
export function loadTagger(): void {
  tagger();
}

export interface Token {
  value: string;
  pos: string;
  start: number;
  end: number;
  /** First token of its sentence (or of a line). */
  opening: boolean;
}

/** A text longer than this is tagged on its first characters only (claims and questions are short). */
const MAX_TAGGED = 4_000;

/** A token made only of these marks ends what it follows: the next token opens a sentence (or a line). */
const OPENS_NEXT = /^[.!?:;\n#*|•-]+$/;
/** An ASCII letter or digit first: a token OPENS_NEXT cannot match. */
function startsAlphanumeric(v: string): boolean {
  const c = v.charCodeAt(0);
  const l = c | 32;
  return (c >= 48 && c <= 57) || (l >= 97 && l <= 122);
}

/** The tokens of a text with their part of speech and offsets. */
export function tag(text: string): Token[] {
  const t = text.length > MAX_TAGGED ? text.slice(0, MAX_TAGGED) : text;
  const doc = tagger().readDoc(t);
  // One collection of the tokens, read three times (was three collections).
  const tokens = doc.tokens();
  const values = tokens.out(its.value) as string[];
  const pos = tokens.out(its.pos) as string[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  const out: Token[] = [];
  let at = 0;
  let opening = true;
  for (let i = 0; i < values.length; i++) {
    const space = spaces[i]!;
    at += space.length;
    const v = values[i]!;
    const p = pos[i]!;
    const found = t.indexOf(v, at);
    const start = found >= 0 && found - at < 8 ? found : at;
    out.push({ value: v, pos: p, start, end: start + v.length, opening: opening || (space.length > 0 && space.includes('\n')) });
    at = start + v.length;
    // A word (most tokens) opens nothing: its first character is none of the marks, so the expressions are not run on it.
    if (p !== 'PUNCT' && startsAlphanumeric(v)) opening = false;
    else {
      opening = OPENS_NEXT.test(v) || (p === 'PUNCT' && /[.!?]/.test(v));
      if (p === 'PUNCT' && !/[.!?:;]/.test(v)) opening = false;
    }
  }
  return out;
}

// ASCII has nothing to decompose (most words): lower-cased only, the same result without the normalisation.
const fold = (s: string) => (/^[\x00-\x7f]*$/.test(s) ? s.toLowerCase() : s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase());

/** Words never taken for names whatever the tagger says: function words, months, days, titles. */
const NOT_NAMES = new Set(
  (
    'the a an and or of to in on at by for with from is are was were this that these those it its what which who when where why how ' +
    'le la les l un une des du de d et ou au aux en dans par pour sur avec est sont ce cette ces il elle qui que quel quelle quels quelles quand comment combien ou ' +
    'january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday ' +
    'janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre lundi mardi mercredi jeudi vendredi samedi dimanche ' +
    'mr mrs ms dr prof sir madam m mme mlle me ' +
    'aucun aucune ne n pas plus est sont s qu c j t y se sa son ses leur leurs nous vous on tout tous toute toutes chaque ' +
    // Seventh round: asking and linking words that open a question (`Pourquoi le traiteur…`, `Chez Menuiserie…`, `If a…`).
    'pourquoi quoi dont lorsque chez si lors selon depuis pendant avant apres entre jusqu a ' +
    'why whose whom if after before during since under does do did can could should must will would'
  ).split(' '),
);

/** A French elided article or preposition opening a word (`d'`, `l'`, `qu'`, `jusqu'`) before a capital. */
const ELIDED = /^(?:[dlDL]|[qQ]u|[jJ]usqu|[lL]orsqu|[pP]uisqu)['’](?=\p{Lu})/u;

/** A number with a unit or scale letter stuck to it, an ordinal: an amount, not a code. */
const AMOUNT_SHAPE = /^\d+(?:[.,]\d+)?(?:k|m|bn|b|kg|km|g|mg|t|h|hrs?|mins?|s|ms|st|nd|rd|th|er|re|e|eme|x|gb|mb|tb|kb|kw|kwh|mw|l|ml|cm|mm|m2|m3|pm|am|pt|px|pc|pct|yrs?|d|j|mo|db|w|v|mah|wh|lbs?|oz|rpm|hz|khz|ghz)$/i;
const CODE = /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}./-]*\p{N})(?=[\p{L}\p{N}./-]*\p{L})[\p{L}\p{N}]+(?:[-/.][\p{L}\p{N}]+)*(?![\p{L}\p{N}])/gu;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface Entity {
  /** As written. */
  text: string;
  /** Folded words of the entity, for matching against a text's words. */
  words: string[];
  kind: 'name' | 'code';
  start: number;
  end: number;
}

/** Codes of a text: tokens mixing letters and digits that are not amounts with a unit, dates or ordinals. */
export function codesOf(text: string): Entity[] {
  const out: Entity[] = [];
  CODE.lastIndex = 0;
  for (let m = CODE.exec(text); m; m = CODE.exec(text)) {
    const v = m[0];
    if (v.length > 40 || AMOUNT_SHAPE.test(v) || ISO_DATE.test(v)) continue;
    out.push({ text: v, words: fold(v).split(/[^\p{L}\p{N}]+/u).filter(Boolean), kind: 'code', start: m.index, end: m.index + v.length });
  }
  return out;
}

/**
 * Names of a text: runs of proper nouns as the tagger reads them, without function words, months, days
 * and titles; a lone word opening a sentence that the dictionary knows as a common word (`Invoice`,
 * `Payment`) is not a name; codes are left to `codesOf`.
 */
export function namesOf(text: string, tokens: Token[] = tag(text)): Entity[] {
  const out: Entity[] = [];
  let run: Token[] = [];
  const flush = unnamed(() => {
    // A name's words start with a capital (the tagger reads some lower-case French words as proper nouns)
    // and hold no apostrophe (`s'élève`).
    // A French elided article or preposition before a name (`d'Ardelis`, `l'Imprimerie`, `qu'Ardelis`) is not part of it:
    // the name is the word after the apostrophe.
    const kept = run
      .map((t) => {
        const m = ELIDED.exec(t.value);
        return m ? { ...t, value: t.value.slice(m[0].length), start: t.start + m[0].length } : t;
      })
      .filter((t) => !NOT_NAMES.has(fold(t.value)) && /^\p{Lu}/u.test(t.value) && !/[\p{N}'’]/u.test(t.value));
    run = [];
    if (kept.length === 0) return;
    if (kept.length === 1 && kept[0]!.opening && isKnownWord(fold(kept[0]!.value))) return;
    // A run made only of dictionary words, all opening a line in capitals, is a heading, not a name.
    const first = kept[0]!;
    const last = kept[kept.length - 1]!;
    const end = last.value.endsWith('.') ? last.end - 1 : last.end;
    const words = kept.flatMap((t) => fold(t.value).split(/[^\p{L}\p{N}]+/u)).filter(Boolean);
    out.push({ text: text.slice(first.start, end), words, kind: 'name', start: first.start, end });
  });
  for (const t of tokens) {
    if (t.pos === 'PROPN' && t.value.length > 1) run.push(t);
    else flush();
  }
  flush();
  return out;
}

/** Names and codes of a text, in order. */
export function entitiesOf(text: string, tokens?: Token[]): Entity[] {
  const codes = codesOf(text);
  const names = namesOf(text, tokens).filter((n) => !codes.some((c) => n.start < c.end && n.end > c.start));
  return [...names, ...codes].sort((a, b) => a.start - b.start);
}

/**
 * A participle opening a sentence right before a noun modifies that noun (`Planned maintenance … counts as downtime`, `Frozen
 * goods are …`): an adjective, not the sentence's verb.
 */
const PARTICIPLE = /^\p{L}{2,}(?:ed|en|ing)$/iu;
const OPENING_MODIFIER = (tokens: Token[], i: number) =>
  tokens[i]!.pos === 'VERB' && PARTICIPLE.test(tokens[i]!.value) && tokens.slice(0, i).every((x) => x.pos === 'PUNCT' || x.pos === 'SYM') && (tokens[i + 1]?.pos === 'NOUN' || tokens[i + 1]?.pos === 'PROPN');

/**
 * A gerund opening the text with a verb after it (`Registering a product within 28 days extends …`): its clause is the
 * subject, and the later verb is the predicate.
 */
const OPENING_GERUND = (tokens: Token[], i: number) =>
  tokens[i]!.pos === 'VERB' &&
  /^\p{L}{2,}ing$/iu.test(tokens[i]!.value) &&
  tokens.slice(0, i).every((x) => x.pos === 'PUNCT' || x.pos === 'SYM') &&
  tokens.slice(i + 1).some((x) => (x.pos === 'VERB' || x.pos === 'AUX') && !/ing$/i.test(x.value));

/** The offset of the first verb of a text (its main predicate, roughly), or -1. */
export function firstVerbAt(text: string, tokens: Token[] = tag(text)): number {
  const t = tokens.find((x, i) => (x.pos === 'VERB' || x.pos === 'AUX') && !OPENING_MODIFIER(tokens, i) && !OPENING_GERUND(tokens, i));
  return t ? t.start : -1;
}

/**
 * French verbs the English tagger cannot read: auxiliaries, modals and common verbs of claims, and a
 * reflexive or elided verb (`s'élève`, `n'est`), as written.
 */
const FRENCH_VERB =
  /(?<![\p{L}'’-])(?:est|sont|a|ont|était|étaient|sera|seront|avait|avaient|fut|doit|doivent|devra|peut|peuvent|pourra|va|vont|font|prend|prennent|restent|passent|coûte|coûtent|durent|comprend|comprennent|s['’]\p{L}+|n['’]\p{L}+|ne|se)(?![\p{L}'’-])/u;

/** Entities and the first verb of a text, tagged once (in French, the first verb by its form). */
export function readClaim(text: string, language: 'en' | 'fr' = 'en'): { entities: Entity[]; verbAt: number; tokens: Token[] } {
  const tokens = tag(text);
  let verbAt = firstVerbAt(text, tokens);
  if (language === 'fr') {
    const m = FRENCH_VERB.exec(text);
    verbAt = m ? m.index : -1;
  }
  return { entities: entitiesOf(text, tokens), verbAt, tokens };
}

/**
 * The specific terms of a question: its names and codes, and its figures (each number not inside a code
 * or a name), as folded words. A passage answers only if it holds them.
 */
export function specificTermsOf(text: string): Entity[] {
  const entities = entitiesOf(text);
  const numbers: Entity[] = [];
  for (const m of text.matchAll(/\d+(?:[.,]\d+)*/g)) {
    const start = m.index;
    const end = start + m[0].length;
    if (entities.some((e) => start < e.end && end > e.start)) continue;
    numbers.push({ text: m[0], words: m[0].split(/[.,]/).filter((w) => !/^0+$/.test(w)), kind: 'code', start, end });
  }
  return [...entities, ...numbers.filter((n) => n.words.length > 0), ...designatorsOf(text, entities)].sort((a, b) => a.start - b.start);
}

/**
 * A thing named by a letter after its noun (`bâtiment B`, `Building C`, `Annex D`, `zone A`): the letter tells it
 * from its siblings as a number would, so the noun and its letter are a code of the question, after a French
 * elided article too (`l'appareil C`). Not after a function word (`Is A…`), not the pronoun `I`.
 */
function designatorsOf(text: string, entities: Entity[]): Entity[] {
  const out: Entity[] = [];
  // After a French elided article too (`l'appareil C`, `d'immeuble B`).
  for (const m of text.matchAll(/(?:(?<![\p{L}\p{N}'’-])|(?<=(?:^|[^\p{L}\p{N}])[lLdD]['’]))(\p{L}{3,}) ([A-HJ-Z])(?![\p{L}\p{N}'’.-])/gu)) {
    const noun = fold(m[1]!);
    if (NOT_NAMES.has(noun) || !/\p{Ll}/u.test(m[1]!.slice(1))) continue;
    const start = m.index;
    const end = start + m[0].length;
    if (entities.some((e) => start < e.end && end > e.start && e.kind === 'code')) continue;
    out.push({ text: m[0], words: [noun, m[2]!.toLowerCase()], kind: 'code', start, end });
  }
  return out;
}
