import { builder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { AgentRef } from '../agents/agents.graphql.js';
import { toAgentDto } from '../agents/agents.service.js';
import type { TokenUsage } from '../models/provider.js';
import type { ChatSession, SessionMessage, StoredMood } from './chat.entity.js';
import type { ChatStreamEvent } from './chat-events.js';
import { finishStreamedTurn } from './chat-stream.js';
import {
  plainResult,
  type ChatTurnDone,
  type Consultation,
  type ExtractedFact,
  type KnowledgeUsed,
  type MemorySaved,
  type Mood,
  type ToolCallReport,
} from './chat.schemas.js';
import { runTurn, startTurn } from './chat.service.js';
import { EventQueue } from './event-queue.js';
import { agentsByIds, getSession, listSessions, messagesOfSessions } from './sessions.service.js';

// ---- turn result ----

const TokenUsageRef = builder.objectRef<TokenUsage>('ChatTokenUsage').implement({
  description: 'Model tokens of the whole turn (planner, consultations, reflection, tool rounds, extraction included).',
  fields: (t) => ({
    promptTokens: t.exposeInt('promptTokens'),
    completionTokens: t.exposeInt('completionTokens'),
    totalTokens: t.exposeInt('totalTokens'),
  }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/**
 * The fields of a knowledgeUsed item, shared by `ChatKnowledgeUsed` and the knowledge module's
 * `KnowledgeItem` (which adds the passage text): `fields: (t) => ({ ...knowledgeUsedFields(t), ... })`.
 */
export function knowledgeUsedFields<T extends KnowledgeUsed>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) {
  // Resolvers rather than `expose*`: Pothos cannot check an exposed name against a generic parent shape.
  return {
    ref: t.int({ resolve: (k) => k.ref }),
    sourceId: t.string({ resolve: (k) => k.sourceId }),
    sourceName: t.string({ resolve: (k) => k.sourceName }),
    section: t.string({ resolve: (k) => k.section }),
    page: t.int({ resolve: (k) => k.page }),
    chunkPreview: t.string({ resolve: (k) => k.chunkPreview }),
    similarity: t.float({ resolve: (k) => k.similarity }),
    chunkId: t.string({ resolve: (k) => k.chunkId }),
    collectionId: t.string({ nullable: true, resolve: (k) => k.collectionId }),
    dossierName: t.string({ nullable: true, resolve: (k) => k.dossierName }),
  };
}

const KnowledgeUsedRef = builder.objectRef<KnowledgeUsed>('ChatKnowledgeUsed').implement({
  fields: (t) => knowledgeUsedFields(t),
});

const ToolCallRef = builder.objectRef<ToolCallReport>('ChatToolCall').implement({
  fields: (t) => ({
    toolName: t.exposeString('toolName'),
    success: t.exposeBoolean('success'),
    durationMs: t.exposeInt('durationMs'),
  }),
});

const MemorySavedRef = builder.objectRef<MemorySaved>('ChatMemorySaved').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    value: t.exposeString('value'),
    type: t.exposeString('type'),
    provenance: t.exposeString('provenance'),
    salience: t.exposeFloat('salience'),
  }),
});

const ExtractedFactRef = builder.objectRef<ExtractedFact>('ChatExtractedFact').implement({
  fields: (t) => ({ category: t.exposeString('category'), value: t.exposeString('value') }),
});

const ConsultationRef = builder.objectRef<Consultation>('ChatConsultation').implement({
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    agentName: t.exposeString('agentName'),
    question: t.exposeString('question'),
    answer: t.exposeString('answer'),
    trigger: t.exposeString('trigger', { description: '`named` (the message named the colleague) or `tool` (the model asked)' }),
    durationMs: t.exposeInt('durationMs'),
  }),
});

const MoodFields = builder.objectRef<StoredMood>('ChatMoodState').implement({
  description: "An agent's emotional state.",
  fields: (t) => ({
    emotion: t.exposeString('emotion'),
    valence: t.exposeFloat('valence'),
    arousal: t.exposeFloat('arousal'),
    intensity: t.exposeFloat('intensity'),
  }),
});

const MoodRef = builder.objectRef<Mood>('ChatMood').implement({
  description: 'The answering agent’s mood after the turn.',
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    name: t.exposeString('name'),
    emotion: t.exposeString('emotion'),
    valence: t.exposeFloat('valence'),
    arousal: t.exposeFloat('arousal'),
    intensity: t.exposeFloat('intensity'),
  }),
});

type TurnResultShape = ChatTurnDone | ReturnType<typeof plainResult>;
const doneOnly = <K extends keyof ChatTurnDone>(r: TurnResultShape, key: K): ChatTurnDone[K] | null =>
  key in r ? ((r as ChatTurnDone)[key] ?? null) : null;

const TurnResultRef = builder.objectRef<TurnResultShape>('ChatTurnResult').implement({
  description: 'SPEC Chat turn result. proofId, consultations, mood, masked and contextUsed are set only in the `done` event of a stream.',
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    agentName: t.exposeString('agentName'),
    agentRole: t.exposeString('agentRole'),
    content: t.exposeString('content'),
    sessionId: t.exposeString('sessionId'),
    contentParsed: t.field({ type: 'JSON', nullable: true, resolve: (r) => r.contentParsed ?? null }),
    thoughts: t.string({ nullable: true, resolve: (r) => r.thoughts ?? null }),
    memoriesSaved: t.field({ type: [MemorySavedRef], resolve: (r) => r.memoriesSaved }),
    extracted: t.field({ type: [ExtractedFactRef], nullable: true, resolve: (r) => r.extracted ?? null }),
    tokenUsage: t.field({ type: TokenUsageRef, resolve: (r) => r.tokenUsage }),
    knowledgeUsed: t.field({ type: [KnowledgeUsedRef], resolve: (r) => r.knowledgeUsed }),
    toolCalls: t.field({ type: [ToolCallRef], resolve: (r) => r.toolCalls }),
    proofId: t.string({ nullable: true, resolve: (r) => doneOnly(r, 'proofId') }),
    consultations: t.field({ type: [ConsultationRef], nullable: true, resolve: (r) => doneOnly(r, 'consultations') }),
    mood: t.field({ type: MoodRef, nullable: true, resolve: (r) => doneOnly(r, 'mood') }),
    masked: t.boolean({ nullable: true, resolve: (r) => doneOnly(r, 'masked') }),
    contextUsed: t.field({ type: 'JSON', nullable: true, resolve: (r) => doneOnly(r, 'contextUsed') }),
  }),
});

// ---- input (nullable everywhere: the service's zod schema validates, so GraphQL and REST agree) ----

const ContextBlockInput = builder.inputType('ChatContextBlockInput', {
  fields: (t) => ({
    category: t.string({ required: false }),
    label: t.string({ required: false }),
    data: t.field({ type: 'JSON', required: false, description: 'An object or a string' }),
    priority: t.string({ required: false, description: 'high, medium (default) or low' }),
  }),
});

const ExtractionInput = builder.inputType('ChatExtractionInput', {
  fields: (t) => ({ categories: t.stringList({ required: false }), persist: t.boolean({ required: false }) }),
});

const OptionsInput = builder.inputType('ChatOptionsInput', {
  fields: (t) => ({
    reflection: t.boolean({ required: false }),
    temperature: t.float({ required: false }),
    maxTokens: t.float({ required: false }),
  }),
});

const ResponseFormatInput = builder.inputType('ChatResponseFormatInput', {
  fields: (t) => ({
    type: t.string({ required: false, description: 'json or text' }),
    fields: t.field({ type: 'JSON', required: false, description: 'Field name to description of its content' }),
    schema: t.string({ required: false }),
  }),
});

const KnowledgeInput = builder.inputType('ChatKnowledgeInput', {
  fields: (t) => ({ enabled: t.boolean({ required: false }), topK: t.float({ required: false }) }),
});

const ToolsInput = builder.inputType('ChatToolsInput', {
  fields: (t) => ({ enabled: t.boolean({ required: false }), toolIds: t.stringList({ required: false }) }),
});

const ConsultInput = builder.inputType('ChatConsultInput', {
  fields: (t) => ({ enabled: t.boolean({ required: false }) }),
});

const ChatInput = builder.inputType('ChatInput', {
  description: 'The request body of the REST chat routes.',
  fields: (t) => ({
    message: t.string({ required: false }),
    sessionId: t.string({ required: false }),
    context: t.field({ type: [ContextBlockInput], required: false }),
    extraction: t.field({ type: ExtractionInput, required: false }),
    options: t.field({ type: OptionsInput, required: false }),
    responseFormat: t.field({ type: ResponseFormatInput, required: false }),
    knowledge: t.field({ type: KnowledgeInput, required: false }),
    tools: t.field({ type: ToolsInput, required: false }),
    consult: t.field({ type: ConsultInput, required: false }),
  }),
});

/** GraphQL input objects may lack Object.prototype: copy them into plain JSON-like values. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

const CHAT_ROUTE = 'graphql chat';
const STREAM_ROUTE = 'graphql chatStream';

/** Twins of the REST chat routes: same scope, a write, and the same agent-chat ceiling bucket. */
const chatNeeds = (stream: boolean) =>
  operationNeeds({
    scope: 'agents',
    write: true,
    rateLimit: 'agentChat',
    twin: (args) => `POST /v1/agents${args.agentId === null || args.agentId === undefined ? '' : '/:id'}/chat${stream ? '/stream' : ''}`,
  });

builder.mutationFields((t) => ({
  chat: t.field({
    type: TurnResultRef,
    description: 'One chat turn (the plain REST routes). Without agentId the planning step picks the agent.',
    extensions: chatNeeds(false),
    args: { agentId: t.arg.id({ required: false }), input: t.arg({ type: ChatInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const agentId = args.agentId === null || args.agentId === undefined ? undefined : String(args.agentId);
      const outcome = await runTurn(await ctx.service(), plain(args.input), { agentId, route: CHAT_ROUTE });
      return plainResult(outcome.result);
    },
  }),
}));

// ---- stream events ----

type EventOf<K extends ChatStreamEvent['type']> = Extract<ChatStreamEvent, { type: K }>;

const StageEventRef = builder.objectRef<EventOf<'stage'>>('ChatStageEvent').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    name: t.string({ resolve: (e) => e.data.name }),
    phase: t.string({ resolve: (e) => e.data.phase }),
    ms: t.int({ nullable: true, resolve: (e) => ('ms' in e.data ? e.data.ms : null) }),
  }),
});

const KnowledgeEventRef = builder.objectRef<EventOf<'knowledge'>>('ChatKnowledgeEvent').implement({
  fields: (t) => ({ type: t.exposeString('type'), items: t.field({ type: [KnowledgeUsedRef], resolve: (e) => e.data }) }),
});

const ToolCallEventRef = builder.objectRef<EventOf<'tool_call'>>('ChatToolCallEvent').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    toolName: t.string({ resolve: (e) => e.data.toolName }),
    arguments: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.data.arguments ?? null }),
  }),
});

const ToolResultEventRef = builder.objectRef<EventOf<'tool_result'>>('ChatToolResultEvent').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    toolName: t.string({ resolve: (e) => e.data.toolName }),
    arguments: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.data.arguments ?? null }),
    result: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.data.result ?? null }),
    success: t.boolean({ resolve: (e) => e.data.success }),
    durationMs: t.int({ resolve: (e) => e.data.durationMs }),
  }),
});

const TokenEventRef = builder.objectRef<EventOf<'token'>>('ChatTokenEvent').implement({
  fields: (t) => ({ type: t.exposeString('type'), delta: t.string({ resolve: (e) => e.data.delta }) }),
});

const MoodEventRef = builder.objectRef<EventOf<'mood'>>('ChatMoodEvent').implement({
  fields: (t) => ({ type: t.exposeString('type'), mood: t.field({ type: MoodRef, resolve: (e) => e.data }) }),
});

const DoneEventRef = builder.objectRef<EventOf<'done'>>('ChatDoneEvent').implement({
  fields: (t) => ({ type: t.exposeString('type'), result: t.field({ type: TurnResultRef, resolve: (e) => e.data }) }),
});

const ErrorEventRef = builder.objectRef<EventOf<'error'>>('ChatErrorEvent').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    status: t.int({ resolve: (e) => e.data.status }),
    error: t.string({ resolve: (e) => e.data.error }),
    code: t.string({ nullable: true, resolve: (e) => e.data.code ?? null }),
    details: t.field({
      type: 'JSON',
      nullable: true,
      resolve: (e) => {
        const { status: _s, error: _e, code: _c, ...details } = e.data;
        return Object.keys(details).length > 0 ? details : null;
      },
    }),
  }),
});

const EVENT_TYPE_NAMES: Record<ChatStreamEvent['type'], string> = {
  stage: 'ChatStageEvent',
  knowledge: 'ChatKnowledgeEvent',
  tool_call: 'ChatToolCallEvent',
  tool_result: 'ChatToolResultEvent',
  token: 'ChatTokenEvent',
  mood: 'ChatMoodEvent',
  done: 'ChatDoneEvent',
  error: 'ChatErrorEvent',
};

const ChatStreamEventRef = builder.unionType('ChatStreamEvent', {
  description: 'The events of the REST chat streams (SPEC, Chat stream events).',
  types: [StageEventRef, KnowledgeEventRef, ToolCallEventRef, ToolResultEventRef, TokenEventRef, MoodEventRef, DoneEventRef, ErrorEventRef],
  resolveType: (event) => EVENT_TYPE_NAMES[event.type],
});

/** A refusal before the stream, carried to `resolve` so it becomes the subscription's GraphQL error. */
interface Refused {
  refused: unknown;
}
type StreamItem = ChatStreamEvent | Refused;

/**
 * Same pre-stream rules as REST: what `startTurn` throws is a GraphQL error of the subscription; later
 * failures are ChatErrorEvent items. The refusal travels as one stream item thrown by `resolve`
 * (graphql-sse does not forward a subscribe-time error result that has no `data`). The turn is aborted
 * when the subscriber leaves (its own signal: in single connection mode the request that registered
 * the operation ends long before the stream).
 */
async function subscribeChat(ctx: GraphQLContext, agentId: string | undefined, input: unknown): Promise<AsyncIterableIterator<StreamItem>> {
  const controller = new AbortController();
  const queue = new EventQueue<StreamItem>(() => controller.abort());
  try {
    const service = await ctx.service();
    // Its own signal, plus the shutdown's: a restart cancels the turn as it does a REST stream's.
    const signal = AbortSignal.any([controller.signal, service.app.shutdown.signal]);
    const pending = await startTurn({ ...service, signal }, input, {
      agentId,
      route: STREAM_ROUTE,
      sink: (event) => queue.push(event),
    });
    void finishStreamedTurn(pending).finally(() => queue.end());
  } catch (refused) {
    queue.push({ refused });
    queue.end();
  }
  return queue;
}

builder.subscriptionFields((t) => ({
  chatStream: t.field({
    type: ChatStreamEventRef,
    description: 'One streamed chat turn: the events of the REST /chat/stream routes. Without agentId the planning step picks the agent.',
    extensions: chatNeeds(true),
    args: { agentId: t.arg.id({ required: false }), input: t.arg({ type: ChatInput, required: true }) },
    subscribe: (_r, args, ctx) =>
      subscribeChat(ctx, args.agentId === null || args.agentId === undefined ? undefined : String(args.agentId), plain(args.input)),
    resolve: (item: StreamItem) => {
      if ('refused' in item) throw item.refused;
      return item;
    },
  }),
}));

// ---- sessions (console) ----

const MessageRef = builder.objectRef<SessionMessage>('ChatMessage').implement({
  description: 'One message of a chat session; only complete exchanges are stored.',
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
    mood: t.field({ type: MoodFields, nullable: true, resolve: (m) => m.mood ?? null }),
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
    resolve: async (_r, args, ctx) => listSessions(await ctx.service(), { limit: args.limit }),
  }),
  chatSession: t.field({
    type: SessionRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getSession(await ctx.service(), String(args.id)),
  }),
}));
