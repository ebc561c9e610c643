/**
 * Extraction: facts of the requested categories stated in the user's message, from a separate
 * JSON-mode pass. The local model fills each category with the message sentence that matches it.
 */
import { foldText } from '../models/index.js';
import type { ExtractedFact } from './chat.schemas.js';
import type { TurnModel } from './turn-model.js';

const EXTRACTION_MAX_TOKENS = 800;

/** `message` is what the model may read (masked when the turn leaves for an external model). */
export async function extractFacts(model: TurnModel, message: string, categories: string[]): Promise<ExtractedFact[]> {
  const list = categories.map((c) => `"${c}"`).join(', ');
  const result = await model.complete({
    messages: [
      {
        role: 'system',
        content: [
          `Extract the facts that the user's message states for these categories: ${list}.`,
          'Respond with one JSON object: {"facts": [{"category": "<one of the categories>", "value": "<the fact, in the words of the message>"}]}.',
          'Leave a category out when the message states nothing about it. Do not answer the message.',
        ].join('\n'),
      },
      { role: 'user', content: message },
    ],
    material: {
      contextBlocks: [{ heading: 'Message', text: message, high: false }],
      jsonFields: Object.fromEntries(categories.map((c) => [c, `what the message says about ${c}`])),
    },
    json: true,
    temperature: 0,
    maxTokens: EXTRACTION_MAX_TOKENS,
  });
  return factsOf(result.content, categories);
}

/**
 * Reads `{"facts": [{category, value}]}` or `{"<category>": "value" | ["value", ...]}`; keeps only the
 * requested categories (matched without case or accents), non-empty values, no duplicates.
 */
export function factsOf(content: string, categories: string[]): ExtractedFact[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return [];
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  const canonical = new Map(categories.map((c) => [foldText(c.trim()), c]));
  const out: ExtractedFact[] = [];
  const push = (category: unknown, value: unknown) => {
    const name = typeof category === 'string' ? canonical.get(foldText(category.trim())) : undefined;
    if (!name) return;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      const text = typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
      if (text && !out.some((f) => f.category === name && f.value === text)) out.push({ category: name, value: text });
    }
  };
  const record = parsed as Record<string, unknown>;
  if (Array.isArray(record.facts)) {
    for (const f of record.facts) {
      if (f && typeof f === 'object') push((f as Record<string, unknown>).category, (f as Record<string, unknown>).value);
    }
  } else {
    for (const [k, v] of Object.entries(record)) push(k, v);
  }
  return out;
}
