/**
 * The built-in model's learned sentence choice (docs/light.md, "The learned sentence choice"; issue 26, fifteenth round,
 * llearn). On a turn whose material is passages alone (light's questions), the sentences the rules could answer with
 * (every ranked sentence, and the unranked ones that answer what is asked) are scored by a logistic regression over
 * what the rules already compute: the steps of their choice, the overlap with the question, the asked type present or
 * stated by the question itself, the passage's rank, the sentence's place, a table row and its header. The weights are
 * trained offline on the development sets (bench/train-light-answer.ts) and committed in local-learned-weights.json,
 * read once. No model is called; same input, same output.
 */
import { readFileSync } from 'node:fs';
import { holdsValue, languageOf, saysWord, withoutOwnFigures } from '../../lib/language/asked.js';
import { translationsOf } from '../../lib/language/glossary.js';
import type { Candidate, Choice, Ranked } from './local-candidates.js';
import { contentStems, foldText, words } from './text-match.js';

/** The features of a candidate sentence, in the weights' order. */
export const FEATURES = [
  'bm25', // its overlap score over the best one's (0 unranked)
  'rankRecip', // 1 / (1 + its place in the overlap ranking)
  'strict', // says the asked type beside the head and the question's terms (asked.ts, sentenceAnswers)
  'typed', // in the rules' typed set (strict, or by the question's frame)
  'valued', // holds the asked value beside the question's words, without the head
  'unranked', // answers without sharing a word with the question
  'tied', // its figure is said of the counted thing (counted.ts)
  'focusText', // says what the value is of or for, in its own words
  'predicateText', // share of the question's lower-case words in the sentence itself
  'rulesFirst', // the rules' own first sentence
  'rulesKept', // among the sentences the rules answer with
  'holdsType', // holds a value of the asked type (0 when no type is asked)
  'ownValueOnly', // holds it only as a figure the question states itself
  'passageRecip', // 1 / the passage's number
  'docHead', // part of its document's head (number, parties, period), not of its body
  'headInContext', // the head of what is asked said in its header, section or the sentence before, not in it
  'tableRow', // a table row
  'headerOverlap', // share of the question's stems in its table header
  'textOverlap', // share of the question's stems in the sentence itself
  'crossOverlap', // share of the question's translated stems in the sentence
  'terms', // share of the question's codes and figures in the sentence
  'logLength', // ln(1 + words)
  'sameLanguage', // in the question's language
  'saysHead', // says the head of what is asked
  'predicateOverlap', // share of the question's lower-case words (not its names and codes) in the sentence or its header
] as const;

export interface LearnedWeights {
  features: string[];
  bias: number;
  weights: number[];
  /** Feature scaling (mean, standard deviation) applied before the weights. */
  mean: number[];
  scale: number[];
}

const WEIGHTS_FILE = new URL('./local-learned-weights.json', import.meta.url);
let loaded: LearnedWeights | null | undefined;

/** The committed weights, read once (null without the file or when its features are not these). */
export function learnedWeights(): LearnedWeights | null {
  if (loaded !== undefined) return loaded;
  try {
    const w = JSON.parse(readFileSync(WEIGHTS_FILE, 'utf8')) as LearnedWeights;
    loaded = w.features.length === FEATURES.length && w.features.every((f, i) => f === FEATURES[i]) ? w : null;
  } catch {
    loaded = null;
  }
  return loaded;
}

/** For tests and training: weights to use instead of the committed ones (null: none; undefined: the file again). */
export function setLearnedWeights(w: LearnedWeights | null | undefined): void {
  loaded = w;
}

/**
 * The sentences the learned choice scores: every ranked one, then the unranked ones that answer; when the rules found
 * sentences whose figure is said of the counted thing (counted.ts: `La commande porte sur 14 sièges` for *combien de
 * sièges*), those alone, as the rules do (a price beside the same words counts no seats).
 */
export function poolOf(choice: Choice): Ranked[] {
  const seen = new Set<Candidate>();
  const out: Ranked[] = [];
  for (const r of choice.tied.length > 0 ? choice.tied : [...choice.ranked, ...choice.unranked]) {
    if (seen.has(r.candidate) || r.candidate.source !== 'passage') continue;
    seen.add(r.candidate);
    out.push(r);
  }
  return out;
}

/** Whether the stems of a code or figure stand in the sentence's words, in a row. */
const holdsWords = (needle: string[], hay: string[]): boolean => {
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((w, k) => hay[i + k] === w)) return true;
  return false;
};

const share = (query: Set<string>, stems: Set<string>): number => {
  if (query.size === 0) return 0;
  let n = 0;
  for (const s of query) if (stems.has(s)) n++;
  return n / query.size;
};

/** The feature vectors of the pool's sentences (FEATURES order). */
export function featuresOf(question: string, candidates: Candidate[], choice: Choice, pool: Ranked[] = poolOf(choice)): number[][] {
  const { asked } = choice;
  const stems = contentStems(question);
  const crossStems = contentStems(words(question).flatMap(translationsOf).join(' '));
  for (const s of stems) crossStems.delete(s);
  const rankedAt = new Map(choice.ranked.map((r, i) => [r.candidate, i]));
  const top = choice.ranked[0]?.score ?? 1;
  const sets = (rs: Ranked[]) => new Set(rs.map((r) => r.candidate));
  const [strict, typed, valued, unranked, tied, inText] = [choice.strict, choice.typed, choice.valued, choice.unranked, choice.tied, choice.inText].map(sets);
  // The question's lower-case words: what it asks of its names and codes.
  const predicate = contentStems((question.match(/(?<![\p{L}\p{N}])\p{Ll}[\p{L}'’-]*/gu) ?? []).join(' '));
  const kept = new Set(keptOf(choice.best));
  const first = choice.best[0]?.candidate;
  // Place of each sentence in its passage.
  const place = new Map<Candidate, { index: number; count: number }>();
  const counts = new Map<number | undefined, number>();
  for (const c of candidates) {
    const n = counts.get(c.ref) ?? 0;
    place.set(c, { index: n, count: 0 });
    counts.set(c.ref, n + 1);
  }
  for (const c of candidates) place.get(c)!.count = counts.get(c.ref) ?? 1;
  const terms = asked.terms.map((t) => t.words.map((w) => foldText(w)));
  const b = (x: boolean) => (x ? 1 : 0);
  return pool.map(({ candidate: c }) => {
    const at = rankedAt.get(c);
    const own = words(c.text);
    const ownStems = contentStems(c.text);
    const header = c.context?.header ?? '';
    const holds = asked.type ? holdsValue(asked, c.text) : false;
    const p = place.get(c) ?? { index: 0, count: 1 };
    return [
      at === undefined ? 0 : choice.ranked[at]!.score / Math.max(top, 1e-9),
      at === undefined ? 0 : 1 / (1 + at),
      b(strict.has(c)),
      b(typed.has(c)),
      b(valued.has(c)),
      b(unranked.has(c)),
      b(tied.has(c)),
      b(inText.has(c)),
      predicate.size === 0 ? 0 : share(predicate, ownStems),
      b(c === first),
      b(kept.has(c)),
      b(holds),
      b(holds && !holdsValue(asked, withoutOwnFigures(asked, c.text))),
      c.ref ? 1 / c.ref : 0,
      b(Boolean(c.context?.document && c.context.document.includes(c.text))),
      b(asked.head !== null && !saysWord(asked.head, c.text) && saysWord(asked.head, `${header}\n${c.context?.section ?? ''}\n${c.context?.previous ?? ''}`)),
      b(c.text.includes('|')),
      header ? share(stems, contentStems(header)) : 0,
      share(stems, ownStems),
      share(crossStems, ownStems),
      terms.length === 0 ? 0 : terms.filter((t) => holdsWords(t, own)).length / terms.length,
      Math.log(1 + own.length),
      b(languageOf(`${c.context?.previous ?? ''} ${c.text}`) === asked.language),
      b(asked.head !== null && saysWord(asked.head, c.text)),
      predicate.size === 0 ? 0 : share(predicate, new Set([...ownStems, ...contentStems(header)])),
    ];
  });
}

/** The sentences the rules answer with (local-answer.ts, pick): at most three, each at least half the best's score. */
function keptOf(best: Ranked[]): Candidate[] {
  const top = best[0]?.score ?? 0;
  return best.slice(0, 3).filter((r) => r.score >= top * 0.5).map((r) => r.candidate);
}

/** The learned score of one feature vector (a logit). */
export function scoreOf(w: LearnedWeights, x: number[]): number {
  let z = w.bias;
  for (let i = 0; i < x.length; i++) z += w.weights[i]! * ((x[i]! - w.mean[i]!) / w.scale[i]!);
  return z;
}

/**
 * The learned order of the sentences to answer with, best first, each scored by its share of the pool's softmax (the
 * probability that it is the one stating the fact), or null when the choice does not apply: material other than
 * passages (a persona, memories, context), no weights, or nothing the rules would answer with.
 */
export function learnedChoice(question: string, candidates: Candidate[], choice: Choice, w: LearnedWeights | null = learnedWeights()): Ranked[] | null {
  if (!w || choice.best.length === 0 || candidates.some((c) => c.source !== 'passage')) return null;
  const pool = poolOf(choice);
  if (pool.length === 0) return null;
  const zs = featuresOf(question, candidates, choice, pool).map((x) => scoreOf(w, x));
  const top = Math.max(...zs);
  const sum = zs.reduce((s, z) => s + Math.exp(z - top), 0);
  return pool
    .map((r, i) => ({ candidate: r.candidate, score: Math.exp(zs[i]! - top) / sum, order: i }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ candidate, score }) => ({ candidate, score }));
}
