import { defineEntity, p } from '@mikro-orm/core';
import type { KnowledgeUsed } from '../chat/index.js';

/** A seat of a debate, as recorded when it started (the roster outlives a renamed or deleted agent). */
export interface StoredParticipant {
  agentId: string;
  name: string;
  role: string;
  isDevilsAdvocate: boolean;
}

/** A debate's synthesis as stored with the conversation (docs/debates.md, "The synthesis"). */
export interface StoredSynthesis {
  messageId: string;
  round: number;
  content: string;
  agreements: string[];
  disagreements: { point: string; heldBy: string[] }[];
  recommendation: string;
  confidence: number;
  verdict: 'consensus' | 'contested';
  proofId: string | null;
}

/** `open`: named by gateway calls, no debate yet; `running`; `synthesized`; `interrupted` (stopped before its synthesis). */
export type ConversationStatus = 'open' | 'running' | 'synthesized' | 'interrupted';

/**
 * One conversation record for the gateway's `x-svc-conversation` and for debates: a workspace-scoped
 * id (gateway calls naming it carry it in their certificate), and for a debate its topic, its roster,
 * its messages (ConversationMessage) and its latest synthesis.
 */
const ConversationSchema = defineEntity({
  name: 'Conversation',
  tableName: 'conversation',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    /** The user who started the debate (its events go to their endpoints); null for a bare gateway record. */
    userId: p.string().nullable().default(null),
    topic: p.text().default(''),
    /** Rounds held so far (a follow-up adds one). */
    rounds: p.integer().default(0),
    participants: p.json<StoredParticipant[]>().default([]),
    /** Knowledge collections every debater reads besides its own knowledge (kept for follow-ups). */
    collectionIds: p.json<string[]>().default([]),
    status: p.string().$type<ConversationStatus>().default('open'),
    synthesis: p.json<StoredSynthesis>().nullable().default(null),
    proofId: p.string().nullable().default(null),
    createdAt: p.datetime(),
    updatedAt: p.datetime().nullable().default(null),
  },
});
export class Conversation extends ConversationSchema.class {}
ConversationSchema.setClass(Conversation);

export type MessageKind = 'question' | 'turn' | 'synthesis';

/** One message of a conversation: the follow-up questions, every debater's turn, each synthesis. */
const ConversationMessageSchema = defineEntity({
  name: 'ConversationMessage',
  tableName: 'conversation_message',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    conversationId: p.string(),
    /** 1, 2, 3... within the conversation. */
    position: p.integer(),
    round: p.integer(),
    kind: p.string().$type<MessageKind>(),
    agentId: p.string().nullable(),
    agentName: p.text().nullable(),
    isDevilsAdvocate: p.boolean(),
    content: p.text(),
    knowledgeUsed: p.json<KnowledgeUsed[]>(),
    promptTokens: p.integer(),
    completionTokens: p.integer(),
    totalTokens: p.integer(),
    createdAt: p.datetime(),
  },
});
export class ConversationMessage extends ConversationMessageSchema.class {}
ConversationMessageSchema.setClass(ConversationMessage);
