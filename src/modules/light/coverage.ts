/**
 * How much of a question the passages cover (docs/light.md, "Refusal"): the question's content words
 * (the search's own words: folded, stop words and asking words dropped, stemmed and matched as prefixes) weighted by their rarity in the
 * workspace's passages (inverse document frequency), and the share of that weight found in the best
 * passage. A question whose rare words appear in no passage (a name, a place, a subject the documents
 * never mention) scores low even when its common words match everywhere. Ranking-independent: the
 * same measure whatever retrieval ranked the passages.
 */
import type { Em } from '../../db/types.js';
import { alternativesOf } from '../../lib/language/alternatives.js';
import { relatedWords } from '../../lib/language/asked.js';
import { cognatesOf } from '../../lib/language/glossary.js';
import { indexText, queryTerms } from '../knowledge/index.js';
import { stem } from '../models/index.js';

/** One content word of the question: its stem, matched as a word prefix (`servic` for serviced, services). */
export interface TermGroup {
  prefix: string;
  /** Synonyms and translations of the word (folded), matched at a lower weight (SYNONYM_WEIGHT). */
  alternatives: string[];
  /**
   * Paraphrases and derived forms of the word (asked.ts, relatedWords), and its cognates in the other language
   * (glossary.ts, cognatesOf: *olympic* / *olympique*), matched at RELATED_WEIGHT.
   */
  related: string[];
}

/** A question word found only as a paraphrase or a derived form counts this much. */
export const RELATED_WEIGHT = 0.6;

/** A question word found only as a synonym or a translation counts this much. */
export const SYNONYM_WEIGHT = 0.8;

/**
 * Words of a question that ask rather than say (how much, how often, allowed...): they are rarely in the
 * passage that answers, and would weigh as if the documents lacked the subject.
 */
const QUESTION_WORDS = new Set(
  'much many long often large big small allowed allow happen happens happened get got does do can need needed must may should would could kind sort ever still per de quel combien faut peut'.split(' '),
);

/** Shortest stem matched as a prefix; shorter ones must match a whole word (`car` is not `cardboard`). */
const MIN_PREFIX = 4;

/** The question's content words as the search reads them (folded, stop words dropped), one group per stem. */
export function termGroups(question: string): TermGroup[] {
  const seen = new Set<string>();
  const groups: TermGroup[] = [];
  for (const term of queryTerms(question)) {
    if (QUESTION_WORDS.has(term)) continue;
    const stemmed = stem(term);
    // The stem's part that is a prefix of the word (the stemmer writes `polici` for policy).
    let n = 0;
    while (n < stemmed.length && stemmed[n] === term[n]) n++;
    const prefix = term.slice(0, Math.max(n, Math.min(term.length, MIN_PREFIX)));
    if (seen.has(prefix) || [...seen].some((p) => p === term)) continue;
    seen.add(prefix);
    groups.push({ prefix, alternatives: alternativesOf(term), related: [...relatedWords(term), ...cognatesOf(term)] });
  }
  return groups;
}

/** The part of a word's stem that is a prefix of it (`polici` of policy gives `polic`), at least MIN_PREFIX letters. */
function prefixOf(term: string): string {
  const stemmed = stem(term);
  let n = 0;
  while (n < stemmed.length && stemmed[n] === term[n]) n++;
  return term.slice(0, Math.max(n, Math.min(term.length, MIN_PREFIX)));
}

const tsTerm = (g: TermGroup) => (g.prefix.length >= MIN_PREFIX ? `'${g.prefix}':*` : `'${g.prefix}'`);
const matches = (g: TermGroup, word: string) => (g.prefix.length >= MIN_PREFIX ? word.startsWith(g.prefix) : word === g.prefix);

/** Passages of the workspace, and for each group the number holding one of its forms (one statement). */
export async function documentFrequencies(em: Em, workspaceId: string, groups: TermGroup[]): Promise<{ total: number; df: number[] }> {
  if (groups.length === 0) return { total: 0, df: [] };
  const parts = groups.map(
    (_g, i) => `(select count(*) from knowledge_chunk where workspace_id = ? and search_vector @@ to_tsquery('simple', ?)) as d${i}`,
  );
  const params: unknown[] = [workspaceId];
  for (const g of groups) params.push(workspaceId, tsTerm(g));
  const [row] = await em.execute<Record<string, string | number>[]>(
    `select (select count(*) from knowledge_chunk where workspace_id = ?) as total, ${parts.join(', ')}`,
    params,
  );
  return { total: Number(row?.total ?? 0), df: groups.map((_g, i) => Number(row?.[`d${i}`] ?? 0)) };
}

const wordsOf = (text: string): string[] => [...new Set(indexText(text).split(' ').filter(Boolean))];

/**
 * The best passage's share of the question's weight, 0 to 1 (0 without content words or passages).
 * Weight of a word: ln(1 + total / (df + 1)), so a word in no passage weighs most.
 */
export function coverage(groups: TermGroup[], freq: { total: number; df: number[] }, passages: { section: string; text: string }[]): number {
  return coverageOf(groups, freq, passages).coverage;
}

/**
 * The best passage's coverage, and the share of the question's weight held by the heaviest word that
 * passage lacks (its synonyms and translations counted as present): a near miss shares nearly every word
 * of a passage but the one it is about (`penalty`, `resolve`, `grandparent`).
 */
export function coverageOf(
  groups: TermGroup[],
  freq: { total: number; df: number[] },
  passages: { section: string; text: string }[],
): { coverage: number; missing: number } {
  if (groups.length === 0 || passages.length === 0) return { coverage: 0, missing: 1 };
  const weights = groups.map((_g, i) => Math.log(1 + freq.total / ((freq.df[i] ?? 0) + 1)));
  const whole = weights.reduce((a, b) => a + b, 0);
  if (whole === 0) return { coverage: 0, missing: 1 };
  let best = 0;
  let missing = 1;
  for (const p of passages) {
    const words = wordsOf(`${p.section} ${p.text}`);
    let found = 0;
    let heaviest = 0;
    groups.forEach((g, i) => {
      if (words.some((w) => matches(g, w))) found += weights[i]!;
      else if (g.alternatives.some((a) => words.some((w) => w === a || (a.length >= 5 && w.startsWith(prefixOf(a)))))) found += SYNONYM_WEIGHT * weights[i]!;
      else if (g.related.some((a) => words.some((w) => w === a || (a.length >= 5 && w.startsWith(prefixOf(a)))))) found += RELATED_WEIGHT * weights[i]!;
      else heaviest = Math.max(heaviest, weights[i]!);
    });
    if (found / whole > best) [best, missing] = [found / whole, heaviest / whole];
  }
  return { coverage: Math.round(best * 10_000) / 10_000, missing: Math.round(missing * 10_000) / 10_000 };
}
