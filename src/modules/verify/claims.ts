import { fold, foldedWords, isAscii } from './text.js';

export interface Segment {
  text: string;
  /** Offsets in the text it was cut from. */
  start: number;
  end: number;
}

/** Words a full stop follows without ending the sentence. */
const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'eg', 'ie', 'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'no', 'nos', 'art', 'arts', 'p', 'pp', 'vs', 'v', 'inc', 'ltd',
  'co', 'corp', 'jr', 'sr', 'fig', 'al', 'cf', 'approx', 'dept', 'est', 'vol', 'ch', 'sec', 'para', 'm', 'mm', 'mme', 'mlle', 'me',
  'av', 'bd', 'env', 'ex', 'excl', 'incl', 'approx', 'qty', 'ht', 'ttc', 'min', 'max', 'tel', 'hr', 'hrs', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'n', 'nr', 'ref',
]);

const isSpace = (c: string | undefined) => c !== undefined && /\s/u.test(c);

/** The word (letters and inner dots) just before position `i`, folded. */
function wordBefore(text: string, i: number): string {
  let s = i;
  while (s > 0 && i - s < 12 && /[\p{L}.]/u.test(text[s - 1]!)) s--;
  return fold(text.slice(s, i));
}

/** Whether a full stop at `i` ends a sentence; `lineStart` is where its line starts (after the last line break before it). */
function endsSentence(text: string, i: number, lineStart: number): boolean {
  const next = text[i + 1];
  if (next !== undefined && !isSpace(next)) return false; // 1.2, e.g., example.com
  const before = wordBefore(text, i);
  if (ABBREVIATIONS.has(before)) return false;
  // The number of a heading or a list item (`## 2. Eligibility`, `3.1. Fees`): part of its line.
  if (i - lineStart < 16 && /^[ \t#>*-]*\d{1,3}(?:\.\d{1,3})*$/.test(text.slice(lineStart, i))) return false;
  if (/^\p{Lu}$/u.test(text[i - 1] ?? '') && !/[\p{L}]/u.test(text[i - 2] ?? ' ')) return false; // an initial: J. Smith
  let j = i + 1;
  while (j < text.length && j - i < 20 && isSpace(text[j])) j++;
  const after = text[j];
  return after === undefined || /[\p{Lu}\p{N}"'«“(\[*•–-]/u.test(after);
}

function push(out: Segment[], text: string, start: number, end: number): void {
  let s = start;
  let e = end;
  while (s < e && isSpace(text[s])) s++;
  while (e > s && isSpace(text[e - 1])) e--;
  if (e > s) out.push({ text: text.slice(s, e), start: s, end: e });
}

/**
 * Sentences of a text, with their offsets: cut after `.`, `!`, `?`, `…` followed by a space and a capital
 * or a digit (not after an abbreviation or an initial, not inside `1.2` or `e.g.`), at `;` and at line
 * breaks. One pass over the text, yielded sentence by sentence (callers give the event loop turns between).
 */
export function* eachSentence(text: string): Generator<Segment> {
  const found: Segment[] = [];
  let start = 0;
  // Jumps from one possible end to the next (a RegExp of its own: generators of several requests interleave).
  const ends = /[\n;!?….]/g;
  // A table row (a line opening with `|`) is one sentence: its cells are read together (same line).
  let inRow = /^[ \t]*\|/.test(text);
  // Every line break is one of the ends: the start of the current line is kept here, not searched back for
  // (a long text without line breaks would be read again from its start at each full stop).
  let lineStart = 0;
  for (let m = ends.exec(text); m; m = ends.exec(text)) {
    const i = m.index;
    const c = m[0];
    let cut = -1;
    if (c === '\n') lineStart = i + 1;
    if (c !== '\n' && inRow) continue;
    if (c === '\n') inRow = /^[ \t]*\|/.test(text.slice(i + 1, i + 40));
    if (c === '\n' || c === ';') cut = i + 1;
    else if ((c === '!' || c === '?' || c === '…') && (i + 1 === text.length || isSpace(text[i + 1]))) cut = i + 1;
    else if (c === '.' && endsSentence(text, i, lineStart)) cut = i + 1;
    if (cut > 0) {
      push(found, text, start, cut);
      start = cut;
      if (found.length > 0) yield found.pop()!;
    }
  }
  push(found, text, start, text.length);
  if (found.length > 0) yield found.pop()!;
}

/** Connectors that start a new assertion inside a sentence; the connector stays with the second clause. */
const CLAUSE = /,\s+(?=(?:but|whereas|while|although|mais|tandis qu|alors qu|bien qu)\b)|\s+(?=(?:but|mais)\s)/giu;

/** A claim longer than this (a run without sentence ends) is cut at a space into pieces of at most this size. */
export const MAX_CLAIM_CHARS = 1_000;

/** A passage sentence longer than this is cut the same way, so that a quote stays short enough to read. */
export const MAX_QUOTE_CHARS = 500;

/** A segment cut at spaces into pieces of at most `max` characters. */
export function pieces(seg: Segment, max = MAX_CLAIM_CHARS): Segment[] {
  if (seg.text.length <= max) return [seg];
  const out: Segment[] = [];
  for (let at = 0; at < seg.text.length; ) {
    let end = Math.min(seg.text.length, at + max);
    if (end < seg.text.length) {
      const space = seg.text.lastIndexOf(' ', end);
      if (space > at + max / 2) end = space;
    }
    out.push({ text: seg.text.slice(at, end), start: seg.start + at, end: seg.start + end });
    at = end;
  }
  return out;
}

/**
 * The claims of a text: its sentences, split again into clauses at `but`, `whereas`, `while`, `mais`,
 * `tandis que`, `alors que`; questions and fragments without two content words or a number are not claims.
 */
export function* eachClaim(text: string, isContent: (folded: string) => boolean): Generator<Segment> {
  for (const sentence of eachSentence(text)) {
    const out: Segment[] = [];
    if (/\?\s*$/u.test(sentence.text)) continue;
    let from = 0;
    const parts: [number, number][] = [];
    CLAUSE.lastIndex = 0;
    for (let m = CLAUSE.exec(sentence.text); m; m = CLAUSE.exec(sentence.text)) {
      if (m.index > from) parts.push([from, m.index]);
      from = m.index + m[0].length;
    }
    parts.push([from, sentence.text.length]);
    const clauses: Segment[] = [];
    for (const [s, e] of parts) push(clauses, text, sentence.start + s, sentence.start + e);
    for (const seg of clauses.flatMap((c) => pieces(c))) {
      out.push(seg);
      const words = isAscii(seg.text) ? foldedWords(seg.text) : (seg.text.match(/[\p{L}\p{N}]+/gu) ?? []).map(fold);
      const content = words.filter(isContent).length;
      if (content < 2 && !(content >= 1 && /\p{N}/u.test(seg.text))) out.pop();
    }
    yield* out;
  }
}
