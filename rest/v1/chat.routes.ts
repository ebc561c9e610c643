import { Router, type Response } from 'express';
import type { Deps } from '../../src/core/deps.js';
import type { ChatStreamEvent, PendingTurn } from '../../src/modules/chat/index.js';
import { ChatRequestSchema, ChatTurnResultSchema } from '../../src/modules/chat/index.js';
import { autoChatOp, autoChatStreamOp, chatOp, chatStreamOp } from '../../src/modules/chat/index.js';
import { finishStreamedTurn } from '../../src/modules/chat/index.js';
import { mountOperation, param } from '../route.js';
import { openSse, type SseStream } from '../sse.js';

const PLAIN_RESPONSES = {
  200: { description: 'Chat turn result', schema: ChatTurnResultSchema },
  400: { description: 'message missing or empty, or a block violating its schema' },
  402: { description: 'No questions left (nothing consumed)' },
  404: { description: 'Unknown agent or session; no agent for auto-pick' },
  500: { description: 'Agent chat failed (model failure), or the agent is a poste' },
};

const STREAM_RESPONSES = {
  200: { description: 'text/event-stream of `data: {"type","data"}` events (stage, knowledge, tool_call, tool_result, token, mood, done, error)' },
  400: { description: 'message missing or empty, or a malformed body (before the stream)' },
};

const ROUTES = {
  autoPlain: '/v1/agents/chat',
  autoStream: '/v1/agents/chat/stream',
  fixedPlain: '/v1/agents/:id/chat',
  fixedStream: '/v1/agents/:id/chat/stream',
} as const;

const label = (path: string) => `POST ${path}`;

/**
 * Pre-stream rules (SPEC, Agent chat): whatever `startTurn` throws is an ordinary JSON error (a
 * malformed body; for auto-pick also no agent and a planning failure); from then on the status is
 * 200 and failures arrive as `error` events. Events emitted before the stream opened (planning) are
 * sent first.
 */
async function streamedTurn(app: Deps, res: Response, start: (sink: (event: ChatStreamEvent) => void) => Promise<PendingTurn>): Promise<void> {
  const early: ChatStreamEvent[] = [];
  let sse: SseStream | undefined;
  // What this throws (the client left while the planner ran included) is answered by the route's pipeline.
  const pending = await start((event) => (sse ? sse.send(event) : early.push(event)));
  sse = openSse(res, { pingMs: app.config.streamPingMs });
  for (const event of early) sse.send(event);
  try {
    await finishStreamedTurn(pending);
  } finally {
    sse.end();
  }
}

export function chatRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'chat', body: ChatRequestSchema } as const;
  mountOperation(r, app, autoChatOp, {
    ...base,
    summary: 'Chat with the agent a planning step picks for the message',
    responses: PLAIN_RESPONSES,
    input: (req) => ({ body: req.body, route: label(ROUTES.autoPlain) }),
    reply: (result) => ({ status: 200, body: result }),
  });
  mountOperation(r, app, autoChatStreamOp, {
    ...base,
    summary: 'Streamed chat with the agent picked before the stream opens',
    responses: { ...STREAM_RESPONSES, 404: { description: 'No agent in the workspace (before the stream)' }, 500: { description: 'Planning failure (before the stream)' } },
    handler: (_ctx, req, res, run) => streamedTurn(app, res, (sink) => run({ body: req.body, route: label(ROUTES.autoStream), sink })),
  });
  mountOperation(r, app, chatOp, {
    ...base,
    summary: 'Chat with an agent',
    responses: PLAIN_RESPONSES,
    input: (req) => ({ agentId: param(req, 'id'), body: req.body, route: label(ROUTES.fixedPlain) }),
    reply: (result) => ({ status: 200, body: result }),
  });
  mountOperation(r, app, chatStreamOp, {
    ...base,
    summary: 'Streamed chat with an agent (unknown agent or session and allowance refusals arrive as error events)',
    responses: STREAM_RESPONSES,
    handler: (_ctx, req, res, run) =>
      streamedTurn(app, res, (sink) => run({ agentId: param(req, 'id'), body: req.body, route: label(ROUTES.fixedStream), sink })),
  });
  return r;
}
