/**
 * The thing a question counts (twelfth round of issue 26, lfact): *How many **kWh** of gas*, *After how many flying
 * **hours***, *Combien de **sièges***, *the number of **seats***. A count answers only when its figure is said of that
 * thing: `4,069 kWh`, `Seats | 240`, not the `90%` of the sentence about the same gas, nor the `6 hours in a duty day`
 * of another rule. The built-in model prefers the sentences whose figure is tied to the counted thing.
 */
import { saysWord, withoutLabels } from './asked.js';
import { tag } from './entities.js';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

/** Words between the figure and the counted noun (`240 seated guests`: one; `5,000 printed A4 catalogues`: two). */
const NEAR_WORDS = 3;

/** The asking phrase before the counted noun: English `how many`, `number of`; French `combien de`, `nombre de`. */
const COUNTING_EN = /\b(?:how many|number of|count of)\s+/i;
const COUNTING_FR = /\b(?:combien\s+(?:de|d['’]\s*)|nombre\s+(?:de|d['’]\s*))/i;

/**
 * The noun counted by the question, folded (the last noun of the phrase after the counting words: *flying **hours***),
 * or null when it counts nothing named (*How many are there?*) or the phrase names only time units asked as a duration
 * is, which the answer type already reads.
 */
export function countedOf(question: string): string | null {
  const en = COUNTING_EN.exec(question);
  const fr = en ? null : COUNTING_FR.exec(question);
  const m = en ?? fr;
  if (!m) return null;
  const rest = question.slice(m.index + m[0].length);
  if (fr) {
    // French: the noun right after `de` (`combien de sièges`, `nombre de licenciés`).
    const w = /^\s*([\p{L}]+)/u.exec(rest)?.[1];
    return w && w.length >= 3 ? fold(w) : null;
  }
  let counted: string | null = null;
  for (const t of tag(rest)) {
    const w = fold(t.value);
    // A noun, an adjective, a unit the tagger reads as a name (`kWh`), a gerund narrowing the noun (`flying hours`).
    if (t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'X') counted = w;
    else if (t.pos === 'ADJ' || (t.pos === 'VERB' && /ing$/.test(w) && counted === null)) continue;
    else break;
  }
  return counted && counted.length >= 2 && /^\p{L}+$/u.test(counted) ? counted : null;
}

const wordsOf = (text: string): string[] => fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
/** Counts written as words (`no more than two people`, `trois postes`). */
const NUMBER_WORDS = new Set(
  'one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred deux trois quatre cinq sept huit neuf dix onze douze quinze vingt trente quarante cinquante cent'.split(' '),
);
const isFigure = (w: string) => /^\d/.test(w) || NUMBER_WORDS.has(w);

/**
 * Whether a sentence states a figure of the counted thing: a figure with the noun (its stem, synonym, translation) at
 * most NEAR_WORDS words after it (`2,530 kWh`, `240 places assises`, `two people`), or the noun right before it as its
 * label (`Seats: 240`, `Licenciés | 412`), or a table row with a figure under a header naming it.
 */
export function countsThing(counted: string, sentence: string, header = ''): boolean {
  // A figure numbering a thing (`items 2, 4, 5 and 6`, `printer bay 2`) counts nothing (lfact3).
  const ws = wordsOf(withoutLabels(sentence));
  const says = (i: number) => i >= 0 && i < ws.length && !isFigure(ws[i]!) && saysWord(counted, ws[i]!);
  for (let i = 0; i < ws.length; i++) {
    if (!isFigure(ws[i]!)) continue;
    // A figure written with separators (`4,069`, `9 840`) is one figure: the words after its last group.
    let end = i;
    while (end + 1 < ws.length && isFigure(ws[end + 1]!)) end++;
    // After the figure, past a few words narrowing the noun; before it, only as its label (`Seats 240`, `Places : 240`).
    if (says(i - 1)) return true;
    for (let k = 1; k <= NEAR_WORDS; k++) if (says(end + k)) return true;
    i = end;
  }
  return header !== '' && ws.some(isFigure) && saysWord(counted, header);
}
