/** The gateway module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { anthropicMessage, AnthropicStream, fromAnthropic, fromAnthropicCount } from './anthropic.dialect.js';
export { type GatewayAnswer, type PreparedCall } from './gateway-call.js';
export { AnthropicCountTokensRequestSchema, AnthropicErrorSchema, AnthropicMessageResponseSchema, AnthropicMessagesRequestSchema, ModelListSchema, OpenAIChatRequestSchema, OpenAIChatResponseSchema, OpenAIErrorSchema, ResponsesRequestSchema, ResponsesResponseSchema } from './gateway.schemas.js';
export { countGatewayTokens, listGatewayModels, prepareGatewayCall, runGatewayCall } from './gateway.service.js';
export { fromOpenAI, openAICompletion, OpenAIStream } from './openai.dialect.js';
export { fromResponses, responseId, responsesResponse, ResponsesStream } from './responses.dialect.js';
export { type SseFrame } from './wire.js';
