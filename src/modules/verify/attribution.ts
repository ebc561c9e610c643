/**
 * Issue 26, eleventh round (vprec4): attribution in a list of names and labels.
 *
 * Attribution: a sentence listing names each with its own parenthesis or apposition (`A (x), B (y)`, `A, x; B, y`,
 * `x: A; y: B`) says each item of its own name only. A claim's words held only inside another name's item are not said
 * of the claim's name.
 *
 * Labels: a noun followed by a number or a code (`Trench 4`, `Lot 7`, `Zone B`, `lot 24-118`) names one thing, as a code
 * does: the claim's label must be in the sentence, and the same noun with another number there is another thing.
 */
import type { Entity } from '../../lib/language/entities.js';
import { fold } from './text.js';
import { unnamed } from '../../lib/unnamed.js';

/** One name's item in a list: the name and the span of what is said of it alone. */
export interface Item {
  name: Entity;
  start: number;
  end: number;
  /** The item's words other than the name (its parenthesis, its apposition, its label), folded. */
  value: string;
}

const OPENING = /^[\s*_]*\(/u;
/** What divides a list's items: a semicolon, a dash between spaces. */
const SEPARATOR = /;|\s[—–]\s/gu;

/** The text's parentheses, as spans (one level). */
function parentheses(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(' && open < 0) open = i;
    else if (text[i] === ')' && open >= 0) {
      out.push({ start: open, end: i + 1 });
      open = -1;
    }
  }
  return out;
}

const valueOf = (text: string, item: { start: number; end: number }, name: Entity) =>
  fold(text.slice(item.start, name.start) + ' ' + text.slice(name.end, item.end))
    .replace(/[^\p{L}\p{N}'’ -]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The items of a list of names in `text`, or null when the text is no such list: two names at least, outside any
 * parenthesis, followed by its own parenthesis (`A (x), B (y)`), or parts between semicolons each holding one name
 * (`A, x; B, y`, `x: A; y: B`, `x, A — y, B`).
 */
export function nameItems(text: string, entities: readonly Entity[]): Item[] | null {
  const parens = parentheses(text);
  const names = entities.filter((e) => e.kind === 'name' && !parens.some((p) => e.start > p.start && e.end <= p.end));
  if (names.length < 2) return null;
  // `A (x), B (y)`: each name with the parenthesis right after it.
  const withParen = names.map((n) => {
    const m = OPENING.exec(text.slice(n.end));
    return m ? parens.find((p) => p.start === n.end + m[0].length - 1) : undefined;
  });
  if (withParen.filter(Boolean).length >= 2) {
    // Only the names with their own parenthesis are the list's members (a place named after the list is none).
    return names.flatMap((name, i) => {
      if (!withParen[i]) return [];
      const span = { start: name.start, end: withParen[i]!.end };
      return [{ name, ...span, value: valueOf(text, span, name) }];
    });
  }
  // `A, x; B, y` and `x: A; y: B`: parts between semicolons, each with one name.
  const out: Item[] = [];
  const cuts = [...text.matchAll(SEPARATOR)];
  if (cuts.length === 0) return null;
  let at = 0;
  for (const cut of [...cuts, null]) {
    const end = cut ? cut.index : text.length;
    const span = { start: at, end };
    at = cut ? cut.index + cut[0].length : text.length;
    const own = names.filter((n) => n.start >= span.start && n.end <= span.end);
    if (own.length > 1) return null;
    if (own.length === 1) out.push({ name: own[0]!, ...span, value: valueOf(text, span, own[0]!) });
  }
  if (out.length < 2) return null;
  // The first part may open the list (`Bureau : x: A`): its lead-in stays outside, from the last colon before the name.
  const first = out[0]!;
  const colon = text.lastIndexOf(':', first.name.start);
  if (colon > first.start) {
    const before = text.lastIndexOf(':', colon - 1);
    if (before >= first.start) first.start = before + 1;
    first.value = valueOf(text, first, first.name);
  }
  return out;
}

/** A value that is a role or a title: a few words, no figure. */
export const roleLike = (value: string) => value !== '' && !/\d/.test(value) && value.split(' ').length <= 3;

/** A label: a noun and the number or code it is given. */
export interface Label {
  noun: string;
  code: string;
  start: number;
  end: number;
}

/** Nouns that name things by a number or letter (English and French), whatever their case. */
const LABEL_NOUNS = new Set([
  'lot', 'lots', 'room', 'phase', 'zone', 'trench', 'priority', 'plot', 'unit', 'building', 'block', 'level', 'stage', 'gate',
  'bay', 'area', 'sector', 'site', 'section', 'article', 'clause', 'annex', 'appendix', 'schedule', 'chapter', 'step', 'tier',
  'platform', 'ward', 'bed', 'box', 'batch', 'sample', 'test', 'context', 'feature', 'layer', 'pit', 'grave', 'sondage',
  'tranchee', 'salle', 'piece', 'batiment', 'niveau', 'etape', 'parcelle', 'secteur', 'priorite', 'quai', 'porte', 'bloc',
  'chambre', 'annexe', 'chapitre', 'palier', 'fosse', 'couche', 'echantillon', 'lit', 'version', 'release', 'line', 'ligne',
]);
const MONTHS = new Set([
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'janvier', 'fevrier', 'mars', 'avril', 'mai', 'juin', 'juillet', 'aout', 'septembre', 'octobre', 'novembre', 'decembre',
]);
const LABEL = /(?<![\p{L}\p{N}'’-])(\p{L}[\p{L}'’-]*)(?:[\s*_]*:[\s*_]*|\s+)(?:n[°º]\s*|no\.\s*|#\s*)?(\d+(?:[-/.]\d+)*[A-Za-z]?|[A-Z]\d{0,3})(?![\p{L}\p{N}%€$£/-]|[.,]\d|\s*(?:%|€|\$|£))/gu;

/**
 * The labels of a text: a known label noun (any case) or a capitalised noun (not the text's first word, not a month),
 * followed by a number or a capital letter code. A year after a capitalised word (`Since 2019`) is no label; a figure
 * with a unit or a decimal part is an amount.
 */
export function labelsOf(text: string, stopWords: ReadonlySet<string>): Label[] {
  const out: Label[] = [];
  for (const m of text.matchAll(LABEL)) {
    const word = m[1]!;
    const noun = fold(word);
    const code = m[2]!.toUpperCase();
    const known = LABEL_NOUNS.has(noun);
    if (!known) {
      // A word in capitals before a figure is a currency or a unit (`CHF 160`, `EUR 45`), not a label's noun.
      if (!/^\p{Lu}/u.test(word) || /^\p{Lu}+$/u.test(word) || MONTHS.has(noun) || stopWords.has(noun) || noun.length < 3) continue;
      if (/^[\s>*_#|-]*$/u.test(text.slice(0, m.index))) continue;
      if (/^\d{4}$/.test(code) || /^[A-Z]$/.test(code)) continue;
    }
    // A letter code only after a known noun (`Zone B`), never a lone `A` / `I` article or pronoun read as a code.
    if (/^[A-Z]\d*$/.test(code) && !known) continue;
    if (/^(?:A|I)$/.test(code) && m[2] !== m[2]!.toUpperCase()) continue;
    if (/^[a-z]$/.test(m[2]!)) continue;
    out.push({ noun, code, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * The claim's labels against a text: `held` when each is in it; `other` when one is not and the text gives the same noun
 * another number or code (`Trench 4` for `Trench 5`); `missing` otherwise (a label the document gives no other of its noun
 * counts as held: the document is about it). Null when the claim has no label.
 */
export function compareLabels(
  claim: readonly Label[],
  sentence: readonly Label[],
  context: readonly Label[],
  document: readonly Label[],
): 'held' | 'other' | 'missing' | null {
  if (claim.length === 0) return null;
  let out: 'held' | 'other' | 'missing' = 'held';
  const same = unnamed((a: Label, b: Label) => a.noun === b.noun && a.code === b.code);
  for (const c of claim) {
    if (sentence.some((l) => same(l, c)) || context.some((l) => same(l, c))) continue;
    if (sentence.some((l) => l.noun === c.noun && l.code !== c.code)) return 'other';
    // The document's one label of that noun (`Press Line 3` in its heading, no other line) is what all its sentences are about.
    if (document.some((l) => same(l, c)) && !document.some((l) => l.noun === c.noun && l.code !== c.code) && !sentence.some((l) => l.noun === c.noun)) continue;
    out = 'missing';
  }
  return out;
}
