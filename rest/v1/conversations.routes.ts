import { Router, type Response } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import {
  ContinueConversationSchema,
  ConversationDtoSchema,
  ListConversationsQuerySchema,
  StartConversationSchema,
} from '../../src/modules/conversations/index.js';
import {
  continueConversationOp,
  continueConversationStreamOp,
  deleteConversationOp,
  getConversationOp,
  listConversationsOp,
  startConversationOp,
  startConversationStreamOp,
} from '../../src/modules/conversations/index.js';
import type { DebateStreamEvent } from '../../src/modules/conversations/index.js';
import type { PendingDebate } from '../../src/modules/conversations/index.js';
import { finishStreamedDebate } from '../../src/modules/conversations/index.js';
import type { DebateSink } from '../../src/modules/conversations/index.js';
import { mountOperation, param } from '../route.js';
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
  const base = { tag: 'conversations' } as const;
  mountOperation(r, app, listConversationsOp, {
    ...base,
    summary: 'List the conversations of the workspace with their messages, newest first',
    query: ListConversationsQuerySchema,
    responses: { 200: { description: 'Conversations', schema: z.object({ conversations: z.array(ConversationDtoSchema) }) }, 400: { description: 'limit outside 1 to 100' } },
    input: (req) => ({ query: req.query }),
    reply: (conversations) => ({ status: 200, body: { conversations } }),
  });
  mountOperation(r, app, startConversationOp, {
    ...base,
    meters: true,
    summary: "Start a debate (the devil's advocate is seated in every round) and answer once it is synthesized",
    body: StartConversationSchema,
    responses: {
      201: { description: 'The finished debate', schema: ONE },
      ...BEFORE_START,
      500: { description: 'Debate failed (model failure); what was said is kept' },
    },
    input: (req) => ({ body: req.body, route: label(ROUTES.list) }),
    reply: (conversation) => ({ status: 201, body: { conversation } }),
  });
  mountOperation(r, app, startConversationStreamOp, {
    ...base,
    meters: true,
    streams: true,
    summary: 'Start a debate and follow it live (Server-Sent Events)',
    body: StartConversationSchema,
    responses: { 200: STREAM_200, ...BEFORE_START },
    handler: (_ctx, req, res, run) => streamed(app, res, (sink) => run({ body: req.body, route: label(ROUTES.stream), sink })),
  });
  mountOperation(r, app, getConversationOp, {
    ...base,
    summary: 'Read a conversation with its messages',
    responses: { 200: { description: 'The conversation', schema: ONE }, 404: { description: 'conversation_not_found (unknown id or another workspace)' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (conversation) => ({ status: 200, body: { conversation } }),
  });
  mountOperation(r, app, continueConversationOp, {
    ...base,
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
    input: (req) => ({ id: param(req, 'id'), body: req.body, route: label(ROUTES.messages) }),
    reply: (conversation) => ({ status: 200, body: { conversation } }),
  });
  mountOperation(r, app, continueConversationStreamOp, {
    ...base,
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
    handler: (_ctx, req, res, run) => streamed(app, res, (sink) => run({ id: param(req, 'id'), body: req.body, route: label(ROUTES.messagesStream), sink })),
  });
  mountOperation(r, app, deleteConversationOp, {
    ...base,
    summary: 'Delete a conversation and its messages',
    responses: { 204: { description: 'Deleted' }, 404: { description: 'conversation_not_found (unknown id or another workspace)' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });
  return r;
}
