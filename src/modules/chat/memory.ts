/**
 * Agent memory (docs/chat.md, "Memory"): what a turn recalls and what it saves. Both rules are
 * lexical and deterministic, so they cost no model call and behave the same on every model.
 */
import { contentStems, splitSentences, words } from '../models/index.js';
import type { ExtractedFact, MemorySaved } from './chat.schemas.js';
import type { StoredMemory } from './turn.repository.js';

/** Memories put in the prompt per turn. */
export const MAX_RECALLED = 8;

export interface RecalledMemory {
  key: string;
  value: string;
}

/**
 * The memories put in the prompt, from the agent's most recent ones (read with the turn's other reads,
 * turn.repository.ts): ranked by words shared with the message, then salience, then recency; at most
 * MAX_RECALLED.
 */
export function rankMemories(pool: readonly StoredMemory[], message: string): RecalledMemory[] {
  const query = contentStems(message);
  return pool
    .map((m, recency) => {
      const stems = contentStems(`${m.key.replace(/[_:]/g, ' ')} ${m.value}`);
      let overlap = 0;
      for (const s of query) if (stems.has(s)) overlap++;
      return { m, overlap, recency };
    })
    .sort((a, b) => b.overlap - a.overlap || Number(b.m.salience) - Number(a.m.salience) || a.recency - b.recency)
    .slice(0, MAX_RECALLED)
    .map(({ m }) => ({ key: m.key, value: m.value }));
}

interface MemoryRule {
  pattern: RegExp;
  type: string;
  salience: number;
  key: (match: RegExpMatchArray) => string;
}

const slug = (text: string, max = 3) =>
  words(text)
    .filter((w) => w.length > 1)
    .slice(0, max)
    .join('_') || 'note';

/** First rule that matches a sentence wins; one memory per sentence at most. */
const RULES: MemoryRule[] = [
  { pattern: /\b(?:please\s+)?(?:remember|note|keep in mind)\s+that\s+(.{3,})/i, type: 'fact', salience: 0.9, key: (m) => `note:${slug(m[1] ?? '')}` },
  { pattern: /\b(?:souviens[- ]toi|rappelle[- ]toi|retiens|note)\s+(?:bien\s+)?que\s+(.{3,})/i, type: 'fact', salience: 0.9, key: (m) => `note:${slug(m[1] ?? '')}` },
  { pattern: /\b(?:my name is|call me|je m'appelle|je m’appelle|mon nom est|appelle[- ]moi)\s+\p{L}/iu, type: 'identity', salience: 0.8, key: () => 'name' },
  { pattern: /\b(?:i work (?:as|at|for|in)|i am an?|i'm an?|je travaille (?:comme|chez|pour|dans)|je suis (?:un|une))\s+\p{L}/iu, type: 'identity', salience: 0.7, key: () => 'occupation' },
  { pattern: /\b(?:i|we)\s+(?:prefer|like|love|hate|dislike|always|never|usually)\s+(.{2,})/i, type: 'preference', salience: 0.6, key: (m) => `preference:${slug(m[1] ?? '', 2)}` },
  { pattern: /\b(?:je|nous)\s+(?:préf[èe]re|preferons|préférons|d[ée]teste|d[ée]testons|n'aime|aime|aimons)\s+(.{2,})/iu, type: 'preference', salience: 0.6, key: (m) => `preference:${slug(m[1] ?? '', 2)}` },
  { pattern: /\b(?:my|our)\s+((?:\p{L}+\s+){0,2}?\p{L}+)\s+(?:is|are|was|were)\s+\S/iu, type: 'fact', salience: 0.5, key: (m) => slug(m[1] ?? '') },
  { pattern: /\b(?:mon|ma|mes|notre|nos)\s+((?:\p{L}+\s+){0,2}?\p{L}+)\s+(?:est|sont|était|etait)\s+\S/iu, type: 'fact', salience: 0.5, key: (m) => slug(m[1] ?? '') },
];

/** What the user stated about themselves in this message, as memories to keep. */
export function memoriesFromMessage(message: string): MemorySaved[] {
  const out = new Map<string, MemorySaved>();
  for (const sentence of splitSentences(message)) {
    if (sentence.trim().endsWith('?')) continue;
    for (const rule of RULES) {
      const m = sentence.match(rule.pattern);
      if (!m) continue;
      const key = rule.key(m);
      out.set(key, { key, value: sentence.trim(), type: rule.type, provenance: 'user_message', salience: rule.salience });
      break;
    }
  }
  return [...out.values()];
}

export const EXTRACTION_PROVENANCE = 'extraction';

/** Extracted facts stored as memories, so later turns recall them. */
export function memoriesFromFacts(facts: ExtractedFact[]): MemorySaved[] {
  return facts.map((f) => ({ key: `${f.category}:${slug(f.value)}`, value: f.value, type: 'extracted', provenance: EXTRACTION_PROVENANCE, salience: 0.7 }));
}
