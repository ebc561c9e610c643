import type { ChatMessage } from './provider.js';

export const JSON_INSTRUCTION =
  'Respond with one JSON object only: no prose before or after it, no code fences.';

/**
 * Adds the JSON instruction to the system prompt unless a message already asks for JSON
 * (OpenAI's json_object mode refuses prompts that never mention JSON).
 */
export function withJsonInstruction(messages: ChatMessage[], force = false): ChatMessage[] {
  if (!force && messages.some((m) => /json/i.test(m.content))) return messages;
  const first = messages[0];
  if (first?.role === 'system') {
    return [{ ...first, content: `${first.content}\n\n${JSON_INSTRUCTION}` }, ...messages.slice(1)];
  }
  return [{ role: 'system', content: JSON_INSTRUCTION }, ...messages];
}

/**
 * The JSON object in a model answer: the whole text when it parses, else the outermost
 * `{...}` span (models wrap JSON in fences or prose). Returns the original text when no object parses.
 */
export function extractJsonObject(text: string): string {
  const trimmed = text.trim();
  if (isJsonObject(trimmed)) return trimmed;
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  if (start >= 0 && end > start) {
    const span = trimmed.slice(start, end + 1);
    if (isJsonObject(span)) return span;
  }
  return text;
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
