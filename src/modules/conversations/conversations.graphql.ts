/**
 * GraphQL twins of the REST conversation routes (docs/debates.md): the same service functions, the
 * same events over graphql-sse as the REST stream.
 */
import { requestSignal } from '../../core/context.js';
import { builder } from '../../graphql/builder.js';
import { streamErrorEventRef } from '../../graphql/stream-events.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationField } from '../../graphql/root-fields.js';
import { ContextBlockInput, KnowledgeUsedRef, TokenUsageRef } from '../chat/chat-types.graphql.js';
import { EventQueue } from '../../lib/event-queue.js';
import {
  ContinueConversationSchema,
  ConversationDtoSchema,
  ConversationMessageSchema,
  DisagreementSchema,
  ParticipantSchema,
  StartConversationSchema,
  SynthesisSchema,
} from './conversations.schemas.js';
import type { DebateOptions } from './conversations.service.js';
import {
  continueConversationOp,
  continueConversationStreamOp,
  deleteConversationOp,
  getConversationOp,
  listConversationsOp,
  startConversationOp,
  startConversationStreamOp,
} from './operations.js';
import type { DebateStreamEvent } from './debate-events.js';
import type { PendingDebate } from './debate-engine.js';
import { finishStreamedDebate } from './debate-stream.js';

const ParticipantRef = objectFromZod('ConversationParticipant', ParticipantSchema, { description: "A seat of a debate; the devil's advocate is marked." });
const MessageRef = objectFromZod('ConversationMessage', ConversationMessageSchema, {
  description: 'A follow-up question, a turn of a debater, or a synthesis.',
  types: { knowledgeUsed: KnowledgeUsedRef, tokenUsage: TokenUsageRef },
});
const DisagreementRef = objectFromZod('ConversationDisagreement', DisagreementSchema);
const SynthesisRef = objectFromZod('ConversationSynthesis', SynthesisSchema, {
  description: 'The synthesis of a debate: agreements, open disagreements with who holds them, a recommendation and its confidence.',
  types: { disagreements: DisagreementRef },
});
const ConversationRef = objectFromZod('Conversation', ConversationDtoSchema, {
  description: 'A conversation: a multi-agent debate, or a record named by gateway calls (x-svc-conversation).',
  types: { participants: ParticipantRef, messages: MessageRef, synthesis: SynthesisRef },
});

const StartConversationInput = inputFromZod('StartConversationInput', StartConversationSchema, {
  description: 'The body of POST /v1/conversations.',
  types: { context: ContextBlockInput },
});
const ContinueConversationInput = inputFromZod('ContinueConversationInput', ContinueConversationSchema, {
  description: 'The body of POST /v1/conversations/:id/messages.',
  types: { context: ContextBlockInput },
});

builder.queryFields((t) => ({
  conversations: t.field({
    type: [ConversationRef],
    description: 'Conversations of the workspace with their messages, newest first.',
    extensions: operationField(listConversationsOp),
    args: { limit: t.arg.int({ required: false, description: '1 to 100, default 20' }) },
    resolve: async (_r, args, ctx) => listConversationsOp.run(await ctx.service(), { query: { limit: args.limit ?? undefined } }),
  }),
  conversation: t.field({
    type: ConversationRef,
    extensions: operationField(getConversationOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getConversationOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  startConversation: t.field({
    type: ConversationRef,
    description: "Starts a debate (the devil's advocate is seated in every round) and answers once it is synthesized.",
    extensions: operationField(startConversationOp),
    args: { input: t.arg({ type: StartConversationInput, required: true }) },
    resolve: async (_r, args, ctx) => startConversationOp.run(await ctx.service(), { body: plainInput(args.input), route: 'graphql startConversation' }),
  }),
  continueConversation: t.field({
    type: ConversationRef,
    description: 'A follow-up question: one more round, then a new synthesis (409 conversation_busy while the conversation is still debating).',
    extensions: operationField(continueConversationOp),
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ContinueConversationInput, required: true }) },
    resolve: async (_r, args, ctx) =>
      continueConversationOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input), route: 'graphql continueConversation' }),
  }),
  deleteConversation: t.boolean({
    extensions: operationField(deleteConversationOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => deleteConversationOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));

// ---- the stream ----

type EventOf<K extends DebateStreamEvent['type']> = Extract<DebateStreamEvent, { type: K }>;

const StartEventRef = builder.objectRef<EventOf<'start'>>('DebateStartEvent').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    conversationId: t.string({ resolve: (e) => e.data.conversationId }),
    topic: t.string({ resolve: (e) => e.data.topic }),
    firstRound: t.int({ resolve: (e) => e.data.firstRound }),
    lastRound: t.int({ resolve: (e) => e.data.lastRound }),
    participants: t.field({ type: [ParticipantRef], resolve: (e) => e.data.participants }),
  }),
});

const TurnStartEventRef = builder.objectRef<EventOf<'turn_start'>>('DebateTurnStartEvent').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    messageId: t.string({ resolve: (e) => e.data.messageId }),
    round: t.int({ resolve: (e) => e.data.round }),
    agentId: t.string({ resolve: (e) => e.data.agentId }),
    agentName: t.string({ resolve: (e) => e.data.agentName }),
    isDevilsAdvocate: t.boolean({ resolve: (e) => e.data.isDevilsAdvocate }),
  }),
});

const TokenEventRef = builder.objectRef<EventOf<'token'>>('DebateTokenEvent').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    messageId: t.string({ resolve: (e) => e.data.messageId }),
    agentId: t.string({ resolve: (e) => e.data.agentId }),
    delta: t.string({ resolve: (e) => e.data.delta }),
  }),
});

const CitationsEventRef = builder.objectRef<EventOf<'citations'>>('DebateCitationsEvent').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    messageId: t.string({ resolve: (e) => e.data.messageId }),
    agentId: t.string({ resolve: (e) => e.data.agentId }),
    items: t.field({ type: [KnowledgeUsedRef], resolve: (e) => e.data.items }),
  }),
});

const TurnEndEventRef = builder.objectRef<EventOf<'turn_end'>>('DebateTurnEndEvent').implement({
  fields: (t) => ({ type: t.exposeString('type'), message: t.field({ type: MessageRef, resolve: (e) => e.data }) }),
});

const SynthesisEventRef = builder.objectRef<EventOf<'synthesis'>>('DebateSynthesisEvent').implement({
  fields: (t) => ({ type: t.exposeString('type'), synthesis: t.field({ type: SynthesisRef, resolve: (e) => e.data }) }),
});

const DoneEventRef = builder.objectRef<EventOf<'done'>>('DebateDoneEvent').implement({
  fields: (t) => ({ type: t.exposeString('type'), conversation: t.field({ type: ConversationRef, resolve: (e) => e.data }) }),
});

const ErrorEventRef = streamErrorEventRef<EventOf<'error'>>('DebateErrorEvent');

const EVENT_TYPE_NAMES: Record<DebateStreamEvent['type'], string> = {
  start: 'DebateStartEvent',
  turn_start: 'DebateTurnStartEvent',
  token: 'DebateTokenEvent',
  citations: 'DebateCitationsEvent',
  turn_end: 'DebateTurnEndEvent',
  synthesis: 'DebateSynthesisEvent',
  done: 'DebateDoneEvent',
  error: 'DebateErrorEvent',
};

const DebateStreamEventRef = builder.unionType('DebateStreamEvent', {
  description: 'The events of POST /v1/conversations/stream.',
  types: [StartEventRef, TurnStartEventRef, TokenEventRef, CitationsEventRef, TurnEndEventRef, SynthesisEventRef, DoneEventRef, ErrorEventRef],
  resolveType: (event) => EVENT_TYPE_NAMES[event.type],
});

/** A refusal before the stream, carried to `resolve` so it becomes the subscription's GraphQL error. */
interface Refused {
  refused: unknown;
}
type StreamItem = DebateStreamEvent | Refused;

/**
 * As the chat stream's subscription: what the start throws is the subscription's GraphQL error; later
 * failures are DebateErrorEvent items; a subscriber that leaves aborts the debate (its own signal).
 */
async function subscribeDebate(
  ctx: GraphQLContext,
  start: (service: Awaited<ReturnType<GraphQLContext['service']>>, opts: Required<Pick<DebateOptions, 'route' | 'sink'>>) => Promise<PendingDebate>,
  route: string,
): Promise<AsyncIterableIterator<StreamItem>> {
  const controller = new AbortController();
  const queue = new EventQueue<StreamItem>(() => controller.abort());
  try {
    const service = await ctx.service();
    const signal = requestSignal(service.app, service.scope, controller.signal);
    const pending = await start({ ...service, signal }, { route, sink: (event) => queue.push(event) });
    void finishStreamedDebate(pending).finally(() => queue.end());
  } catch (refused) {
    queue.push({ refused });
    queue.end();
  }
  return queue;
}

const resolveItem = (item: StreamItem) => {
  if ('refused' in item) throw item.refused;
  return item;
};

builder.subscriptionFields((t) => ({
  conversationStream: t.field({
    type: DebateStreamEventRef,
    description: 'Starts a debate and follows it live: the events of POST /v1/conversations/stream.',
    extensions: operationField(startConversationStreamOp),
    args: { input: t.arg({ type: StartConversationInput, required: true }) },
    subscribe: (_r, args, ctx) =>
      subscribeDebate(ctx, (service, opts) => startConversationStreamOp.run(service, { body: plainInput(args.input), ...opts }), 'graphql conversationStream'),
    resolve: resolveItem,
  }),
  continueConversationStream: t.field({
    type: DebateStreamEventRef,
    description: 'Continues a conversation and follows the new round live: the events of POST /v1/conversations/:id/messages/stream.',
    extensions: operationField(continueConversationStreamOp),
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ContinueConversationInput, required: true }) },
    subscribe: (_r, args, ctx) =>
      subscribeDebate(
        ctx,
        (service, opts) => continueConversationStreamOp.run(service, { id: String(args.id), body: plainInput(args.input), ...opts }),
        'graphql continueConversationStream',
      ),
    resolve: resolveItem,
  }),
}));
