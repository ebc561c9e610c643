import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import {
  continueConversation,
  deleteConversation,
  getConversation,
  listConversations,
  runConversation,
  startConversation,
} from './conversations.service.js';
import type { DebateSink } from './debate-events.js';

// The conversations family's use cases (issue 29 §1, docs/debates.md): rest/v1/conversations.routes.ts and
// conversations.graphql.ts refer to these; the request pipeline admits the caller with their needs.
// Debates belong to the agents family's scope; starting or continuing one is a write.
const READ = { scope: 'agents' } as const;
const WRITE = { scope: 'agents', write: true } as const;
const ById = z.object({ id: z.string() });

/**
 * What a debate is started or continued with: the body the service parses with its schema, and the
 * metering and proof label of the way in (`POST /v1/conversations`, `graphql startConversation`...).
 */
const DebateInput = z.object({ body: z.unknown(), route: z.string() });
/** A streamed debate also takes the sink its events go to (the SSE stream, the subscription's queue). */
const StreamedDebateInput = DebateInput.extend({ sink: z.custom<DebateSink>((v) => typeof v === 'function') });

export const listConversationsOp = defineOperation({
  name: 'conversations.list',
  route: 'GET /v1/conversations',
  needs: READ,
  input: z.object({ query: z.unknown() }),
  run: (ctx, { query }) => listConversations(ctx, query),
});

export const getConversationOp = defineOperation({
  name: 'conversations.get',
  route: 'GET /v1/conversations/:id',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => getConversation(ctx, id),
});

export const deleteConversationOp = defineOperation({
  name: 'conversations.delete',
  route: 'DELETE /v1/conversations/:id',
  needs: WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    await deleteConversation(ctx, id);
    return true as const;
  },
});

/** Starts a debate and answers once it is synthesized. */
export const startConversationOp = defineOperation({
  name: 'conversations.start',
  route: 'POST /v1/conversations',
  needs: WRITE,
  input: DebateInput,
  run: async (ctx, { body, route }) => runConversation(await startConversation(ctx, body, { route })),
});

/** Starts a debate followed live: answers the pending debate once admitted (what it throws precedes any stream). */
export const startConversationStreamOp = defineOperation({
  name: 'conversations.startStream',
  route: 'POST /v1/conversations/stream',
  needs: WRITE,
  input: StreamedDebateInput,
  run: (ctx, { body, route, sink }) => startConversation(ctx, body, { route, sink }),
});

/** A follow-up question: one more round, then a new synthesis. */
export const continueConversationOp = defineOperation({
  name: 'conversations.continue',
  route: 'POST /v1/conversations/:id/messages',
  needs: WRITE,
  input: DebateInput.extend({ id: z.string() }),
  run: async (ctx, { id, body, route }) => runConversation(await continueConversation(ctx, id, body, { route })),
});

export const continueConversationStreamOp = defineOperation({
  name: 'conversations.continueStream',
  route: 'POST /v1/conversations/:id/messages/stream',
  needs: WRITE,
  input: StreamedDebateInput.extend({ id: z.string() }),
  run: (ctx, { id, body, route, sink }) => continueConversation(ctx, id, body, { route, sink }),
});
