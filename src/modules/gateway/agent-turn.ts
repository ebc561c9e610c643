import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { CHAT_LIMITS, ChatRequestSchema, type ChatRequestInput } from '../chat/index.js';
import { runTurn } from '../chat/index.js';
import type { ChatMessage } from '../models/index.js';
import { jsonFromAnswer } from '../models/index.js';
import type { AgentTurnInput, GatewayAnswer, GatewayCall, PreparedCall, Target } from './gateway-call.js';

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * Maps a gateway message list onto one agent turn:
 * - the last user message that has text is the turn's `message`;
 * - the user and assistant messages before it are the history of this call (the last 20, as a
 *   session would show), replacing any stored session: gateway calls are stateless;
 * - the caller's system messages become one high-priority context block `Caller instructions`
 *   (the agent's persona stays in charge);
 * - tool messages, tool calls and anything after that last user message are left out: an agent runs
 *   the workspace's tools, never the caller's;
 * - `temperature` passes through; `max_tokens` is held within the chat range (100 to 4000);
 * - a structured-output format is applied to the turn's text answer (`jsonFromAnswer`).
 * Validated here, before any stream opens: a bad turn is a 400 `invalid_request_error`.
 */
export function agentTurnInput(call: GatewayCall): AgentTurnInput {
  const lastUser = call.messages.findLastIndex((m) => m.role === 'user' && m.content.trim() !== '');
  if (lastUser < 0) throw errors.validation('messages', 'An agent address needs a user message with text');
  const instructions = call.messages.filter((m) => m.role === 'system' && m.content.trim() !== '').map((m) => m.content);
  const history = call.messages
    .slice(0, lastUser)
    .filter((m): m is ChatMessage & { role: 'user' | 'assistant' } => (m.role === 'user' || m.role === 'assistant') && m.content.trim() !== '')
    .map((m) => ({ role: m.role, content: m.content }))
    .slice(-CHAT_LIMITS.historyMessages);
  const { temperature, maxTokens } = CHAT_LIMITS;
  const chat: ChatRequestInput = {
    message: call.messages[lastUser].content,
    ...(instructions.length
      ? { context: [{ category: 'instructions', label: 'Caller instructions', data: instructions.join('\n\n'), priority: 'high' as const }] }
      : {}),
    options: {
      ...(call.temperature !== undefined ? { temperature: clamp(call.temperature, temperature.min, temperature.max) } : {}),
      ...(call.maxTokens !== undefined ? { maxTokens: clamp(call.maxTokens, maxTokens.min, maxTokens.max) } : {}),
    },
  };
  const parsed = ChatRequestSchema.safeParse(chat);
  if (!parsed.success) throw errors.validation('messages', parsed.error.issues[0]?.message ?? 'Invalid message');
  return { chat, history };
}

/**
 * The agent answers through the chat pipeline (persona, memories, knowledge, workspace tools,
 * consultations), on the local model for a sensitive address. The turn meters itself on the gateway
 * route; the gateway writes the certificate. Nothing is saved to a chat session.
 */
export async function answerAsAgent(
  ctx: ServiceContext,
  prepared: PreparedCall,
  target: Extract<Target, { kind: 'agent' }>,
  onDelta?: (text: string) => void,
): Promise<Omit<GatewayAnswer, 'proofId'>> {
  const input = prepared.agentInput ?? agentTurnInput(prepared.call);
  const outcome = await runTurn(ctx, input.chat, {
    agentId: target.agent.id,
    route: prepared.call.route,
    sink: onDelta ? (event) => (event.type === 'token' ? onDelta(event.data.delta) : undefined) : undefined,
    provider: target.sensitive ? ctx.app.models.local() : undefined,
    conversation: input.history,
  });
  // A turn answers in text: a requested format is filled in from it (structured-output.ts).
  const format = prepared.call.generation?.responseFormat;
  return {
    content: format ? jsonFromAnswer(outcome.result.content, format, prepared.call.formatField) : outcome.result.content,
    toolCalls: [],
    usage: outcome.usage,
    finishReason: 'stop',
    model: outcome.model,
    modelClass: outcome.modelClass,
  };
}
