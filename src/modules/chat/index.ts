/** The chat module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { type ChatErrorPayload, type ChatStreamEvent } from './chat-events.js';
export { errorEventOf, finishStreamedTurn } from './chat-stream.js';
export { CHAT_LIMITS, type ChatRequestInput, ChatRequestSchema, ChatTurnResultSchema, type KnowledgeUsed, KnowledgeUsedSchema, plainResult, TokenUsageSchema } from './chat.schemas.js';
export { type PendingTurn, runTurn, startTurn } from './chat.service.js';
export { autoChatOp, autoChatStreamOp, chatOp, chatStreamOp } from './operations.js';
export { contextSection, renderContextBlocks, type RenderedBlock } from './context-blocks.js';
export { type HistoryMessage, passageSection, personaOf, personaSection } from './prompt.js';
export { knowledgeUsedOf, topKFor } from './retrieval.js';
export { type KnowledgeRetriever, type KnowledgeUsedItem, type ToolRunner } from './turn-extensions.js';
export { TurnModel } from './turn-model.js';
export { deleteSessionOp, renameSessionOp } from './session-operations.js';
