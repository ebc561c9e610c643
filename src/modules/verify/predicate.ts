/**
 * Issue 26, twelfth round (vpred): support by whole-predicate matching.
 *
 * A claim is a predicate frame: what it is about (its subject's words and names), what it says of it (its relation: a
 * verb, or a noun), and its anchors (amounts, dates, durations, percentages, names, codes). A sentence supports the
 * claim's frame when it states each anchor of the claim in the same role (the amount or date about the same thing,
 * equal; each name and code in the sentence, or in its own context for a name the claim is about), and every other
 * content word of the claim is in the sentence or its document context (title, section, record fields), except the
 * claim's main verb, which a sentence stating no event of its own may leave unsaid (`is planned for 14 June` against
 * the list item `Open day of the society: 14 June`; `must stay within 400 metres` against `Maximum distance: 400 metres`).
 *
 * The engine computes the alignment (it holds the index, the stems, the amount and date pairing); this module decides
 * from it, so that the rule reads in one place (`predicateGap` says what is missing, for tests and docs).
 */
import { isNegativeMeaning } from './scope.js';

/** One content word of the claim and whether the aligned sentence (or its context) holds it. */
export interface FrameWord {
  stem: string;
  /** The claim's main verb (its predicate's, not a participle or gerund qualifying a noun: `a planting budget`). */
  verb: boolean;
  /** Held by the sentence or its context: as itself, another form, a synonym, a paraphrase or a translation. */
  held: boolean;
  /** A light word (`LIGHT_WORDS` and those the claim's kinds of figure imply): it may be left out, and says nothing of its own. */
  light: boolean;
  /** A word of what the claim says (after its verb), not of what it is about. */
  said: boolean;
  /** Held by the sentence itself (not only by its context). */
  inSentence: boolean;
  /** A word the document states elsewhere beside the same words, where this sentence lacks it: the document tells it apart. */
  toldApart: boolean;
}

/** A claim's frame aligned with one sentence. */
export interface FrameAlignment {
  /** The claim's amounts and dates, and how many of them the sentence itself states equal, about the same thing. */
  figures: number;
  figuresInSentence: number;
  /** The amount and date pairing of the engine (`pair`): every figure agreeing, none in conflict, none missing. */
  figuresAgree: boolean;
  /** The claim's names and codes, and how many stand in the sentence or its own context. */
  names: number;
  namesHeld: number;
  /** Of those, how many stand in the sentence itself. */
  namesInSentence: number;
  words: FrameWord[];
  /** Verbs of the sentence's own (not the claim's words, not a support verb or an auxiliary): another event may be stated. */
  otherVerbs: number;
  /** The sentence's polarity against the claim's, read on its words. */
  polarity: 'same' | 'opposite' | 'unclear';
  /** An antonym of a claim word stands in the sentence. */
  flipped: boolean;
  /** The sentence states a condition or exception the claim does not. */
  restricted: boolean;
}


/**
 * Verbs that undo, reverse or change a fact rather than state it (`rejected`, `cancelled`, `postponed`, `reduced`; `annulé`,
 * `reporté`): a claim's main verb of this kind is never left to be said otherwise, its anchors agreeing proves nothing (`The
 * society rejected the £3,450 budget` against `The meeting set the budget at £3,450`). Folded prefixes, English and French.
 */
const REVERSING =
  /^(?:reject|refus|declin|deni|deny|cancel|postpon|defer|delay|withdr|revok|suspend|terminat|revers|annul|overturn|abandon|drop|dismiss|reduc|cut|rais|increas|lower|decreas|replac|end|stop|halt|rejet|annul|report|retir|resili|abandonn|suspend|supprim|diminu|redui|augment|baiss|remplac|arret|interromp|ajourn|revoqu)/;

/** Whether a folded written form of a verb undoes or changes a fact (REVERSING) or means a negation. */
export const reversing = (folded: string): boolean => REVERSING.test(folded) || isNegativeMeaning(folded);

/**
 * Whether the sentence supports the claim's whole predicate:
 * - anchored: the claim has an amount, a date or a name, and the sentence itself states one of them (a heading or a title
 *   alone says what a document is about, not a fact of it);
 * - every figure equal and in the same role, every name and code held;
 * - some word of the claim in the sentence itself, and each word of what the claim says (after its verb) there, not only in
 *   the sentence's context;
 * - every content word held but the claim's main verb, which may be left unsaid where the sentence states no event of
 *   its own (no verb but the claim's words, support verbs and auxiliaries: a field, a list item, a row), is no verb that
 *   undoes a fact (REVERSING), and the document does not tell apart (state elsewhere beside the same words);
 * - the same polarity, no antonym, no condition the claim leaves out.
 */
export function predicateGap(a: FrameAlignment): string | null {
  if (a.figures + a.names === 0) return 'no-anchor';
  if (a.figuresInSentence + a.namesInSentence === 0) return 'anchors-in-context-only';
  if (a.figuresInSentence < a.figures) return 'figure-missing';
  if (!a.figuresAgree) return 'figure-in-another-role';
  if (a.namesHeld < a.names) return 'name-missing';
  // The relation itself is stated by the sentence: some word of the claim in it, not only its anchors and its context
  // (`Priya Raman commented on the results` in the board's minutes says nothing of who took them).
  const own = a.words.filter((w) => w.inSentence && !w.light).length;
  if (own === 0) return 'relation-in-context-only';
  // What the claim says of its subject (its object, its complement) is in the clause itself: its subject may be left to the
  // document's title or section, its statement may not (`approved spending £1.2 million` against a sentence holding the
  // amount, with `spending` only in the section's heading).
  if (a.words.some((w) => w.said && !w.verb && w.held && !w.inSentence)) return 'object-in-context-only';
  for (const w of a.words) {
    if (w.held) continue;
    if (!w.verb) return 'word-missing';
    if (w.toldApart) return 'verb-told-apart';
    // The claim's verb is said otherwise only by a sentence stating no event of its own (a field, a row, a noun phrase): a
    // sentence with a verb of its own states that event (`was signed on 4 February` is no `was renewed on 4 February`).
    if (a.otherVerbs > 0) return 'verb-of-another-event';
  }
  if (a.polarity !== 'same') return `polarity-${a.polarity}`;
  if (a.flipped) return 'antonym';
  if (a.restricted) return 'condition-left-out';
  return null;
}

/** Whether a figure stands inside a code or a reference (`17` of `17-3`, `4` of `4.2.1`, `2025` of `INV-2025-0387`): no amount of its own. */
export function inCode(text: string, at: { start: number; end: number }): boolean {
  return /[\p{L}\p{N}][-/.]$/u.test(text.slice(Math.max(0, at.start - 2), at.start)) || /^[-/.][\p{L}\p{N}]/u.test(text.slice(at.end, at.end + 2));
}
