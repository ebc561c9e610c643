/**
 * Issue 26, sixteenth round (vdates): the role a value plays in its sentence, and the role a claim gives it.
 *
 * A sentence often states a claim's date or amount in another frame than the claim's words: the start or end of a range
 * (`from 5 June to 19 July 2025` for `opens on 5 June 2025`), the nth item of a list (`payable en trois échéances, le 1er
 * décembre 2024, le 15 janvier 2025 et le 1er mars 2025` for `la deuxième échéance … le 15 janvier 2025`), the new value of a
 * change (`Reduce height from 6 m to 3.5 m` for `brought down to a height of 3.5 metres`), a labelled field (`Fermeture :
 * dimanche 27 avril 2025`). This module reads those frames from the text and the values' spans (the engine finds the values);
 * the engine compares the roles, for a support (the claim's value in the claim's role) or a contradiction (the claim's value
 * in the other role, or a rival value in the claim's role).
 */
import { unnamed } from '../../lib/unnamed.js';
import { fold, foldedLetters, foldedWords } from './text.js';

export interface Spanned {
  start: number;
  end: number;
}

/** The role a value plays: a bound of a range or period, the nth item of a list (1-based), a change's old or new value. */
export type ValueRole = { kind: 'start' } | { kind: 'end' } | { kind: 'nth'; n: number; last: boolean } | { kind: 'origin' } | { kind: 'target' };

/** The roles of the values of one sentence, by index in the values given, and how many frames of each kind it holds. */
export interface SentenceFrames {
  roles: (ValueRole[] | undefined)[];
  ranges: number;
  starts: number;
  ends: number;
  lists: number;
  changes: number;
}

/** A time of day after a date (`at noon`, `à 10 h`, `at 10:00 a.m.`), skipped between a range's bounds. */
const TIME = String.raw`(?:,?\s*(?:at|à|from|de|dès)\s+(?:noon|midday|midnight|midi|minuit|\d{1,2}(?:[:h.]\s?\d{2})?\s*(?:a\.?\s?m\.?|p\.?\s?m\.?|h(?:\s?\d{2})?)?))?`;
/** What joins a range's two bounds (a weekday or a few words may follow: `until close of trading on Sunday`). */
const RANGE_MID = new RegExp(String.raw`^${TIME}[\s*_]*(to|until|till|through|thru|and|–|—|-|au|jusqu['’]au|et)(?![\p{L}])[^.;:\d|]{0,32}$`, 'iu');
/** Words before a range's first bound that make `and` / `et` a range (`between … and …`, `entre le … et le …`). */
const RANGE_LEAD_BETWEEN = /(?:between|entre)\s+(?:le\s+|the\s+)?(?:\p{L}+\s+)?[\s*_]*$/iu;
/** A change: a verb that moves a value, read in the sentence (`reduce`, `décalée`, `postponed`, `passe`). */
const CHANGE_VERB =
  /(?<![\p{L}])(?:reduc\p{L}*|increas\p{L}*|rais\p{L}*|lower\p{L}*|cut|cuts|brought|bring\p{L}*|moved?|moves|postpon\p{L}*|pushed|push|chang\p{L}*|shift\p{L}*|reschedul\p{L}*|revis\p{L}*|extend\p{L}*|d[ée]cal\p{L}*|report[ée]\p{L}*|avanc[ée]\p{L}*|ramen\p{L}*|r[ée]dui\p{L}*|augment\p{L}*|baiss\p{L}*|pass[ée]\p{L}*|passe|modifi\p{L}*|prolong\p{L}*|abaiss\p{L}*|port[ée]e?s?)(?![\p{L}])/iu;
/** A change's `from X to Y` (or `X → Y`): the text between its two values. */
const CHANGE_MID = /^\s*(?:→|->|=>|to|au|à|a|en)\s*(?:le\s+|the\s+)?[*_]*$/iu;
const CHANGE_LEAD = /(?:from|du|de|d['’])\s*(?:le\s+|the\s+)?[*_]*$/iu;
/** A one-sided bound before a value: `from`, `à partir du`, `dès le`, `starting`, `effective` (start); `until`, `jusqu'au` (end). */
const START_LEAD = /(?:^|[^\p{L}])(?:from|starting(?:\s+on|\s+from)?|effective(?:\s+from|\s+on)?|as\s+of|à\s+partir\s+(?:du|de)|à\s+compter\s+(?:du|de)|dès\s+(?:le)?|depuis\s+(?:le)?)\s*(?:\p{L}+,?\s+)?[*_]*$/iu;
const END_LEAD = /(?:^|[^\p{L}])(?:until|till|jusqu['’]au|jusqu['’]à)\s*(?:\p{L}+,?\s+)?[*_]*$/iu;
/** A field label before a value (`Ouverture : …`, `Closing date: …`), read as a bound. */
const START_LABEL = /(?:^|[|*\s])(?:opening|start|starts|commencement|ouverture|d[ée]but|date\s+de\s+d[ée]but)(?:\s+\p{L}+){0,3}[*_]*\s*:\s*[*_]*\s*(?:\p{L}+,?\s+)?$/iu;
const END_LABEL = /(?:^|[|*\s])(?:closing|end|ends|expiry|fermeture|fin|date\s+de\s+fin)(?:\s+\p{L}+){0,3}[*_]*\s*:\s*[*_]*\s*(?:\p{L}+,?\s+)?$/iu;
/** What separates two items of a list: a comma, a semicolon, `and` / `et` (with an article or `on` after it). */
const LIST_MID = /^\s*(?:,|;|,?\s*and|,?\s*et|,?\s*puis|,?\s*then)\s*(?:le\s+|the\s+|on\s+)?(?:\p{L}+\s+)?[*_]*$/iu;
/** A word of closing: a range said closed (`close for winter break from … until …`) is a closure. */
const CLOSURE = /(?<![\p{L}])(?:clos(?:e|es|ed|ing|ure)|shut|ferm[ée]\p{L}*|fermeture|ferme)(?![\p{L}])/iu;
/**
 * Necessary conditions of the one-sided bounds, tested first (a literal search, where the bounds' own expressions, anchored
 * at the end only, are tried at every position of the 40 characters before each value): a lead word, or a label's colon.
 */
const START_LEAD_HINT = /from|starting|effective|as\s+of|partir|compter|dès|depuis/iu;
const END_LEAD_HINT = /until|till|jusqu/iu;

const add = (roles: (ValueRole[] | undefined)[], i: number, r: ValueRole) => (roles[i] ??= []).push(r);

/**
 * The roles of `values` (sorted by start, spans in `text`) in their sentence: the bounds of each range (`from A to B`,
 * `du A au B`, `A – B`, `between A and B`), a change's old and new values (a range whose sentence holds a verb of change),
 * the items of a list of three or more (or two joined by `and`), and a one-sided bound (`from A`, `until B`, `Ouverture : A`).
 */
export function sentenceFrames(text: string, values: readonly Spanned[]): SentenceFrames {
  const out: SentenceFrames = { roles: [], ranges: 0, starts: 0, ends: 0, lists: 0, changes: 0 };
  const change = values.length >= 2 && CHANGE_VERB.test(text);
  const paired = new Set<number>();
  for (let i = 0; i + 1 < values.length; i++) {
    const a = values[i]!;
    const b = values[i + 1]!;
    const mid = text.slice(a.end, b.start);
    const before = text.slice(Math.max(0, a.start - 40), a.start);
    if (change && CHANGE_MID.test(mid) && CHANGE_LEAD.test(before)) {
      add(out.roles, i, { kind: 'origin' });
      add(out.roles, i + 1, { kind: 'target' });
      out.changes++;
      paired.add(i).add(i + 1);
      continue;
    }
    const m = RANGE_MID.exec(mid);
    if (!m) continue;
    const joiner = fold(m[1]!);
    if ((joiner === 'and' || joiner === 'et') && !RANGE_LEAD_BETWEEN.test(before)) continue;
    add(out.roles, i, { kind: 'start' });
    add(out.roles, i + 1, { kind: 'end' });
    out.ranges++;
    paired.add(i).add(i + 1);
    i++;
  }
  // Lists: runs of values joined by list separators, none of them a range's or a change's bound.
  let run: number[] = [];
  const close = unnamed(() => {
    const joinedByAnd = run.length === 2 && /\b(?:and|et)\b/iu.test(text.slice(values[run[0]!]!.end, values[run[1]!]!.start));
    if (run.length >= 3 || joinedByAnd) {
      run.forEach((k, n) => add(out.roles, k, { kind: 'nth', n: n + 1, last: n === run.length - 1 }));
      out.lists++;
    }
    run = [];
  });
  for (let i = 0; i < values.length; i++) {
    if (paired.has(i)) {
      close();
      continue;
    }
    if (run.length > 0 && !LIST_MID.test(text.slice(values[run[run.length - 1]!]!.end, values[i]!.start))) close();
    run.push(i);
  }
  close();
  for (let i = 0; i < values.length; i++) {
    if (paired.has(i)) continue;
    const before = text.slice(Math.max(0, values[i]!.start - 40), values[i]!.start);
    const label = before.includes(':');
    if ((START_LEAD_HINT.test(before) && START_LEAD.test(before)) || (label && START_LABEL.test(before))) {
      add(out.roles, i, { kind: 'start' });
      out.starts++;
    } else if ((END_LEAD_HINT.test(before) && END_LEAD.test(before)) || (label && END_LABEL.test(before))) {
      add(out.roles, i, { kind: 'end' });
      out.ends++;
    }
  }
  return out;
}

/** Whether the sentence says a range is a closing (`close for winter break from … until …`): its start is a closing, its end a reopening. */
export const closureBefore = (text: string, at: number): boolean => CLOSURE.test(text.slice(Math.max(0, at - 80), at));

/** What a claim's words say of its value: the phrase that gives the role, and the role. */
export interface ClaimRole {
  role: ValueRole;
  /** The words of the claim that say the role (they may be missing from a sentence that states the role by its frame). */
  span: Spanned;
  /** The role holds only against a closing range (`reopen`, `close`), or only against an opening one. */
  closure?: 'closing' | 'opening';
}

const ORDINALS: [RegExp, number, boolean][] = [
  [/^(?:first|premi[eè]re?)$/u, 1, false],
  [/^(?:second|seconde|deuxi[eè]me|2nd|2e|2eme)$/u, 2, false],
  [/^(?:third|troisi[eè]me|3rd|3e|3eme)$/u, 3, false],
  [/^(?:fourth|quatri[eè]me|4th|4e|4eme)$/u, 4, false],
  [/^(?:last|final|derni[eè]re?)$/u, 0, true],
];

/**
 * Necessary conditions of the claim's role words, read off its folded words (most claims say no role; each expression below
 * is tried at every position of the claim): an ordinal is a whole word (ORDINAL_WORDS); CLAIM_START, CLAIM_END, CLAIM_CLOSE and
 * CLAIM_REOPEN match at a word's start (ROLE_WORD_START); CLAIM_TARGET at a word's start too, its verbs followed by `to`, `au`,
 * `à`, `until`, `jusqu'au` (maybe after `down`, `up`, `back`) or its adverbs and adjectives alone.
 */
const ORDINAL_WORDS = new Set(['first', 'premier', 'premiere', 'second', 'seconde', 'deuxieme', '2nd', '2e', '2eme', 'third', 'troisieme', '3rd', '3e', '3eme', 'fourth', 'quatrieme', '4th', '4e', '4eme', 'last', 'final', 'dernier', 'derniere']);
const ROLE_WORD_START =
  /^(?:open|start|begin|began|commenc|take|took|come|came|ouvr|debut|prend|entre|partir|compter|from|end|finish|expir|until|till|run|termin|achev|jusqu|clos|shut|ferm|reopen|rouvr|reouvr|now|desormais|new|nouvel|nouveau)/u;
const TARGET_VERB_START = /^(?:reduc|increas|rais|lower|cut|brought|bring|move|postpon|push|chang|shift|reschedul|revis|extend|decal|report|avanc|ramen|redui|augment|baiss|pass|prolong|abaiss|port)/u;
const TARGET_NEXT = new Set(['to', 'until', 'au', 'a', 'jusqu', 'down', 'up', 'back']);

/**
 * Whether a claim with at most one value of each kind may have any frame at all: a role word (mayGiveRole) or a one-sided
 * bound's lead word or label colon (sentenceFrames reads ranges, lists and changes only between two values). A superset:
 * false means `sentenceFrames` gives its value no role and `claimRoles` none.
 */
export function mayHaveFrame(text: string): boolean {
  return text.includes(':') || START_LEAD_HINT.test(text) || END_LEAD_HINT.test(text) || mayGiveRole(text);
}

/** Whether the claim's words may say a role at all (a superset of what claimRoles finds). */
function mayGiveRole(text: string): boolean {
  for (const w of foldedWords(text)) if (ORDINAL_WORDS.has(w)) return true;
  const letters = foldedLetters(text);
  for (let i = 0; i < letters.length; i++) {
    const w = letters[i]!;
    if (ROLE_WORD_START.test(w)) return true;
    if (TARGET_VERB_START.test(w) && i + 1 < letters.length && TARGET_NEXT.has(letters[i + 1]!)) return true;
  }
  return false;
}
const span = (m: RegExpExecArray): Spanned => ({ start: m.index, end: m.index + m[0].length });

const CLAIM_START = /(?<![\p{L}])(?:opens?|opened|opening|starts?|started|starting|begins?|began|beginning|commence[sd]?|commencing|takes?\s+effect|took\s+effect|comes?\s+into\s+(?:force|effect)|came\s+into\s+(?:force|effect)|ouvr\p{L}*|commenc\p{L}*|d[ée]but\p{L}*|prend\s+effet|entre\s+en\s+vigueur|à\s+partir\s+(?:du|de)|à\s+compter\s+(?:du|de)|from)(?![\p{L}])/iu;
const CLAIM_END = /(?<![\p{L}])(?:ends?|ended|ending|finish(?:es|ed)?|expires?|expired|until|till|runs?\s+(?:until|to)|termin\p{L}*|(?:s['’])?ach[eè]v\p{L}*|prend\s+fin|prendra\s+fin|jusqu['’]au)(?![\p{L}])/iu;
/** Closing words: a start of a closing range; reopening words: its end. */
const CLAIM_CLOSE = /(?<![\p{L}])(?:close[sd]?|closing|shuts?|ferm\p{L}*)(?![\p{L}])/iu;
const CLAIM_REOPEN = /(?<![\p{L}])(?:reopens?|reopened|reopening|rouvr\p{L}*|r[ée]ouvr\p{L}*)(?:\s+(?:after|après))?(?![\p{L}])/iu;
/** The claim says its value is a change's new one (`brought down to`, `reduced to`, `now`, `désormais`, `reporté au`). */
const CLAIM_TARGET =
  /(?<![\p{L}])(?:(?:reduc\p{L}*|increas\p{L}*|rais\p{L}*|lower\p{L}*|cut|brought(?:\s+down|\s+up|\s+back)?|bring(?:\s+down|\s+up)?|moved?|postponed|pushed\s+back|changed|shifted|rescheduled|revised|extended|d[ée]cal[ée]\p{L}*|report[ée]\p{L}*|avanc[ée]\p{L}*|ramen[ée]\p{L}*|r[ée]duit\p{L}*|augment[ée]\p{L}*|baiss[ée]\p{L}*|pass\p{L}*|prolong[ée]\p{L}*|abaiss[ée]\p{L}*|port[ée]\p{L}*)\s+(?:down\s+|up\s+|back\s+)?(?:to|until|au|à|jusqu['’]au)|now|d[ée]sormais|new|nouvel(?:le)?|nouveau)(?![\p{L}])/iu;

/**
 * The roles the claim may give the value at `at` (its span in the claim): an ordinal before a noun (`the second
 * instalment`, `la deuxième échéance`), the new value of a change (`reduced to`, `désormais`), a bound (`opens on`, `se
 * termine le`, `reopen after … on`). `close` gives two readings, told apart by the sentence (a closing range's start, an
 * opening one's end). None when its words say none, or roles of different kinds.
 */
export function claimRoles(text: string, at: Spanned): ClaimRole[] {
  const found: ClaimRole[] = [];
  if (!mayGiveRole(text)) return found;
  for (const w of text.matchAll(/[\p{L}\d]+/gu)) {
    // An ordinal before the value qualifies its noun (`1er` of a date after it is a day).
    if (w.index! >= at.start) break;
    const f = fold(w[0]);
    for (const [re, n, last] of ORDINALS) {
      if (re.test(f)) found.push({ role: { kind: 'nth', n, last }, span: { start: w.index!, end: w.index! + w[0].length } });
    }
  }
  const target = CLAIM_TARGET.exec(text.slice(0, at.start));
  if (target) found.push({ role: { kind: 'target' }, span: span(target) });
  const reopen = CLAIM_REOPEN.exec(text);
  const close = CLAIM_CLOSE.exec(text);
  const end = CLAIM_END.exec(text);
  const start = CLAIM_START.exec(text);
  if (reopen) found.push({ role: { kind: 'end' }, span: span(reopen), closure: 'closing' });
  // `close` beside an explicit bound word is a noun of it (`ends at close of trading`): the bound word says the role.
  else if (close && !end && !start) {
    found.push({ role: { kind: 'start' }, span: span(close), closure: 'closing' });
    found.push({ role: { kind: 'end' }, span: span(close), closure: 'opening' });
  }
  if (end) found.push({ role: { kind: 'end' }, span: span(end), closure: 'opening' });
  if (start) found.push({ role: { kind: 'start' }, span: span(start), closure: 'opening' });
  // One reading only: an ordinal with a bound word, a change with a bound, `opens` with `ends`, are left alone (`close`'s two
  // readings apart).
  const readings = new Set(found.map((r) => `${r.role.kind}:${r.closure ?? ''}`));
  const closeOnly = close !== null && !reopen && !end && !start && found.length === 2;
  return readings.size === 1 || closeOnly ? found : [];
}

/** Whether two roles are the same: the same bound, the same item of a list (the last one by `last`), both a change's new or old value. */
export function sameRole(a: ValueRole, b: ValueRole): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'nth' && b.kind === 'nth') return a.last || b.last ? a.last && b.last : a.n === b.n;
  return true;
}

/** The role a claim's role is compared with: the same kind of frame (a bound with a bound, an item with an item, a change with a change). */
const family = (r: ValueRole) => (r.kind === 'start' || r.kind === 'end' ? 'bound' : r.kind === 'nth' ? 'list' : 'change');
export function sameFrame(a: ValueRole, b: ValueRole): boolean {
  return family(a) === family(b);
}

/**
 * The words a parenthesis holding the value is said of (`24 Tidewell TW-40 front-load washers (40 lb capacity)`, `offices
 * (8,200 m²), laboratories (3,900 m²)`): the noun phrase right before it, back to a comma, a semicolon, a colon, a cell, a
 * parenthesis or `and` / `et`. Null for a value outside a short parenthesis, or one with nothing before it.
 */
export function parenOwner(text: string, at: Spanned): Spanned | null {
  const open = text.lastIndexOf('(', at.start);
  if (open < 0 || text.slice(open, at.start).includes(')')) return null;
  const close = text.indexOf(')', at.end);
  if (close < 0 || close - open > 60 || /[;(]/u.test(text.slice(open + 1, close))) return null;
  const from = Math.max(0, open - 80);
  const before = text.slice(from, open);
  let cut = -1;
  for (const m of before.matchAll(/[,;:|()]|\s(?:and|et|or|ou)\s/giu)) cut = m.index + m[0].length;
  const start = from + Math.max(0, cut);
  return /\p{L}{3,}/u.test(text.slice(start, open)) ? { start, end: open } : null;
}
