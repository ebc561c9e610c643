import type { Chunk } from './chunk.js';
import { foldText, splitSentences } from './sentences.js';

export interface QaPair {
  question: string;
  answer: string;
  /** The chunk holding the question. */
  chunkOrdinal: number;
}

const MAX_ANSWER_SENTENCES = 5;
const QUESTION_LABEL = /^(?:q|question)\s*[:.)]\s*|^\d{1,3}[.)]\s+/i;
const ANSWER_LABEL = /^(?:a|r|answer|réponse|reponse)\s*[:.)]\s+/i;

/**
 * FAQ-style pairs. A question is a sentence or line ending with `?` and of at least two words
 * (labels `Q:`, `Question:` or a list number are removed). Its answer is the sentences after it in
 * the same section, up to the next sentence ending with `?`, at most 5 (labels `A:`, `R:`,
 * `Réponse :` removed); it may continue into the next chunk of that section. A question with no
 * sentence before the next `?` or the end of its section yields nothing. A heading that is a
 * question (`## How do I reset my password?`) is a question whose answer opens its section.
 * Sentences repeated by chunk overlap are read once; a question already paired is not paired again.
 */
export function extractQaPairs(chunks: Chunk[]): QaPair[] {
  const pairs: QaPair[] = [];
  const asked = new Set<string>();
  let pending: { question: string; answer: string[]; chunkOrdinal: number } | null = null;
  let previousSection: string | null = null;
  let previousSentences: string[] = [];

  const settle = (): void => {
    const key = pending ? foldText(pending.question) : '';
    if (pending && pending.answer.length > 0 && !asked.has(key)) {
      asked.add(key);
      pairs.push({ question: pending.question, answer: pending.answer.join(' '), chunkOrdinal: pending.chunkOrdinal });
    }
    pending = null;
  };

  for (const chunk of chunks) {
    const all = splitSentences(chunk.text);
    let sentences = all;
    if (previousSection === chunk.section) {
      sentences = all.slice(overlapLength(previousSentences, all));
    } else {
      settle();
      const heading = chunk.section.split(' > ').pop() ?? '';
      if (isQuestion(heading)) pending = { question: heading, answer: [], chunkOrdinal: chunk.ordinal };
    }
    previousSection = chunk.section;
    previousSentences = all;

    for (const sentence of sentences) {
      if (sentence.endsWith('?')) {
        settle();
        if (isQuestion(sentence)) {
          pending = { question: sentence.replace(QUESTION_LABEL, '').trim(), answer: [], chunkOrdinal: chunk.ordinal };
        }
      } else if (pending) {
        const answer = sentence.replace(ANSWER_LABEL, '').trim();
        if (answer) pending.answer.push(answer);
        if (pending.answer.length >= MAX_ANSWER_SENTENCES) settle();
      }
    }
  }
  settle();
  return pairs;
}

function isQuestion(sentence: string): boolean {
  const text = sentence.replace(QUESTION_LABEL, '').trim();
  return text.endsWith('?') && text.split(/\s+/).length >= 2;
}

/** How many leading sentences of `next` repeat the trailing sentences of `previous` (chunk overlap). */
function overlapLength(previous: string[], next: string[]): number {
  for (let k = Math.min(previous.length, next.length); k > 0; k--) {
    if (previous.slice(-k).every((s, i) => s === next[i])) return k;
  }
  return 0;
}
