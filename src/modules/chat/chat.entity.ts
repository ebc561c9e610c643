import { defineEntity, p } from '@mikro-orm/core';
import type { KnowledgeUsed } from './chat.schemas.js';

/** A conversation of one user with the workspace's agents; outlives any agent that answered in it. */
const ChatSessionSchema = defineEntity({
  name: 'ChatSession',
  tableName: 'chat_session',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    userId: p.string(),
    /** The agent that answered last (auto-pick may change it from one message to the next). */
    agentId: p.string().nullable(),
    title: p.text(),
    messageCount: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class ChatSession extends ChatSessionSchema.class {}
ChatSessionSchema.setClass(ChatSession);

export interface StoredMood {
  emotion: string;
  valence: number;
  arousal: number;
  intensity: number;
}

/** A passage an answer cited, as the `done` event's `knowledgeUsed` carried it. */
export type StoredCitation = KnowledgeUsed;

/** A stage of the turn that made an answer, with its duration. */
export interface StoredStage {
  name: string;
  ms: number;
}

/** One message of a session: complete exchanges, and stopped ones (the question and what streamed before the client left). */
const SessionMessageSchema = defineEntity({
  name: 'ChatMessage',
  tableName: 'chat_message',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    sessionId: p.string(),
    /** 1, 2, 3... within the session: the order of the conversation. */
    position: p.integer(),
    role: p.string().$type<'user' | 'assistant'>(),
    content: p.text(),
    agentId: p.string().nullable(),
    agentName: p.text().nullable(),
    model: p.text().nullable(),
    promptTokens: p.integer(),
    completionTokens: p.integer(),
    totalTokens: p.integer(),
    mood: p.json<StoredMood>().nullable(),
    /** What made an answer (null on user messages and on answers stored before they were kept). */
    citations: p.json<StoredCitation[]>().nullable(),
    proofId: p.string().nullable(),
    stages: p.json<StoredStage[]>().nullable(),
    /** The answer stopped streaming when the client left (its content is what had streamed). */
    stopped: p.boolean(),
    createdAt: p.datetime(),
  },
});
export class SessionMessage extends SessionMessageSchema.class {}
SessionMessageSchema.setClass(SessionMessage);
