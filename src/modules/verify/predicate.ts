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
import { baseFormsOf, verbKinOf } from '../../lib/language/wordnet.js';
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

/**
 * Verbs too general to say which event a sentence states (`go`, `get`, `make`, `take`): WordNet relates them to hundreds of
 * verbs, none of which says them. Never related by `verbsRelated`.
 */
const GENERAL_VERBS = new Set(['be', 'have', 'get', 'go', 'come', 'make', 'take', 'give', 'put', 'set', 'keep', 'let', 'see', 'say', 'use']);

/**
 * Verbs by which a thing carries a charge or a cost (`attracts a fee`, `incurs a fee`, `carries a fee of $35,000`, `entails a
 * cost`): each says the others where the figure is the claim's, stated of the same thing.
 */
const CHARGE_VERBS = new Set(['attract', 'incur', 'carry', 'bear', 'involve', 'entail']);

/**
 * Verbs by which a question or a request reaches a person (`Questions … go to`, `should be sent to`, `may be addressed to`, `are
 * handled by`, `please contact`): each says the others where the claim names the person it reaches.
 */
const ROUTE_VERBS = new Set(['go', 'send', 'address', 'direct', 'refer', 'forward', 'handle', 'contact', 'route', 'submit']);

/** Irregular forms WordNet's morphy rules do not undo (the lemma table leaves `do` out: it is an auxiliary there). */
const IRREGULAR: Record<string, string> = { done: 'do', did: 'do', does: 'do' };

/** A verb's base forms in WordNet (its lemma first), lower case. */
function verbBases(folded: string): string[] {
  const w = Object.hasOwn(IRREGULAR, folded) ? IRREGULAR[folded]! : folded;
  // `carried`, `applied`: WordNet keeps these in its exception list, which its morphy rules do not read.
  const y = /[^aeiou]ied$/.test(w) ? `${w.slice(0, -3)}y` : null;
  return [...new Set([w, ...baseFormsOf(w), ...(y ? baseFormsOf(y) : [])])];
}

/**
 * Sixteenth round (vverb): whether a sentence's verb says the claim's verb in other words, by WordNet (one of them a synonym,
 * a hypernym, a hyponym, an entailment or a cause of the other's first senses: `done` / `performed`, `sent` / `forwarded`),
 * both verbs by which a thing carries a charge (`attract` / `incur`) where the claim states a figure, or both verbs by which a
 * question reaches a person (`go to` / `be handled by`) where the claim names the person. Never a verb that
 * undoes or changes a fact (REVERSING, negative meanings) on either side, nor a verb too general to name an event.
 */
export function verbsRelated(claimVerb: string, sentenceVerb: string, claim: { figure: boolean; person: boolean }): boolean {
  if (reversing(claimVerb) || reversing(sentenceVerb)) return false;
  if (claim.person && verbBases(claimVerb).some((a) => ROUTE_VERBS.has(a)) && verbBases(sentenceVerb).some((b) => ROUTE_VERBS.has(b))) return true;
  const withFigure = claim.figure;
  const as = verbBases(claimVerb).filter((x) => !GENERAL_VERBS.has(x));
  const bs = verbBases(sentenceVerb).filter((x) => !GENERAL_VERBS.has(x));
  if (as.length === 0 || bs.length === 0) return false;
  if (as.some((a) => bs.includes(a))) return true;
  // A hyponym by a prefix of excess or error (`misdeliver`, `overcharge`, `underquote`) says the event went wrong, not that it was done.
  if (bs.some((b) => /^(?:mis|over|under)/.test(b)) && !as.some((a) => /^(?:mis|over|under)/.test(a))) return false;
  if (withFigure && as.some((a) => CHARGE_VERBS.has(a)) && bs.some((b) => CHARGE_VERBS.has(b))) return true;
  return as.some((a) => {
    const kin = verbKinOf(a);
    return bs.some((b) => kin.has(b) || verbKinOf(b).has(a));
  });
}
