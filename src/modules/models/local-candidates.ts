import { sentencesWithContext, type Asked, type SentenceContext } from '../../lib/language/asked.js';
import type { ChatMessage, TurnMaterial } from './provider.js';
import { contentStems, splitSentences } from './text-match.js';

/** One sentence the local model may answer with. */
export interface Candidate {
  text: string;
  /** Stems it matches on: the sentence plus its heading, section or memory key. */
  stems: Set<string>;
  /** Passage number to cite as `[n]`. */
  ref?: number;
  /** High-priority context outranks equal matches elsewhere; the persona yields to any document. */
  weight: number;
  source: 'passage' | 'context' | 'memory' | 'persona' | 'prompt';
  /** A passage sentence's context (the sentence before, its table header, section and document), read by asked.ts. */
  context?: SentenceContext;
}

const HIGH_CONTEXT_WEIGHT = 1.25;
const PERSONA_WEIGHT = 0.4;
const LEADING_CITATIONS = /^(?:\s*\[\d+\])+\s*/;

/**
 * Every sentence of the material, in a fixed order (passages in retrieval order, high context
 * blocks first, then memories, then the persona) so ties always break the same way. Without
 * material the system prompt is the only thing to read.
 */
export function gatherCandidates(material: TurnMaterial | undefined, messages: ChatMessage[]): Candidate[] {
  const out: Candidate[] = [];
  const add = (source: Candidate['source'], said: string, matchExtra: string, weight = 1, ref?: number, context?: SentenceContext) => {
    // A citation marker opening a sentence is the previous sentence's (`… capped. [1] Hotel nights …` in a debate's
    // transcript): an answer never starts with it.
    const text = said.replace(LEADING_CITATIONS, '');
    const stems = contentStems(`${text} ${matchExtra}`);
    if (stems.size > 0) out.push({ text, stems, weight, source, ...(ref !== undefined ? { ref } : {}), ...(context ? { context } : {}) });
  };
  for (const p of material?.passages ?? []) {
    // A table row matches on its table's header row too (the column names say what its cells are).
    for (const s of sentencesWithContext(p)) add('passage', s.sentence, `${p.section ?? ''} ${s.context.header}`, 1, p.ref, s.context);
  }
  const blocks = [...(material?.contextBlocks ?? [])].sort((a, b) => Number(b.high) - Number(a.high));
  for (const b of blocks) {
    for (const s of splitSentences(b.text)) add('context', s, b.heading, b.high ? HIGH_CONTEXT_WEIGHT : 1);
  }
  for (const m of material?.memories ?? []) {
    for (const s of splitSentences(m.value)) add('memory', s, m.key);
  }
  const persona = material?.persona;
  if (persona) {
    if (persona.role) add('persona', introOf(persona.name, persona.role), 'role job name', PERSONA_WEIGHT);
    if (persona.mission) add('persona', `My mission: ${persona.mission}`, 'mission goal purpose objectif but', PERSONA_WEIGHT);
  }
  if (!hasMaterial(material)) {
    for (const m of messages) {
      if (m.role === 'system') for (const s of splitSentences(m.content)) add('prompt', s, '');
    }
  }
  return out;
}

export function introOf(name: string, role: string): string {
  return role ? `I am ${name}, ${role}.` : `I am ${name}.`;
}

function hasMaterial(material: TurnMaterial | undefined): boolean {
  if (!material) return false;
  return Boolean(
    material.persona || material.passages?.length || material.contextBlocks?.length || material.memories?.length,
  );
}

export interface Ranked {
  candidate: Candidate;
  score: number;
}

/**
 * Candidates sharing stems with the query, best first. A shared stem counts more when few
 * candidates hold it (inverse document frequency), so a rare term outweighs a common one; with
 * `lengthB`, a candidate longer than the average counts less (BM25's length normalisation).
 */
/** How much a sentence's length weighs on its score when the answer is a sentence (BM25's b). */
export const SENTENCE_LENGTH_B = 0.25;

export function rank(candidates: Candidate[], query: Set<string>, lengthB = 0): Ranked[] {
  if (query.size === 0) return [];
  const df = new Map<string, number>();
  for (const c of candidates) for (const s of c.stems) if (query.has(s)) df.set(s, (df.get(s) ?? 0) + 1);
  const ranked: (Ranked & { order: number })[] = [];
  const average = candidates.reduce((n, c) => n + c.stems.size, 0) / Math.max(1, candidates.length);
  candidates.forEach((candidate, order) => {
    let score = 0;
    for (const s of query) if (candidate.stems.has(s)) score += Math.log(1 + candidates.length / (df.get(s) ?? 1));
    // BM25's length normalisation: a long run of fields (a document's header block) matches many words by its length alone.
    const norm = 1 - lengthB + (lengthB * candidate.stems.size) / Math.max(1, average);
    if (score > 0) ranked.push({ candidate, score: (score * candidate.weight) / norm, order });
  });
  ranked.sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.map(({ candidate, score }) => ({ candidate, score }));
}

/** The rules' choice and every step of it (read by the learned choice's features, local-learned.ts). */
export interface Choice {
  ranked: Ranked[];
  asked: Asked;
  strict: Ranked[];
  typed: Ranked[];
  valued: Ranked[];
  unranked: Ranked[];
  tied: Ranked[];
  inText: Ranked[];
  focused: Ranked[];
  best: Ranked[];
}
