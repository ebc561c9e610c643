/**
 * Reflection: a separate reasoning pass before the answer, returned as `thoughts` and given to the
 * answering pass as preliminary reasoning. Skipped for small talk (greetings, thanks, goodbyes).
 */
import type { ChatMessage, TurnMaterial } from '../models/index.js';
import { smallTalkOf } from '../models/index.js';
import type { TurnModel } from './turn-model.js';

const REFLECTION_MAX_TOKENS = 600;

const REFLECTION_INSTRUCTION =
  'Before answering, think the question through: what is being asked, which of the facts above are relevant, ' +
  'what is missing or uncertain, and how you will answer. Write this reasoning only, not the final answer.';

export const isSmallTalk = (message: string): boolean => smallTalkOf(message) !== undefined;

/** Runs the reasoning pass on the turn's prompt; returns the thoughts as the model wrote them. */
export async function reflect(
  model: TurnModel,
  prompt: { messages: ChatMessage[]; material: TurnMaterial },
  opts: { temperature: number; maxTokens: number },
): Promise<string> {
  const [system, ...rest] = prompt.messages;
  const messages: ChatMessage[] = [{ role: 'system', content: `${system?.content ?? ''}\n\n${REFLECTION_INSTRUCTION}` }, ...rest];
  const result = await model.complete({
    messages,
    material: prompt.material,
    temperature: opts.temperature,
    maxTokens: Math.min(REFLECTION_MAX_TOKENS, opts.maxTokens),
  });
  return result.content.trim();
}
