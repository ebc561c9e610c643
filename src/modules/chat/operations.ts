import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import type { ChatStreamEvent } from './chat-events.js';
import { plainResult } from './chat.schemas.js';
import { runTurn, startTurn } from './chat.service.js';

// The chat turn's use cases (issue 29 §1, docs/chat.md): the four REST routes (rest/v1/chat.routes.ts),
// the `chat` mutation and the `chatStream` subscription refer to these. A turn is a write of the agents
// family and counts against the agent-chat ceiling, in the bucket of its REST route whichever API is used.
const TURN = { scope: 'agents', write: true, rateLimit: 'agentChat' } as const;
/**
 * A turn for a fixed agent, plain or streamed, and a plain auto-pick turn count their rates in their admission's
 * statement (`svc_rate_admit`), sent beside the turn's read: one round trip less before the model (and the key's
 * lookup too, for a caller made from memory). A streamed turn is read and admitted before its stream opens, so
 * its 429 still precedes the stream. A streamed auto-pick turn counts them first: it is admitted before its
 * planner runs, and a refusal of its admission is reported in the stream.
 */
const TURN_WITH_RATES = { ...TURN, ratesWithAdmission: true } as const;

/**
 * A turn's input: the request body the service parses with its schema, and the metering and proof label
 * of the way in (`POST /v1/agents/:id/chat`, `graphql chat`...). Without an agent the planning step picks one.
 */
const Turn = z.object({ body: z.unknown(), route: z.string() });
const AgentTurn = Turn.extend({ agentId: z.string() });
/** A streamed turn also takes the sink its events go to (the SSE stream, the subscription's queue). */
const Sink = z.custom<(event: ChatStreamEvent) => void>((v) => typeof v === 'function');

export const chatOp = defineOperation({
  name: 'chat.turn',
  route: 'POST /v1/agents/:id/chat',
  needs: TURN_WITH_RATES,
  input: AgentTurn,
  run: async (ctx, { agentId, body, route }) => plainResult((await runTurn(ctx, body, { agentId, route })).result),
});

export const autoChatOp = defineOperation({
  name: 'chat.autoTurn',
  route: 'POST /v1/agents/chat',
  needs: TURN_WITH_RATES,
  input: Turn,
  run: async (ctx, { body, route }) => plainResult((await runTurn(ctx, body, { agentId: undefined, route })).result),
});

/**
 * A streamed turn, answered as the pending turn once validated and admitted (for auto-pick, planned):
 * what this throws precedes any stream; `finishStreamedTurn` then sends the rest as events.
 */
export const chatStreamOp = defineOperation({
  name: 'chat.stream',
  route: 'POST /v1/agents/:id/chat/stream',
  needs: TURN_WITH_RATES,
  input: AgentTurn.extend({ sink: Sink }),
  run: (ctx, { agentId, body, route, sink }) => startTurn(ctx, body, { agentId, route, sink }),
});

export const autoChatStreamOp = defineOperation({
  name: 'chat.autoStream',
  route: 'POST /v1/agents/chat/stream',
  needs: TURN,
  input: Turn.extend({ sink: Sink }),
  run: (ctx, { body, route, sink }) => startTurn(ctx, body, { agentId: undefined, route, sink }),
});
