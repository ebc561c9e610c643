/** The gateway module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { anthropicMessage, AnthropicStream } from './anthropic.dialect.js';
export { type GatewayAnswer, type PreparedCall } from './gateway-call.js';
export { AnthropicCountTokensRequestSchema, AnthropicErrorSchema, AnthropicMessageResponseSchema, AnthropicMessagesRequestSchema, ModelListSchema, ModelSchema, OpenAIChatRequestSchema, OpenAIChatResponseSchema, OpenAIErrorSchema, ResponsesRequestSchema, ResponsesResponseSchema } from './gateway.schemas.js';
export { type AnswerWrites, createAnswerWrites } from './answer-writes.js';
export { AdmissionHistory } from './early-call.js';
export { runGatewayCall, type ModelListEntry } from './gateway.service.js';
export { chatCompletionsOp, countTokensOp, getModelOp, listModelsOp, messagesOp, responsesOp } from './operations.js';
export { openAICompletion, OpenAIStream } from './openai.dialect.js';
export { responseId, responsesResponse, ResponsesStream } from './responses.dialect.js';
export { sseText, type SseFrame } from './wire.js';
