/**
 * Answers grounded in numbered passages, shared by light questions, web answers and poste runs: the
 * prompt that asks for `[n]` citations and for a fixed reply when the passages do not answer, and the
 * reading of the answer (which passages it cites, whether it declined).
 */
import type { ChatMessage, TurnMaterial } from '../models/index.js';

/** What the model replies when the passages do not answer (docs/light.md). */
export const DECLINE = 'NOT_IN_DOCUMENTS';

export interface NumberedPassage {
  ref: number;
  text: string;
  sourceName: string;
  section?: string;
  /** The head of the passage's document (its number, parties, period), read by the built-in model with each sentence. */
  document?: string;
}

const RULES = [
  'Answer only from the numbered passages below.',
  'After each statement, cite the passage or passages that support it with their numbers in brackets, for example [1] or [2][3].',
  'Use no other knowledge and never guess.',
  `If the passages do not answer, reply exactly ${DECLINE} and nothing else.`,
].join(' ');

export function passagesBlock(passages: NumberedPassage[]): string {
  return passages.map((p) => `[${p.ref}] ${p.sourceName}${p.section ? ` — ${p.section}` : ''}\n${p.text}`).join('\n\n');
}

/** The messages of a grounded answer: instructions and passages, the earlier turns, the question. */
export function groundedMessages(opts: {
  instructions: string;
  passages: NumberedPassage[];
  question: string;
  history?: { role: 'user' | 'assistant'; content: string }[];
}): { messages: ChatMessage[]; material: TurnMaterial } {
  const system = [opts.instructions, RULES, `Passages:\n\n${passagesBlock(opts.passages)}`].filter(Boolean).join('\n\n');
  return {
    messages: [{ role: 'system', content: system }, ...(opts.history ?? []).map((h) => ({ role: h.role, content: h.content })), { role: 'user', content: opts.question }],
    material: { passages: opts.passages.map((p) => ({ ref: p.ref, text: p.text, sourceName: p.sourceName, ...(p.section ? { section: p.section } : {}), ...(p.document ? { document: p.document } : {}) })) },
  };
}

/** The passage numbers an answer cites (`[n]`, `[n, m]`, `[n][m]`), in order of first citation, within 1..max. */
export function citedRefs(answer: string, max: number): number[] {
  const out: number[] = [];
  for (const m of answer.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const n of m[1]!.split(',').map((s) => Number(s.trim()))) {
      if (n >= 1 && n <= max && !out.includes(n)) out.push(n);
    }
  }
  return out;
}

/**
 * A model that declines in its own words instead of the decline word: the answer opens (first sentence)
 * by saying the passages or documents do not answer, in English or French.
 */
const DECLINING = [
  /\b(?:the |these )?(?:passages?|documents?|sources?|context|information provided)\b[^.]{0,60}\b(?:do(?:es)? not|don't|doesn't|did not|never)\s+(?:contain|mention|say|specify|state|include|provide|cover|answer|give|indicate|address)/i,
  /\b(?:no|not enough|insufficient) (?:information|mention|details?|data)\b[^.]{0,40}\b(?:passages?|documents?|provided|available|given)/i,
  /\b(?:i (?:cannot|can't|could not|couldn't|am unable to|was unable to) (?:find|answer|determine|tell))/i,
  /\b(?:les |ces )?(?:passages?|documents?|sources?|extraits?)\b[^.]{0,60}\bne (?:contiennent|mentionnent|precisent|précisent|indiquent|disent|permettent|couvrent|donnent)\b/i,
  /\b(?:aucune information|pas d'information|je ne (?:peux|trouve|sais) pas)\b/i,
  /\bi (?:do not|don't) (?:know|have (?:that|this|enough|any) information)\b/i,
  /\b(?:is|are) not (?:mentioned|specified|stated|given|covered|addressed|found) (?:in|by) (?:the |these )?(?:passages?|documents?|sources?|context)\b/i,
  /\bn['’](?:est|sont) pas (?:mentionn|précis|precis|indiqu|couvert|abord)\p{L}* (?:dans|par) (?:les |ces )?(?:passages?|documents?|extraits?|sources?)\b/iu,
];

/** Whether the model declined: its answer is (or starts with) the decline word, or its first sentence says it in words. */
export const declined = (answer: string): boolean => {
  const text = answer.trim().replace(/^["'`*]+/, '');
  if (text.toUpperCase().startsWith(DECLINE)) return true;
  const first = text.split(/(?<=[.!?])\s/)[0] ?? '';
  return DECLINING.some((re) => re.test(first));
};
