import { requestSignal, type ServiceContext } from '../../core/context.js';
import { settleRequestRates } from '../usage/index.js';
import { builder } from '../../graphql/builder.js';
import { streamErrorEventRef } from '../../graphql/stream-events.js';
import type { GraphQLContext } from '../../graphql/context.js';
import type { ChatStreamEvent } from './chat-events.js';
import { finishStreamedTurn } from './chat-stream.js';
import { agentIdOf, ChatInput, KnowledgeUsedRef, MoodRef, TurnResultRef } from './chat-types.graphql.js';
import { autoChatStreamOp, chatStreamOp } from './operations.js';
import { operationField } from '../../graphql/root-fields.js';
import { EventQueue } from '../../lib/event-queue.js';
import { plainInput } from '../../graphql/plain-input.js';

const STREAM_ROUTE = 'graphql chatStream';

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

const ErrorEventRef = streamErrorEventRef<EventOf<'error'>>('ChatErrorEvent');

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
  let service: ServiceContext | undefined;
  try {
    service = await ctx.service();
    // Its own signal, linked to the shutdown's until the subscription's scope ends: a restart cancels
    // the turn as it does a REST stream's.
    const signal = requestSignal(service.app, service.scope, controller.signal);
    const turn = { body: input, route: STREAM_ROUTE, sink: (event: ChatStreamEvent) => queue.push(event) };
    const pending =
      agentId === undefined ? await autoChatStreamOp.run({ ...service, signal }, turn) : await chatStreamOp.run({ ...service, signal }, { ...turn, agentId });
    void finishStreamedTurn(pending).finally(() => queue.end());
  } catch (err) {
    // Rates counted with the admission (`Needs.ratesWithAdmission`) and not counted yet: a 429 comes first.
    const refused = service ? await settleRequestRates(service).then(() => err, (rateErr: unknown) => rateErr) : err;
    queue.push({ refused });
    queue.end();
  }
  return queue;
}

builder.subscriptionFields((t) => ({
  chatStream: t.field({
    type: ChatStreamEventRef,
    description: 'One streamed chat turn: the events of the REST /chat/stream routes. Without agentId the planning step picks the agent.',
    // The twin of POST /v1/agents/:id/chat/stream, or without an agent of POST /v1/agents/chat/stream.
    extensions: operationField([chatStreamOp, autoChatStreamOp], (args) =>
      agentIdOf(args.agentId as string | null | undefined) === undefined ? autoChatStreamOp : chatStreamOp,
    ),
    args: { agentId: t.arg.id({ required: false }), input: t.arg({ type: ChatInput, required: true }) },
    subscribe: (_r, args, ctx) => subscribeChat(ctx, agentIdOf(args.agentId), plainInput(args.input)),
    resolve: (item: StreamItem) => {
      if ('refused' in item) throw item.refused;
      return item;
    },
  }),
}));
