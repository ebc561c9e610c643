import { indexText, singularOf, type TermGroup } from './search-text.js';

/** Passages the full-text statement hands to the reordering (the best by its rank), when the query is expanded. */
export const RERANK_POOL = 30;
/** What another form, a paraphrase, a synonym or a translation of a word counts for in a passage, against 1 for the word. */
export const ALTERNATIVE_WEIGHT = 0.5;
/** How much of the full-text rank (cover density: the words close together, in a short passage) is added to break near ties. */
export const RANK_WEIGHT = 0.3;

interface Candidate {
  sourceId: string;
  sourceName: string;
  section: string;
  text: string;
  rank: number;
}

/**
 * The index words of a text and their singular forms (as the full-text vector holds them). Plain ASCII text
 * skips the Unicode folding, which is most of the cost (indexText gives the same words for it).
 */
function tokensOf(text: string): Set<string> {
  const out = new Set<string>();
  const words = /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase().split(/[^a-z0-9]+/) : indexText(text).split(' ');
  for (const w of words) {
    if (!w) continue;
    out.add(w);
    const s = singularOf(w);
    if (s) out.add(s);
  }
  return out;
}

/** 1 when the passage holds the word, ALTERNATIVE_WEIGHT when it holds only what may stand for it, else 0. */
function matchOf(g: TermGroup, tokens: Set<string>): number {
  if (g.exact.some((w) => tokens.has(w))) return 1;
  for (const w of g.alternatives) if (tokens.has(w)) return ALTERNATIVE_WEIGHT;
  if (g.prefix) for (const t of tokens) if (t.startsWith(g.prefix)) return ALTERNATIVE_WEIGHT;
  return 0;
}

/**
 * Reorders the full-text candidates of an expanded query by the share of the query's words each passage
 * covers (docs/knowledge.md, "Synonyms and languages"). A word counts once, by its best match: 1 for the word
 * itself, ALTERNATIVE_WEIGHT for another of its forms, a paraphrase, a synonym or a translation, so an
 * expansion never adds to a word the passage already holds (the sum of two rankings did, which let a
 * passage with a stray synonym overtake one with the exact words). A name, code or figure of the query
 * (TermGroup.specific) tells which document, not which passage: it counts for every passage of a document
 * holding it (in its name or in any candidate passage: the parties, the product, the residence named once
 * at the top), so the passage that answers is not outranked by the heading of its own document or of
 * another one naming the same words. The full-text rank breaks near ties. Each hit keeps its full-text
 * `rank` (what `similarity` reports, and what light's clearlyFirst compares): the order changes, not the
 * figure, so a passage lifted here never looks further ahead of the next than its own words make it.
 */
export function rerank<T extends Candidate>(hits: T[], groups: TermGroup[]): T[] {
  if (groups.length === 0 || hits.length < 2) return hits;
  const matches = hits.map((h) => {
    const tokens = tokensOf(`${h.section} ${h.text}`);
    return groups.map((g) => matchOf(g, tokens));
  });
  const documents = new Map<string, number[]>();
  hits.forEach((h, i) => {
    let d = documents.get(h.sourceId);
    if (!d) {
      const name = tokensOf(h.sourceName.replace(/\.[a-z0-9]+$/i, ''));
      documents.set(h.sourceId, (d = groups.map((g) => matchOf(g, name))));
    }
    for (let j = 0; j < groups.length; j++) d[j] = Math.max(d[j]!, matches[i]![j]!);
  });
  const scored = hits.map((h, i) => {
    const d = documents.get(h.sourceId)!;
    let covered = 0;
    for (let j = 0; j < groups.length; j++) covered += groups[j]!.specific ? d[j]! : matches[i]![j]!;
    return { h, i, score: covered / groups.length + RANK_WEIGHT * h.rank };
  });
  return scored.sort((a, b) => b.score - a.score || a.i - b.i).map((x) => x.h);
}
