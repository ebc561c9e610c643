import type { ChatErrorPayload } from '../chat/index.js';
import type { KnowledgeUsed } from '../chat/index.js';
import type { ConversationDto, ConversationMessageDto, Participant, Synthesis } from './conversations.schemas.js';

/**
 * The events of a streamed debate (docs/debates.md, "Following a debate live"), as `data: {"type",
 * "data"}` lines like the chat stream's: the start, each speaker's turn start, tokens, citations and
 * turn end, the synthesis, then done; a failure after the stream opened is one `error` event.
 */
export type DebateStreamEvent =
  | { type: 'start'; data: { conversationId: string; topic: string; firstRound: number; lastRound: number; participants: Participant[] } }
  | { type: 'turn_start'; data: { messageId: string; round: number; agentId: string; agentName: string; isDevilsAdvocate: boolean } }
  | { type: 'token'; data: { messageId: string; agentId: string; delta: string } }
  | { type: 'citations'; data: { messageId: string; agentId: string; items: KnowledgeUsed[] } }
  | { type: 'turn_end'; data: ConversationMessageDto }
  | { type: 'synthesis'; data: Synthesis }
  | { type: 'done'; data: ConversationDto }
  | { type: 'error'; data: ChatErrorPayload };

export type DebateSink = (event: DebateStreamEvent) => void;
