import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { fromAnthropic, fromAnthropicCount } from './anthropic.dialect.js';
import { countGatewayTokens, getGatewayModel, listGatewayModels, prepareGatewayCall } from './gateway.service.js';
import { fromOpenAI } from './openai.dialect.js';
import { fromResponses } from './responses.dialect.js';

// The gateway's use cases (issue 29 §1, docs/gateway.md): rest/v1/gateway.routes.ts refers to these. The
// gateway belongs to the engine scope; answering is a write (a read-only key cannot chat) and counts
// against the gateway ceiling. The hot path (issue 28): the input is the raw body, passed through as
// received (`z.unknown()` walks nothing) and read once, by the dialect's reader, inside the service; the
// rates are counted in the admission's statement (`svc_rate_admit`, `prepareGatewayCall`).
const ANSWER = { scope: 'engine', write: true, rateLimit: 'gateway', ratesWithAdmission: true } as const;
const READ = { scope: 'engine' } as const;

/** A dialect request: its body as received, and the `x-svc-conversation` header naming a conversation. */
const Call = z.object({ body: z.unknown(), conversationId: z.string().optional() });

/**
 * The answering calls: each prepares the call (everything that can refuse before a model runs) and
 * answers it prepared, with whether the client asked for a stream; the route runs it (`runGatewayCall`)
 * plain or streamed in its dialect, since a refusal before the stream is an ordinary error answer.
 */
export const chatCompletionsOp = defineOperation({
  name: 'gateway.chatCompletions',
  route: 'POST /v1/chat/completions',
  needs: ANSWER,
  input: Call,
  run: (ctx, { body, conversationId }) => prepareGatewayCall(ctx, () => fromOpenAI(body, conversationId)),
});

export const responsesOp = defineOperation({
  name: 'gateway.responses',
  route: 'POST /v1/responses',
  needs: ANSWER,
  input: Call,
  run: (ctx, { body, conversationId }) => prepareGatewayCall(ctx, () => fromResponses(body, conversationId)),
});

export const messagesOp = defineOperation({
  name: 'gateway.messages',
  route: 'POST /v1/messages',
  needs: ANSWER,
  input: Call,
  run: (ctx, { body, conversationId }) => prepareGatewayCall(ctx, () => fromAnthropic(body, conversationId)),
});

/** No model runs and nothing is metered (a read), but the count is certified. */
export const countTokensOp = defineOperation({
  name: 'gateway.countTokens',
  route: 'POST /v1/messages/count_tokens',
  needs: READ,
  input: Call,
  run: (ctx, { body, conversationId }) => countGatewayTokens(ctx, () => fromAnthropicCount(body, conversationId)),
});

/** The model addresses of the workspace: `agent:<slug>` of each conversational agent, `svc-auto`, `svc-sensitive`. */
export const listModelsOp = defineOperation({
  name: 'gateway.models',
  route: 'GET /v1/models',
  needs: READ,
  input: z.object({}),
  run: (ctx) => listGatewayModels(ctx),
});

/** One model address of the list (the clients' `models.retrieve`). */
export const getModelOp = defineOperation({
  name: 'gateway.model',
  route: 'GET /v1/models/:id',
  needs: READ,
  input: z.object({ id: z.string() }),
  run: (ctx, { id }) => getGatewayModel(ctx, id),
});
