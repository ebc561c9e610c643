import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import type { ServiceContext } from '../../src/core/context.js';
import { dialectStreamError, errors, toDomainError, type DomainError } from '../../src/errors/index.js';
import { untilAborted } from '../../src/lib/shutdown.js';
import { AnthropicStream, anthropicMessage } from '../../src/modules/gateway/index.js';
import {
  AnthropicCountTokensRequestSchema,
  AnthropicMessageResponseSchema,
  AnthropicMessagesRequestSchema,
  ModelListSchema,
  ModelSchema,
  OpenAIChatRequestSchema,
  OpenAIChatResponseSchema,
  ResponsesRequestSchema,
  ResponsesResponseSchema,
} from '../../src/modules/gateway/index.js';
import { chatCompletionsOp, countTokensOp, getModelOp, listModelsOp, messagesOp, responsesOp, runGatewayCall } from '../../src/modules/gateway/index.js';
import type { ModelListEntry } from '../../src/modules/gateway/index.js';
import type { GatewayAnswer, PreparedCall } from '../../src/modules/gateway/index.js';
import { OpenAIStream, openAICompletion } from '../../src/modules/gateway/index.js';
import { ResponsesStream, responseId, responsesResponse } from '../../src/modules/gateway/index.js';
import { sseText, type SseFrame } from '../../src/modules/gateway/index.js';
import { mountOperation, param } from '../route.js';
import { openSse } from '../sse.js';
import { unnamed } from '../../src/lib/unnamed.js';

export const PROOF_HEADER = 'x-svc-proof';
const CONVERSATION_HEADER = 'x-svc-conversation';

const conversationOf = (req: Request): string | undefined => {
  const value = req.headers[CONVERSATION_HEADER];
  const id = (Array.isArray(value) ? value[0] : value)?.trim();
  return id ? id : undefined;
};

/** A dialect operation's input: the body as received (read once, by the dialect's reader) and the conversation header. */
const callOf = (req: Request) => ({ body: req.body as unknown, conversationId: conversationOf(req) });

const unixSeconds = (ctx: ServiceContext): number => Math.floor(ctx.clock.now().getTime() / 1000);

interface DialectStream {
  start(): SseFrame[] | Promise<SseFrame[]>;
  delta(text: string): SseFrame[];
  /** The same delta as wire text (`delta`'s frames through `sseText`), made without the frames (issue 28: per-delta garbage). */
  deltaText(text: string): string;
  finish(answer: GatewayAnswer): SseFrame[];
  /** The in-stream error, when the stream words it itself (the Responses API numbers its events). */
  error?(e: DomainError): SseFrame[];
}

const frameText = sseText;

/**
 * Streams a prepared call. The certificate id is reserved before the answer, so it travels in the
 * headers; the certificate itself is written when the answer completes. Once the stream is open every
 * failure is an in-band event in the dialect's form; a client that leaves aborts the model call.
 */
async function streamAnswer(
  ctx: ServiceContext,
  res: Response,
  prepared: PreparedCall,
  out: DialectStream,
  dialect: 'openai' | 'anthropic',
): Promise<void> {
  const sse = openSse(res, {
    pingMs: ctx.app.config.streamPingMs,
    ping: dialect === 'openai' ? ': ping\n\n' : 'event: ping\ndata: {"type":"ping"}\n\n',
    headers: { [PROOF_HEADER]: prepared.proofId },
    headWithFirstWrite: true,
  });
  // The deltas that arrive in one tick (one read of the model's answer) leave as one chunk of the response:
  // Node sends a tick's writes together anyway, but each `res.write` is a chunk of its own (its size line,
  // its buffers), and a streamed call's socket writes were a fifth of its CPU (issue 28). Every other write
  // sends what is pending first, so the events keep their order.
  let pending = '';
  const flush = unnamed(() => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    sse.write(text);
  });
  // The stream's last events leave with the end, and with the text still pending from this tick: one chunk.
  const close = unnamed((frames: SseFrame[]) => {
    const text = pending + frames.map(frameText).join('');
    pending = '';
    sse.end(text);
  });
  // Structured output is streamed once validated (or cast into JSON): never prose the client cannot parse.
  const structured = prepared.call.generation?.responseFormat !== undefined;
  try {
    // The stream's first events wait for its first write (the first text, a keep-alive, the end), and the
    // headers with them (issue 28: the head and the first text in one socket write; no token waits for it).
    sse.hold((await out.start()).map(frameText).join(''));
    const onDelta = structured
      ? () => undefined
      : (text: string) => {
          if (pending === '') process.nextTick(flush);
          pending += out.deltaText(text);
        };
    // A shutdown that stops waiting ends the stream at once with `server_restarting`.
    const outcome = await untilAborted(runGatewayCall(ctx, prepared, onDelta), ctx.app.shutdown.signal);
    if (outcome === 'aborted') throw errors.serverRestarting();
    close([...(structured && outcome.done.content ? out.delta(outcome.done.content) : []), ...out.finish(outcome.done)]);
  } catch (err) {
    const restarting = ctx.app.shutdown.signal.aborted;
    if (ctx.signal?.aborted && !restarting) return;
    const { error, unexpected } = toDomainError(restarting ? errors.serverRestarting() : err);
    if (unexpected) ctx.log.error({ err }, 'gateway stream failed');
    close(out.error ? out.error(error) : dialectStreamError(error, dialect));
  } finally {
    close([]);
  }
}

/** OpenAI's model object; the Anthropic SDK's fields ride along so both official clients can list and retrieve. */
const modelObject = (ctx: ServiceContext, e: ModelListEntry) => ({
  id: e.id,
  object: 'model' as const,
  created: Math.floor(e.createdAt.getTime() / 1000),
  owned_by: ctx.caller.workspace.id,
  type: 'model' as const,
  display_name: e.displayName,
  created_at: e.createdAt.toISOString(),
});

export function gatewayRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'gateway' } as const;

  mountOperation(r, app, chatCompletionsOp, {
    ...base,
    summary: 'OpenAI Chat Completions dialect (plain or `stream: true`); certificate id in `x-svc-proof`',
    dialect: 'openai',
    streams: true,
    body: OpenAIChatRequestSchema,
    unknownFields: 'ignored', // docs/gateway.md: SDKs send fields of newer API versions
    responses: {
      200: { description: 'chat.completion, or a text/event-stream of chat.completion.chunk ending with [DONE]', schema: OpenAIChatResponseSchema },
      400: { description: 'invalid_request_error' },
      402: { description: 'insufficient_quota' },
      404: { description: 'model_not_found or conversation_not_found' },
      500: { description: 'server_error' },
      501: { description: 'address_not_supported (debate:)' },
    },
    handler: async (ctx, req, res, run) => {
      const { prepared, stream, includeUsage } = await run(callOf(req));
      const created = unixSeconds(ctx);
      if (stream) return streamAnswer(ctx, res, prepared, new OpenAIStream(prepared, created, includeUsage), 'openai');
      const answer = await runGatewayCall(ctx, prepared);
      return { status: 200, body: openAICompletion(answer, created), headers: { [PROOF_HEADER]: answer.proofId } };
    },
  });

  mountOperation(r, app, responsesOp, {
    ...base,
    summary:
      'OpenAI Responses dialect (plain or `stream: true` with named events); no stored responses: `previous_response_id` is refused; certificate id in `x-svc-proof`',
    dialect: 'openai',
    streams: true,
    body: ResponsesRequestSchema,
    unknownFields: 'ignored', // docs/gateway.md: SDKs send fields of newer API versions
    responses: {
      200: { description: 'response, or a text/event-stream of named response.* events', schema: ResponsesResponseSchema },
      400: { description: 'invalid_request_error (also previous_response_id, item_reference)' },
      402: { description: 'insufficient_quota' },
      404: { description: 'model_not_found or conversation_not_found' },
      500: { description: 'server_error' },
      501: { description: 'address_not_supported (debate:)' },
    },
    handler: async (ctx, req, res, run) => {
      const { prepared, stream, echo } = await run(callOf(req));
      const createdAt = unixSeconds(ctx);
      if (stream) return streamAnswer(ctx, res, prepared, new ResponsesStream(prepared, createdAt, echo), 'openai');
      const answer = await runGatewayCall(ctx, prepared);
      return { status: 200, body: responsesResponse(answer, { id: responseId(), createdAt, echo }), headers: { [PROOF_HEADER]: answer.proofId } };
    },
  });

  mountOperation(r, app, messagesOp, {
    ...base,
    summary: 'Anthropic Messages dialect (plain or `stream: true`); certificate id in `x-svc-proof`',
    dialect: 'anthropic',
    streams: true,
    body: AnthropicMessagesRequestSchema,
    unknownFields: 'ignored', // docs/gateway.md: SDKs send fields of newer API versions
    responses: {
      200: { description: 'message, or a text/event-stream of named events', schema: AnthropicMessageResponseSchema },
      400: { description: 'invalid_request_error' },
      404: { description: 'not_found_error (unknown agent or conversation)' },
      429: { description: 'rate_limit_error: question allowance spent (no retry-after)' },
      500: { description: 'api_error' },
      501: { description: 'invalid_request_error (debate:)' },
    },
    handler: async (ctx, req, res, run) => {
      const { prepared, stream } = await run(callOf(req));
      if (stream) return streamAnswer(ctx, res, prepared, new AnthropicStream(prepared), 'anthropic');
      const answer = await runGatewayCall(ctx, prepared);
      return { status: 200, body: anthropicMessage(answer), headers: { [PROOF_HEADER]: answer.proofId } };
    },
  });

  mountOperation(r, app, countTokensOp, {
    ...base,
    summary: 'Anthropic token count of a Messages request (no model runs, nothing metered)',
    dialect: 'anthropic',
    body: AnthropicCountTokensRequestSchema,
    unknownFields: 'ignored', // docs/gateway.md: SDKs send fields of newer API versions
    responses: {
      200: { description: 'Token count', schema: z.object({ input_tokens: z.number().int() }) },
      400: { description: 'invalid_request_error' },
      404: { description: 'not_found_error' },
      501: { description: 'invalid_request_error (debate:)' },
    },
    input: callOf,
    reply: ({ inputTokens, proofId }) => ({ status: 200, body: { input_tokens: inputTokens }, headers: { [PROOF_HEADER]: proofId } }),
  });

  mountOperation(r, app, listModelsOp, {
    ...base,
    summary: 'Model addresses: agent:<slug> of each conversational agent, svc-auto, svc-sensitive (OpenAI list shape)',
    responses: { 200: { description: 'List of models', schema: ModelListSchema } },
    handler: async (ctx, _req, _res, run) => {
      const data = (await run({})).map((e) => modelObject(ctx, e));
      return { status: 200, body: { object: 'list', data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null } };
    },
  });

  mountOperation(r, app, getModelOp, {
    ...base,
    summary: "One model address of the list (the official clients' models.retrieve); the id is percent-encoded (agent%3Aada)",
    // Both clients read the OpenAI envelope's 404 as their NotFoundError; one shape for a path both call.
    dialect: 'openai',
    responses: {
      200: { description: 'The model, as in the list', schema: ModelSchema },
      404: { description: 'model_not_found: not an address of the list (param: model)' },
    },
    handler: async (ctx, req, _res, run) => ({ status: 200, body: modelObject(ctx, await run({ id: param(req, 'id') })) }),
  });

  return r;
}
