import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import {
  ChatRequestSchema,
  ChatTurnDoneSchema,
  ConsultationSchema,
  ContextBlockSchema,
  ExtractedFactSchema,
  KnowledgeUsedSchema,
  MemorySavedSchema,
  MoodSchema,
  ResponseFormatSchema,
  TokenUsageSchema,
  ToolCallReportSchema,
} from './chat.schemas.js';

// The chat types shared by the turn, the stream and the sessions, derived from the zod schemas of
// chat.schemas.ts (src/graphql/from-zod.ts): a field is declared there once.

// ---- turn result ----

export const TokenUsageRef = objectFromZod('ChatTokenUsage', TokenUsageSchema, {
  description: 'Model tokens of the whole turn (planner, consultations, reflection, tool rounds, extraction included).',
});

export const KnowledgeUsedRef = objectFromZod('ChatKnowledgeUsed', KnowledgeUsedSchema);

const ToolCallRef = objectFromZod('ChatToolCall', ToolCallReportSchema);

const MemorySavedRef = objectFromZod('ChatMemorySaved', MemorySavedSchema);

const ExtractedFactRef = objectFromZod('ChatExtractedFact', ExtractedFactSchema);

const ConsultationRef = objectFromZod('ChatConsultation', ConsultationSchema, {
  descriptions: { trigger: '`named` (the message named the colleague) or `tool` (the model asked)' },
});

export const MoodRef = objectFromZod('ChatMood', MoodSchema, { description: 'The answering agent’s mood after the turn.' });

/** A stored message's mood: the mood without the agent it belongs to. */
export const MoodStateRef = objectFromZod('ChatMoodState', MoodSchema.omit({ agentId: true, name: true }), {
  description: "An agent's emotional state.",
});

/** The turn result; the fields only the stream's `done` event carries are left null by a plain turn. */
const TurnResultSchema = ChatTurnDoneSchema.partial({ consultations: true, mood: true, masked: true, contextUsed: true });

export const TurnResultRef = objectFromZod('ChatTurnResult', TurnResultSchema, {
  description: 'SPEC Chat turn result. proofId, consultations, mood, masked and contextUsed are set only in the `done` event of a stream.',
  types: {
    tokenUsage: TokenUsageRef,
    knowledgeUsed: KnowledgeUsedRef,
    toolCalls: ToolCallRef,
    memoriesSaved: MemorySavedRef,
    extracted: ExtractedFactRef,
    consultations: ConsultationRef,
    mood: MoodRef,
    // Free-form for clients: its parts may grow without a schema change.
    contextUsed: 'JSON',
  },
});

// ---- input ----

export const ContextBlockInput = inputFromZod('ChatContextBlockInput', ContextBlockSchema, {
  descriptions: { data: 'An object or a string', priority: 'Default medium' },
});

const ResponseFormatInput = inputFromZod('ChatResponseFormatInput', ResponseFormatSchema, {
  descriptions: { fields: 'Field name to description of its content' },
});

export const ChatInput = inputFromZod('ChatInput', ChatRequestSchema, {
  description: 'The request body of the REST chat routes.',
  types: { context: ContextBlockInput, responseFormat: ResponseFormatInput },
});

/** An optional `agentId` argument: absent or null means the planning step picks the agent. */
export const agentIdOf = (agentId: string | number | null | undefined): string | undefined =>
  agentId === null || agentId === undefined ? undefined : String(agentId);
