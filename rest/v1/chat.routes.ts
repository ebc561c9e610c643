import { Router, type Request, type Response } from 'express';
import type { Deps } from '../../src/core/deps.js';
import type { ServiceContext } from '../../src/core/context.js';
import type { ChatStreamEvent } from '../../src/modules/chat/index.js';
import { ChatRequestSchema, ChatTurnResultSchema, plainResult } from '../../src/modules/chat/index.js';
import { runTurn, startTurn } from '../../src/modules/chat/index.js';
import { finishStreamedTurn } from '../../src/modules/chat/index.js';
import { mount, param, type Reply } from '../route.js';
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

async function plainTurn(ctx: ServiceContext, req: Request, agentId: string | undefined, path: string): Promise<Reply> {
  const outcome = await runTurn(ctx, req.body, { agentId, route: label(path) });
  return { status: 200, body: plainResult(outcome.result) };
}

/**
 * Pre-stream rules (SPEC, Agent chat): whatever `startTurn` throws is an ordinary JSON error (a
 * malformed body; for auto-pick also no agent and a planning failure); from then on the status is
 * 200 and failures arrive as `error` events. Events emitted before the stream opened (planning) are
 * sent first.
 */
async function streamedTurn(app: Deps, ctx: ServiceContext, req: Request, res: Response, agentId: string | undefined, path: string): Promise<void> {
  const early: ChatStreamEvent[] = [];
  let sse: SseStream | undefined;
  const sink = (event: ChatStreamEvent) => (sse ? sse.send(event) : early.push(event));
  // What this throws (the client left while the planner ran included) is answered by the route's pipeline.
  const pending = await startTurn(ctx, req.body, { agentId, route: label(path), sink });
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
  const base = { tag: 'chat', scope: 'agents', rateLimit: 'agentChat', method: 'post', body: ChatRequestSchema } as const;
  mount(r, app, {
    ...base,
    path: ROUTES.autoPlain,
    summary: 'Chat with the agent a planning step picks for the message',
    responses: PLAIN_RESPONSES,
    handler: (ctx, req) => plainTurn(ctx, req, undefined, ROUTES.autoPlain),
  });
  mount(r, app, {
    ...base,
    path: ROUTES.autoStream,
    summary: 'Streamed chat with the agent picked before the stream opens',
    responses: { ...STREAM_RESPONSES, 404: { description: 'No agent in the workspace (before the stream)' }, 500: { description: 'Planning failure (before the stream)' } },
    handler: (ctx, req, res) => streamedTurn(app, ctx, req, res, undefined, ROUTES.autoStream),
  });
  mount(r, app, {
    ...base,
    path: ROUTES.fixedPlain,
    summary: 'Chat with an agent',
    responses: PLAIN_RESPONSES,
    handler: (ctx, req) => plainTurn(ctx, req, param(req, 'id'), ROUTES.fixedPlain),
  });
  mount(r, app, {
    ...base,
    path: ROUTES.fixedStream,
    summary: 'Streamed chat with an agent (unknown agent or session and allowance refusals arrive as error events)',
    responses: STREAM_RESPONSES,
    handler: (ctx, req, res) => streamedTurn(app, ctx, req, res, param(req, 'id'), ROUTES.fixedStream),
  });
  return r;
}
