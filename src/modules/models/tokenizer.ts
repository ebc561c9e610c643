import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import type { ChatMessage } from './provider.js';

/**
 * o200k_base token counts. The ranks table is 2 MB of source, so it is required on first use
 * rather than imported: processes that never count tokens never pay for it.
 */
let encoder: Tiktoken | undefined;

function getEncoder(): Tiktoken {
  if (!encoder) {
    const ranks = createRequire(import.meta.url)('js-tiktoken/ranks/o200k_base') as TiktokenBPE;
    encoder = new Tiktoken(ranks);
  }
  return encoder;
}

export function countTextTokens(text: string): number {
  return text ? getEncoder().encode(text).length : 0;
}

/** Tokens of every message's content and tool calls (name and arguments), without framing overhead. */
export function countMessageTokens(messages: ChatMessage[]): number {
  let total = 0;
  for (const m of messages) {
    total += countTextTokens(m.content);
    for (const call of m.toolCalls ?? []) total += countTextTokens(call.name) + countTextTokens(call.arguments);
  }
  return total;
}

/** The longest prefix of `text` holding at most `maxTokens` tokens. */
export function truncateToTokens(text: string, maxTokens: number): string {
  const enc = getEncoder();
  const tokens = enc.encode(text);
  if (tokens.length <= maxTokens) return text;
  return enc.decode(tokens.slice(0, Math.max(0, maxTokens))).replace(/\uFFFD+$/, '');
}
