import { z } from 'zod';
import { ChatRequestSchema, KnowledgeUsedSchema, TokenUsageSchema } from '../chat/index.js';

/** Limits of a debate (issue 14; docs/debates.md). */
export const DEBATE_LIMITS = {
  rounds: { min: 1, max: 5, default: 2 },
  /** Agents named in `agentIds`, and regular debaters drawn when none are named. */
  agents: { min: 2, max: 8, drawn: 3 },
  topicChars: 10_000,
  messageChars: 10_000,
  collectionIds: 20,
  idChars: 64,
  /** Words asked of each turn (a soft instruction to the model). */
  turnWords: 180,
  list: { max: 100, default: 20 },
} as const;

const L = DEBATE_LIMITS;

/** `null` is read as "not sent", like an omitted field (JSON clients and GraphQL both send it). */
const opt = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const requiredText = (field: string, max: number) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be a string`) })
    .refine((s) => s.trim().length > 0, `${field} is required`)
    .refine((s) => s.length <= max, `${field} must be at most ${max} characters`)
    .refine((s) => !s.includes('\u0000'), `${field} must not contain NUL characters`);

const idList = (field: string, min: number, max: number, counted: string) =>
  z
    .array(z.string({ error: `${field}[] must be a string` }).min(1, `${field}[] must not be empty`).max(L.idChars, `${field}[] is not a valid id`), {
      error: `${field} must be a list of ids`,
    })
    .min(min, `${field} must name at least ${min} ${counted}`)
    .max(max, `${field} must name at most ${max} ${counted}`)
    .refine((ids) => new Set(ids).size === ids.length, `${field} must not name the same id twice`);

/** `POST /v1/conversations` and `/v1/conversations/stream`, the `startConversation` mutation and the `conversationStream` subscription. */
export const StartConversationSchema = z.object({
  topic: requiredText('topic', L.topicChars),
  agentIds: opt(idList('agentIds', L.agents.min, L.agents.max, 'agents')),
  rounds: opt(
    z
      .number({ error: 'rounds must be a number' })
      .int('rounds must be a whole number')
      .min(L.rounds.min, `rounds must be between ${L.rounds.min} and ${L.rounds.max}`)
      .max(L.rounds.max, `rounds must be between ${L.rounds.min} and ${L.rounds.max}`),
  ).transform((r) => r ?? L.rounds.default),
  context: ChatRequestSchema.shape.context,
  collectionIds: opt(idList('collectionIds', 0, L.collectionIds, 'collections')),
});
export type StartConversationInput = z.input<typeof StartConversationSchema>;
export type StartConversation = z.output<typeof StartConversationSchema>;

/** `POST /v1/conversations/:id/messages` and the `continueConversation` mutation. */
export const ContinueConversationSchema = z.object({
  message: requiredText('message', L.messageChars),
  context: ChatRequestSchema.shape.context,
});
export type ContinueConversationInput = z.input<typeof ContinueConversationSchema>;

/** `GET /v1/conversations?limit=`. */
export const ListConversationsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${L.list.max}` })
    .int(`limit must be a whole number from 1 to ${L.list.max}`)
    .min(1, `limit must be a whole number from 1 to ${L.list.max}`)
    .max(L.list.max, `limit must be a whole number from 1 to ${L.list.max}`)
    .default(L.list.default)
    .describe(`Conversations to return, newest first, 1 to ${L.list.max} (default ${L.list.default})`),
});
export type ListConversationsQuery = z.input<typeof ListConversationsQuerySchema>;

// ---- results ----

export const ParticipantSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  role: z.string(),
  isDevilsAdvocate: z.boolean(),
});
export type Participant = z.infer<typeof ParticipantSchema>;

export const ConversationMessageSchema = z.object({
  id: z.string(),
  /** `question` (a follow-up from the user), `turn` (a debater spoke) or `synthesis`. */
  kind: z.enum(['question', 'turn', 'synthesis']),
  round: z.number().int(),
  agentId: z.string().nullable(),
  agentName: z.string().nullable(),
  isDevilsAdvocate: z.boolean(),
  content: z.string(),
  knowledgeUsed: z.array(KnowledgeUsedSchema),
  tokenUsage: TokenUsageSchema,
  createdAt: z.string(),
});
export type ConversationMessageDto = z.infer<typeof ConversationMessageSchema>;

export const DisagreementSchema = z.object({
  point: z.string(),
  /** Agent ids of the debaters who hold the point. */
  heldBy: z.array(z.string()),
});

export const SynthesisSchema = z.object({
  messageId: z.string(),
  round: z.number().int(),
  content: z.string(),
  agreements: z.array(z.string()),
  disagreements: z.array(DisagreementSchema),
  recommendation: z.string(),
  /** 0 to 1. */
  confidence: z.number(),
  /** `consensus`: no open disagreement; `contested`: at least one. */
  verdict: z.enum(['consensus', 'contested']),
  proofId: z.string().nullable(),
});
export type Synthesis = z.infer<typeof SynthesisSchema>;

export const ConversationDtoSchema = z.object({
  id: z.string(),
  topic: z.string(),
  /** `open` (named by gateway calls, no debate), `running`, `synthesized` or `interrupted`. */
  status: z.enum(['open', 'running', 'synthesized', 'interrupted']),
  rounds: z.number().int(),
  participants: z.array(ParticipantSchema),
  messages: z.array(ConversationMessageSchema),
  synthesis: SynthesisSchema.nullable(),
  proofId: z.string().nullable(),
  userId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
});
export type ConversationDto = z.infer<typeof ConversationDtoSchema>;
