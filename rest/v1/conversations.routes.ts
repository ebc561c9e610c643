import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import type { ServiceContext } from '../../src/core/context.js';
import {
  ContinueConversationSchema,
  ConversationDtoSchema,
  ListConversationsQuerySchema,
  StartConversationSchema,
} from '../../src/modules/conversations/index.js';
import {
  continueConversation,
  deleteConversation,
  getConversation,
  listConversations,
  runConversation,
  startConversation,
} from '../../src/modules/conversations/index.js';
import type { DebateStreamEvent } from '../../src/modules/conversations/index.js';
import type { PendingDebate } from '../../src/modules/conversations/index.js';
import { finishStreamedDebate } from '../../src/modules/conversations/index.js';
import type { DebateSink } from '../../src/modules/conversations/index.js';
import { mount, param } from '../route.js';
import { openSse, type SseStream } from '../sse.js';

const ONE = z.object({ conversation: ConversationDtoSchema });

const BEFORE_START = {
  400: { description: 'A field is missing or wrong (`error` names it): topic, rounds outside 1 to 5, fewer than 2 regular participants, an unknown collection' },
  402: {
    description:
      'QUESTION_LIMIT (the workspace has no question left) or API_KEY_BUDGET_EXCEEDED, before the start (nothing consumed); on the plain routes also mid-debate, when the allowance or the key ceiling no longer covers the next turn: the same 402 with `conversationId`, the turns so far kept and metered (the streams send it as an `error` event)',
  },
  404: { description: 'An unknown agent in agentIds' },
};

const BUSY = {
  description:
    'conversation_busy: the conversation is still debating (its first debate or another follow-up is running); nothing was stored or consumed, retry once that round has ended',
};

const STREAM_200 = {
  description:
    'text/event-stream of `data: {"type","data"}` events: start, turn_start, token, citations, turn_end, synthesis, done; error after the stream opened',
};

/**
 * Pre-stream rules as the chat stream's: what the start throws is an ordinary JSON error; from then
 * on the status is 200 and failures arrive as `error` events. Events emitted before the stream opened
 * (the start) are sent first.
 */
async function streamed(app: Deps, res: Response, start: (sink: DebateSink) => Promise<PendingDebate>): Promise<void> {
  const early: DebateStreamEvent[] = [];
  let sse: SseStream | undefined;
  const pending = await start((event) => (sse ? sse.send(event) : early.push(event)));
  sse = openSse(res, { pingMs: app.config.streamPingMs });
  for (const event of early) sse.send(event);
  try {
    await finishStreamedDebate(pending);
  } finally {
    sse.end();
  }
}

const ROUTES = {
  list: '/v1/conversations',
  stream: '/v1/conversations/stream',
  one: '/v1/conversations/:id',
  messages: '/v1/conversations/:id/messages',
  messagesStream: '/v1/conversations/:id/messages/stream',
} as const;

const label = (path: string) => `POST ${path}`;

export function conversationsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'conversations', scope: 'agents' } as const;
  mount(r, app, {
    ...base,
    method: 'get',
    path: ROUTES.list,
    summary: 'List the conversations of the workspace with their messages, newest first',
    query: ListConversationsQuerySchema,
    responses: { 200: { description: 'Conversations', schema: z.object({ conversations: z.array(ConversationDtoSchema) }) }, 400: { description: 'limit outside 1 to 100' } },
    handler: async (ctx, req) => ({ status: 200, body: { conversations: await listConversations(ctx, req.query) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: ROUTES.list,
    meters: true,
    summary: "Start a debate (the devil's advocate is seated in every round) and answer once it is synthesized",
    body: StartConversationSchema,
    responses: {
      201: { description: 'The finished debate', schema: ONE },
      ...BEFORE_START,
      500: { description: 'Debate failed (model failure); what was said is kept' },
    },
    handler: async (ctx: ServiceContext, req: Request) => ({
      status: 201,
      body: { conversation: await runConversation(await startConversation(ctx, req.body, { route: label(ROUTES.list) })) },
    }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: ROUTES.stream,
    meters: true,
    streams: true,
    summary: 'Start a debate and follow it live (Server-Sent Events)',
    body: StartConversationSchema,
    responses: { 200: STREAM_200, ...BEFORE_START },
    handler: (ctx, req, res) => streamed(app, res, (sink) => startConversation(ctx, req.body, { route: label(ROUTES.stream), sink })),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: ROUTES.one,
    summary: 'Read a conversation with its messages',
    responses: { 200: { description: 'The conversation', schema: ONE }, 404: { description: 'conversation_not_found (unknown id or another workspace)' } },
    handler: async (ctx, req) => ({ status: 200, body: { conversation: await getConversation(ctx, param(req, 'id')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: ROUTES.messages,
    meters: true,
    summary: 'Continue a conversation with a follow-up question: one more round, then a new synthesis',
    body: ContinueConversationSchema,
    responses: {
      200: { description: 'The conversation with the new round and synthesis', schema: ONE },
      400: { description: 'message missing or empty' },
      402: BEFORE_START[402],
      404: { description: 'conversation_not_found (unknown id or another workspace)' },
      409: BUSY,
      500: { description: 'Debate failed (model failure); what was said is kept' },
    },
    handler: async (ctx, req) => ({
      status: 200,
      body: { conversation: await runConversation(await continueConversation(ctx, param(req, 'id'), req.body, { route: label(ROUTES.messages) })) },
    }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: ROUTES.messagesStream,
    meters: true,
    streams: true,
    summary: 'Continue a conversation and follow the new round live (Server-Sent Events)',
    body: ContinueConversationSchema,
    responses: {
      200: STREAM_200,
      400: { description: 'message missing or empty' },
      402: BEFORE_START[402],
      404: { description: 'conversation_not_found (unknown id or another workspace)' },
      409: BUSY,
    },
    handler: (ctx, req, res) =>
      streamed(app, res, (sink) => continueConversation(ctx, param(req, 'id'), req.body, { route: label(ROUTES.messagesStream), sink })),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: ROUTES.one,
    summary: 'Delete a conversation and its messages',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'conversation_not_found (unknown id or another workspace)' } },
    handler: async (ctx, req) => {
      await deleteConversation(ctx, param(req, 'id'));
      return { status: 204 };
    },
  });
  return r;
}
