import type { ServiceContext } from '../../core/context.js';
import { Conversation, ConversationMessage } from './conversation.entity.js';
import type { ConversationDto, ConversationMessageDto } from './conversations.schemas.js';

export function toMessageDto(m: ConversationMessage): ConversationMessageDto {
  return {
    id: m.id,
    kind: m.kind,
    round: m.round,
    agentId: m.agentId ?? null,
    agentName: m.agentName ?? null,
    isDevilsAdvocate: m.isDevilsAdvocate,
    content: m.content,
    knowledgeUsed: m.knowledgeUsed ?? [],
    tokenUsage: { promptTokens: m.promptTokens, completionTokens: m.completionTokens, totalTokens: m.totalTokens },
    createdAt: m.createdAt.toISOString(),
  };
}

export function conversationDto(c: Conversation, messages: ConversationMessage[]): ConversationDto {
  return {
    id: c.id,
    topic: c.topic,
    status: c.status,
    rounds: c.rounds,
    participants: c.participants.map((p) => ({ agentId: p.agentId, name: p.name, role: p.role, isDevilsAdvocate: p.isDevilsAdvocate })),
    messages: messages.map(toMessageDto),
    synthesis: c.synthesis ?? null,
    proofId: c.proofId ?? null,
    userId: c.userId ?? null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt ? c.updatedAt.toISOString() : null,
  };
}

/** Messages of the conversations, in order, grouped by conversation id. */
export async function messagesOf(ctx: Pick<ServiceContext, 'em'>, ids: string[]): Promise<Map<string, ConversationMessage[]>> {
  const rows = ids.length === 0 ? [] : await ctx.em.find(ConversationMessage, { conversationId: { $in: ids } }, { orderBy: { conversationId: 'asc', position: 'asc' } });
  const out = new Map<string, ConversationMessage[]>(ids.map((id) => [id, []]));
  for (const m of rows) out.get(m.conversationId)?.push(m);
  return out;
}

export async function toConversationDto(ctx: Pick<ServiceContext, 'em'>, c: Conversation): Promise<ConversationDto> {
  return conversationDto(c, (await messagesOf(ctx, [c.id])).get(c.id) ?? []);
}
