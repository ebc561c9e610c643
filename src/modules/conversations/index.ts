/** The conversations module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { Conversation } from './conversation.entity.js';
export { ContinueConversationSchema, ConversationDtoSchema, ListConversationsQuerySchema, StartConversationSchema } from './conversations.schemas.js';
export {
  continueConversationOp,
  continueConversationStreamOp,
  deleteConversationOp,
  getConversationOp,
  listConversationsOp,
  startConversationOp,
  startConversationStreamOp,
} from './operations.js';
export { type PendingDebate } from './debate-engine.js';
export { type DebateSink, type DebateStreamEvent } from './debate-events.js';
export { finishStreamedDebate } from './debate-stream.js';
