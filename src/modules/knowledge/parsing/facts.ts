import type { Chunk } from './chunk.js';
import { findValidity, parseDate } from './dates.js';
import { foldText, splitSentences } from './sentences.js';

export interface ExtractedFact {
  /** The subject as written. Compare subjects through normalizeSubject. */
  subject: string;
  /** The value as written, without the validity clause and the final period. */
  value: string;
  /** `YYYY-MM-DD`, the last day the fact holds; null when the sentence gives none. */
  validUntil: string | null;
  /** The sentence the fact was read from. */
  statement: string;
  chunkOrdinal: number;
}

export type ContradictionSeverity = 'low' | 'medium' | 'high';

const MAX_SUBJECT_WORDS = 8;
const MAX_VALUE_WORDS = 12;

const KEY_VALUE = /^([^:]{1,80}?)\s*:\s+(\S.*)$/u;
/** Earliest verb wins; at one position the longer form is tried first (`is set to` before `is`). */
const COPULA = /^(.+?)\s+(is set to|is|are|was|equals|costs|est fixée? à|est|sont|vaut|co[uû]te)\s+(\S.*)$/iu;
const VERB = /\s(?:is|are|was|equals|costs|est|sont|vaut|co[uû]te)\s/iu;

/** Labels that introduce a sentence rather than name a subject (`Note: the fee is 10 EUR`). */
const LABELS = new Set([
  'note', 'nb', 'n.b', 'ps', 'warning', 'caution', 'tip', 'important', 'example', 'e.g', 'question', 'answer', 'q', 'a',
  'remarque', 'attention', 'exemple', 'avertissement', 'reponse', 'r',
]);
/** A subject starting with one of these is a pronoun, a question or a subordinate clause, not a named thing. */
const NOT_A_SUBJECT_START = new Set([
  'it', 'this', 'that', 'these', 'those', 'there', 'here', 'he', 'she', 'they', 'we', 'you', 'i', 'which', 'what',
  'who', 'where', 'when', 'why', 'how', 'if', 'while', 'because', 'although', 'whether', 'unless', 'since', 'as',
  'and', 'but', 'or', 'so', 'in', 'on', 'at', 'for', 'from', 'with', 'by', 'after', 'before', 'during',
  'il', 'elle', 'ils', 'elles', 'ce', 'c', 'cela', 'ceci', 'ca', 'qui', 'que', 'quoi', 'si', 'quand',
  'lorsque', 'lorsqu', 'parce', 'comme', 'et', 'mais', 'ou', 'donc', 'en', 'dans', 'pour', 'avec', 'depuis',
  'apres', 'avant', 'pendant',
]);
const ARTICLES = new Set(['the', 'an', 'le', 'la', 'les', 'un', 'une', 'des', 'du']);
const IRREGULAR_PARTICIPLES = new Set([
  'done', 'made', 'known', 'sent', 'taken', 'written', 'given', 'shown', 'seen', 'built', 'kept', 'held', 'paid', 'sold',
  'found', 'run', 'set',
]);

/**
 * Dated facts, read sentence by sentence (a line break also ends a sentence). Deliberately narrow:
 * it finds statements of a value, not knowledge in general.
 *
 * A fact is a sentence, not a question, of one of two shapes:
 * - key-value: `<subject>: <value>` (the subject before the first colon; `Prix : 10 €` counts);
 *   a leading label such as `Note:` or `Remarque :` is dropped and the rest read again;
 * - copula: `<subject> <verb> <value>` with the first of `is set to`, `is`, `are`, `was`, `equals`,
 *   `costs`, `est fixé(e) à`, `est`, `sont`, `vaut`, `coûte`.
 * The subject has 1 to 8 words, no comma or semicolon, and does not start with a pronoun,
 * a question word, a conjunction or a preposition (`It is…`, `If the fee is…`, `For members, the fee is…`
 * are skipped: their subject is elsewhere or conditional). The value has at most 12 words and does not
 * start with a past participle followed by more words (`is used to sign`, `est situé à Lyon`: passive
 * voice, not a value; a lone participle such as `closed` or `offerts` is a state and is kept).
 *
 * A validity date is read from the same sentence only: `valid until`, `until`, `through`,
 * `expires on`, `jusqu'au`, `valable jusqu'au`, then `YYYY-MM-DD`, `DD/MM/YYYY`, `Month D, YYYY`
 * or `D Month YYYY` (English or French month names). The clause is removed from the value.
 * A fact repeated in the document (same normalised subject, value and date) is kept once, at its first chunk.
 */
export function extractFacts(chunks: Chunk[]): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  const seen = new Set<string>();
  for (const chunk of chunks) {
    for (const sentence of splitSentences(chunk.text)) {
      const fact = readFact(sentence);
      if (!fact) continue;
      const key = `${normalizeSubject(fact.subject)}\u0000${normalizeValue(fact.value)}\u0000${fact.validUntil}`;
      if (seen.has(key)) continue;
      seen.add(key);
      facts.push({ ...fact, chunkOrdinal: chunk.ordinal });
    }
  }
  return facts;
}

function readFact(sentence: string): Omit<ExtractedFact, 'chunkOrdinal'> | null {
  const statement = sentence.trim();
  if (statement.endsWith('?')) return null;
  let body = statement.replace(/^[-*•·▪–]\s+/, '');
  const validity = findValidity(body);
  if (validity) body = body.slice(0, validity.index) + body.slice(validity.index + validity.length);
  body = body
    .replace(/\(\s*\)|\[\s*\]/g, '')
    .replace(/^[\s,;:–-]+/, '')
    .replace(/\s+/g, ' ')
    .trim();

  let match = KEY_VALUE.exec(body);
  if (match && LABELS.has(foldText(match[1]))) {
    body = match[2];
    match = KEY_VALUE.exec(body);
  }
  const parts = match && isSubject(match[1]) && !VERB.test(` ${match[1]} `) ? [match[1], match[2]] : copula(body);
  if (!parts) return null;
  const value = cleanValue(parts[1]);
  if (!isValue(value)) return null;
  return { subject: parts[0].trim(), value, validUntil: validity?.validUntil ?? null, statement };
}

function copula(body: string): [string, string] | null {
  const match = COPULA.exec(body);
  return match && isSubject(match[1]) ? [match[1], match[3]] : null;
}

function isSubject(text: string): boolean {
  if (/[,;:]/.test(text)) return false;
  if (text.trim().split(/\s+/).length > MAX_SUBJECT_WORDS) return false;
  const normalized = normalizeSubject(text);
  return normalized !== '' && !NOT_A_SUBJECT_START.has(normalized.split(' ')[0]);
}

function cleanValue(text: string): string {
  return text
    .replace(/\s*\.$/, '')
    .replace(/[\s,;:–-]+$/, '')
    .trim();
}

function isValue(value: string): boolean {
  if (!value) return false;
  const words = value.split(/\s+/);
  if (words.length > MAX_VALUE_WORDS) return false;
  if (words.length === 1) return true;
  const first = foldText(words[0]);
  const participle = /^\p{L}{2,}ed$/u.test(first) || /^\p{L}{2,}(?:é|ée|és|ées)$/u.test(words[0].toLowerCase());
  return !participle && !IRREGULAR_PARTICIPLES.has(first);
}

/**
 * A subject in comparable form: lowercase, accents stripped, elided `l'`/`d'` dropped, punctuation
 * made space, articles removed (`the`, `an`, `le`, `la`, `les`, `un`, `une`, `des`, `du` anywhere;
 * `a` only in first position, since elsewhere it is often a label as in `Plan A`), whitespace collapsed.
 * `The Service Fee` and `service  fee` compare equal, as do `Le tarif` and `tarif`.
 */
export function normalizeSubject(subject: string): string {
  const words = foldText(subject)
    .replace(/\b[ld]'/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word, i) => word && !ARTICLES.has(word) && !(i === 0 && word === 'a'));
  return words.join(' ');
}

/**
 * A value in comparable form: folded like text, final punctuation and quotes removed, a leading
 * French `de`/`d'` dropped (`est de 10 €` states `10 €`).
 */
export function normalizeValue(value: string): string {
  return foldText(value)
    .replace(/^["'«“]+|["'»”.;,!]+$/g, '')
    .replace(/^d(?:e\s+|')/, '')
    .trim();
}

type Quantity = { kind: 'number'; amount: number; unit: string } | { kind: 'date'; date: string };

const UNIT_SYNONYMS: [RegExp, string][] = [
  [/€|\beuros?\b/g, ' eur '],
  [/\$|\bdollars?\b/g, ' usd '],
  [/£|\bpounds?\b/g, ' gbp '],
  [/%|\bpercent\b|\bpour\s?cent\b/g, ' % '],
  [/\//g, ' per '],
];
const NUMBER = String.raw`-?\d[\d\s,.]*`;
const CURRENCY_FIRST = new RegExp(`^(eur|usd|gbp)\\s*(${NUMBER})\\s*(\\p{L}[\\p{L} ]{0,30})?$`, 'u');
const NUMBER_FIRST = new RegExp(`^(${NUMBER})\\s*([\\p{L}%][\\p{L}% ]{0,30})?$`, 'u');

/** A value that is a number with an optional unit (`120 EUR`, `€120`, `1,500`, `15 %`, `30 days`) or a date. */
function parseQuantity(value: string): Quantity | null {
  const normalized = normalizeValue(value);
  const date = parseDate(normalized);
  if (date) return { kind: 'date', date };
  let text = normalized;
  for (const [pattern, replacement] of UNIT_SYNONYMS) text = text.replace(pattern, replacement);
  text = text.replace(/\s+/g, ' ').trim();
  const currencyFirst = CURRENCY_FIRST.exec(text);
  const numberFirst = currencyFirst ? null : NUMBER_FIRST.exec(text);
  const digits = currencyFirst?.[2] ?? numberFirst?.[1];
  if (!digits) return null;
  const amount = parseNumber(digits);
  if (amount === null) return null;
  const unit = currencyFirst ? `${currencyFirst[1]} ${currencyFirst[3] ?? ''}` : (numberFirst?.[2] ?? '');
  return { kind: 'number', amount, unit: unit.trim() };
}

/** `1,500` and `1 500` are fifteen hundred, `12,5` and `12.5` twelve and a half. */
function parseNumber(text: string): number | null {
  let digits = text.replace(/\s+/g, '');
  if (/^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(digits)) digits = digits.replace(/,/g, '');
  else if (/^-?\d+,\d+$/.test(digits)) digits = digits.replace(',', '.');
  if (!/^-?\d+(?:\.\d+)?$/.test(digits)) return null;
  return Number(digits);
}

function sameQuantity(a: Quantity, b: Quantity): boolean {
  if (a.kind === 'date' || b.kind === 'date') return a.kind === 'date' && b.kind === 'date' && a.date === b.date;
  return a.amount === b.amount && (a.unit === b.unit || a.unit === '' || b.unit === '');
}

/** Whether two values state the same thing: equal once normalised, or the same quantity written differently. */
function sameValue(a: string, b: string): boolean {
  if (normalizeValue(a) === normalizeValue(b)) return true;
  const qa = parseQuantity(a);
  const qb = parseQuantity(b);
  return qa !== null && qb !== null && sameQuantity(qa, qb);
}

type FactClaim = Pick<ExtractedFact, 'subject' | 'value'>;

/** Same normalised subject, different value (`120 EUR` and `€120` are the same value). Validity dates are not compared. */
export function factsContradict(a: FactClaim, b: FactClaim): boolean {
  return normalizeSubject(a.subject) === normalizeSubject(b.subject) && !sameValue(a.value, b.value);
}

/** Whether a fact's validity date is before the UTC day of `asOf` (a fact holds through its `validUntil`). */
export function isExpired(fact: Pick<ExtractedFact, 'validUntil'>, asOf: Date): boolean {
  return fact.validUntil !== null && fact.validUntil < asOf.toISOString().slice(0, 10);
}

/**
 * How much a contradiction matters, for two facts that contradict:
 * - low: either fact is expired on `asOf` (the clash is with outdated information, already reported as stale);
 * - high: both values are quantities (numbers, amounts, percentages, dates) and differ: a price or a deadline
 *   stated two ways is the costly kind of error;
 * - medium: any other difference (wording that may or may not mean the same).
 * `asOf` is the caller's clock reading, so the function stays pure.
 */
export function contradictionSeverity(
  a: Pick<ExtractedFact, 'value' | 'validUntil'>,
  b: Pick<ExtractedFact, 'value' | 'validUntil'>,
  asOf: Date,
): ContradictionSeverity {
  if (isExpired(a, asOf) || isExpired(b, asOf)) return 'low';
  return parseQuantity(a.value) && parseQuantity(b.value) ? 'high' : 'medium';
}
