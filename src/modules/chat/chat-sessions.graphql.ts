import { builder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { AgentRef } from '../agents/agents.graphql.js';
import { toAgentDto } from '../agents/index.js';
import type { ChatSession, SessionMessage } from './chat.entity.js';
import { KnowledgeUsedRef, MoodStateRef, TokenUsageRef } from './chat-types.graphql.js';
import { agentsByIds, messagesOfSessions } from './sessions.service.js';
import { operationField } from '../../graphql/root-fields.js';
import { deleteSessionOp, getSessionOp, listSessionsOp, renameSessionOp } from './session-operations.js';

const MessageStageRef = builder.objectRef<{ name: string; ms: number }>('ChatMessageStage').implement({
  description: 'A stage of the turn that made an answer, with its duration.',
  fields: (t) => ({ name: t.exposeString('name'), ms: t.exposeInt('ms') }),
});

const MessageRef = builder.objectRef<SessionMessage>('ChatMessage').implement({
  description: 'One message of a chat session: complete exchanges, and stopped ones (the answer as far as it had streamed, marked stopped).',
  fields: (t) => ({
    id: t.exposeID('id'),
    sessionId: t.exposeString('sessionId'),
    position: t.exposeInt('position'),
    role: t.exposeString('role'),
    content: t.exposeString('content'),
    agentId: t.exposeString('agentId', { nullable: true }),
    agentName: t.exposeString('agentName', { nullable: true }),
    model: t.exposeString('model', { nullable: true }),
    tokenUsage: t.field({
      type: TokenUsageRef,
      nullable: true,
      resolve: (m) =>
        m.role === 'assistant' ? { promptTokens: m.promptTokens, completionTokens: m.completionTokens, totalTokens: m.totalTokens } : null,
    }),
    mood: t.field({ type: MoodStateRef, nullable: true, resolve: (m) => m.mood ?? null }),
    knowledgeUsed: t.field({
      type: [KnowledgeUsedRef],
      nullable: true,
      description: "The passages the answer cited, as the done event's knowledgeUsed; null on user messages and on answers stored before this was kept.",
      resolve: (m) => m.citations ?? null,
    }),
    proofId: t.string({ nullable: true, description: "The answer's certificate (streamed turns are certified)", resolve: (m) => m.proofId ?? null }),
    stages: t.field({
      type: [MessageStageRef],
      nullable: true,
      description: 'The stages of the turn that made the answer, in order, with their durations.',
      resolve: (m) => m.stages ?? null,
    }),
    stopped: t.boolean({
      description: 'The answer stopped streaming when the client left (Stop): its content is what had streamed. False on user messages.',
      resolve: (m) => m.stopped,
    }),
    createdAt: t.string({ resolve: (m) => m.createdAt.toISOString() }),
  }),
});

const SessionRef = builder.objectRef<ChatSession>('ChatSession').implement({
  description: "A chat session of the calling user. It outlives the agents that answered in it.",
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    agentId: t.exposeString('agentId', { nullable: true, description: 'The agent that answered last' }),
    messageCount: t.exposeInt('messageCount'),
    createdAt: t.string({ resolve: (s) => s.createdAt.toISOString() }),
    updatedAt: t.string({ resolve: (s) => s.updatedAt.toISOString() }),
    agent: t.loadable({
      type: AgentRef,
      nullable: true,
      description: 'The agent that answered last; null once it is deleted.',
      load: async (ids: string[], ctx: GraphQLContext) =>
        (await agentsByIds(await ctx.service(), ids)).map((agent) => (agent ? toAgentDto(agent) : null)),
      resolve: (s) => s.agentId,
    }),
    messages: t.loadableList({
      type: MessageRef,
      description: 'Every message of the session, in conversation order.',
      load: async (ids: string[], ctx: GraphQLContext) => messagesOfSessions(await ctx.service(), ids),
      resolve: (s) => s.id,
    }),
  }),
});

builder.queryFields((t) => ({
  chatSessions: t.field({
    type: [SessionRef],
    description: 'Chat sessions of the calling user, most recently active first.',
    args: { limit: t.arg.int({ required: false, description: '1 to 100, default 50' }) },
    extensions: operationField(listSessionsOp),
    resolve: async (_r, args, ctx) => listSessionsOp.run(await ctx.service(), { limit: args.limit }),
  }),
  chatSession: t.field({
    type: SessionRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getSessionOp),
    resolve: async (_r, args, ctx) => getSessionOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  renameChatSession: t.field({
    type: SessionRef,
    description: 'Renames a chat session of the calling user (title trimmed to one line, 1 to 80 characters).',
    args: { id: t.arg.id({ required: true }), title: t.arg.string({ required: true }) },
    extensions: operationField(renameSessionOp),
    resolve: async (_r, args, ctx) => renameSessionOp.run(await ctx.service(), { id: String(args.id), body: { title: args.title } }),
  }),
  deleteChatSession: t.boolean({
    description: 'Deletes a chat session of the calling user with its messages (the memories its turns saved stay with the agent).',
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(deleteSessionOp),
    resolve: async (_r, args, ctx) => deleteSessionOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));
