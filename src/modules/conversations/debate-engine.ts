/**
 * The debate (docs/debates.md): rounds in which every debater speaks in turn, the devil's advocate
 * last, each seeing the roster, the topic, what was said before and its own knowledge; then the
 * synthesis, its certificate and the `debate.synthesized` event. Every model call of the debate goes
 * through one metered model on the request's admission, so the debate is metered as one answer on
 * its real token total (several questions for a long one). A key whose monthly ceiling the debate
 * reaches stops it after the current turn, keeping what was said.
 */
import type { ServiceContext } from '../../core/context.js';
import { DomainError, isDomainError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import type { Agent } from '../agents/index.js';
import type { RenderedBlock } from '../chat/index.js';
import { knowledgeUsedOf } from '../chat/index.js';
import type { PiiMasker } from '../../lib/pii.js';
import type { KnowledgeUsedItem } from '../chat/index.js';
import { TurnModel } from '../chat/index.js';
import { agentScope } from '../knowledge/index.js';
import { searchItems } from '../knowledge/index.js';
import { contentStems, usageOf, type ChatMessage, type ModelProvider, type TokenUsage } from '../models/index.js';
import { issueProof } from '../proofs/index.js';
import { assertCanConsume, questionsFor } from '../usage/index.js';
import { publishEvent } from '../webhooks/index.js';
import { CHAT_LIMITS } from '../chat/index.js';
import { Conversation, ConversationMessage, type StoredParticipant, type StoredSynthesis } from './conversation.entity.js';
import type { ConversationDto } from './conversations.schemas.js';
import type { DebateSink } from './debate-events.js';
import { synthesisPrompt, turnPrompt, type SaidBefore } from './debate-prompt.js';
import { readSynthesis, renderSynthesis } from './synthesis.js';
import { toConversationDto, toMessageDto } from './conversation-dto.js';

export const DEBATE_FAILED = 'Debate failed';
const TURN_SAMPLING = { temperature: 0.7, maxTokens: 700 };
const SYNTHESIS_SAMPLING = { temperature: 0.2, maxTokens: 1200 };

/** A debate admitted and recorded as `running`: what `runDebate` needs; what may fail from here arrives in-stream. */
export interface PendingDebate {
  readonly ctx: ServiceContext;
  readonly route: string;
  readonly sink?: DebateSink;
  readonly conversation: Conversation;
  /** Seats in speaking order: the regular debaters, then the devil's advocate. */
  readonly seats: { seat: StoredParticipant; agent: Agent }[];
  readonly firstRound: number;
  readonly lastRound: number;
  /** The follow-up question the run answers (a continuation). */
  readonly question?: string;
  /** Everything said before this run (a continuation's earlier rounds and its question). */
  readonly transcript: SaidBefore[];
  readonly nextPosition: number;
  readonly blocks: RenderedBlock[];
  readonly model: TurnModel;
  readonly provider: ModelProvider;
  readonly masker: PiiMasker;
  /** The request as received (its hash goes in the synthesis certificate). */
  readonly requestHash: string;
}

/**
 * Passages of the agent's own knowledge plus the debate's collections, numbered [1]..[n]: twice as many
 * are searched with the topic, those already quoted in this debate give way to the others (when any are
 * left), and those sharing the most words with the speaker's role and mission come first, the search's
 * order breaking ties (docs/debates.md, "The built-in local model").
 */
async function retrieve(
  ctx: ServiceContext,
  agent: Agent,
  query: string,
  collectionIds: string[],
  quoted: ReadonlySet<string>,
): Promise<KnowledgeUsedItem[]> {
  const workspaceId = ctx.caller.workspace.id;
  const own = await agentScope(ctx.em, workspaceId, agent.id);
  const scope = { kind: 'some' as const, sourceIds: own.sourceIds, collectionIds: [...new Set([...own.collectionIds, ...collectionIds])] };
  if (scope.sourceIds.length === 0 && scope.collectionIds.length === 0) return [];
  const topK = CHAT_LIMITS.topK.default;
  const found = await searchItems(ctx, { workspaceId, query, topK: 2 * topK, scope });
  const fresh = found.filter((p) => !quoted.has(p.chunkId));
  const pool = fresh.length > 0 ? fresh : found;
  const mission = contentStems(`${agent.role} ${agent.mission}`);
  const overlap = (text: string) => [...contentStems(text)].filter((s) => mission.has(s)).length;
  return pool
    .map((p, order) => ({ p, order, score: overlap(`${p.section ?? ''} ${p.text}`) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, topK)
    .map((x, i) => ({ ...x.p, ref: i + 1 }));
}

/** The chunks a turn quotes: its `[n]` citations read against its passages. */
function quotedChunks(content: string, passages: { chunkId: string }[]): string[] {
  const out: string[] = [];
  for (const m of content.matchAll(/\[(\d+)\]/g)) {
    const p = passages[Number(m[1]) - 1];
    if (p) out.push(p.chunkId);
  }
  return out;
}

const masked = (masker: PiiMasker, messages: ChatMessage[]): ChatMessage[] => messages.map((m) => ({ ...m, content: masker.mask(m.content) }));

const usageSince = (before: TokenUsage, now: TokenUsage): TokenUsage =>
  usageOf(now.promptTokens - before.promptTokens, now.completionTokens - before.completionTokens);

/**
 * Runs the rounds and the synthesis. Each turn is saved once spoken; a failure, an abandoned stream or
 * the key's ceiling leaves the conversation `interrupted` with what was said, metered on what ran.
 */
export async function runDebate(p: PendingDebate): Promise<ConversationDto> {
  const { ctx, conversation, sink, model } = p;
  const said: SaidBefore[] = [...p.transcript];
  const saved: ConversationMessage[] = [];
  /** Chunks quoted so far in this run: the next speakers draw on others. */
  const quoted = new Set<string>();
  let position = p.nextPosition;
  let lastSpokenRound = conversation.rounds;
  try {
    for (let round = p.firstRound; round <= p.lastRound; round++) {
      for (const { seat, agent } of p.seats) {
        // The key's ceiling or the workspace's allowance, reached by what the debate consumed so far, ends it before the next turn.
        if (saved.length > 0) await ceilingCheck(p);
        const message = await speak(p, { seat, agent, round, said, position: position++, quoted });
        for (const id of quotedChunks(message.content, message.knowledgeUsed)) quoted.add(id);
        saved.push(message);
        said.push({ round, kind: 'turn', speaker: seat, content: message.content });
        lastSpokenRound = round;
      }
    }
    return await synthesize(p, said, position, p.lastRound);
  } catch (err) {
    await model.run.recordUnfinished(ctx.log);
    await markInterrupted(ctx, conversation, lastSpokenRound);
    throw err;
  }
}

/**
 * Before the next turn, the request's admission is asked again for what this debate consumed so far plus
 * one question: the key's ceiling (its month total plus that) and the workspace's allowance (the debate's
 * hold grows to that, as any admission; usage/metering.service.ts). The refusal (402
 * API_KEY_BUDGET_EXCEEDED or QUESTION_LIMIT) names the conversation, whose turns so far are kept (the
 * plain route answers it as its 402).
 */
async function ceilingCheck(p: PendingDebate): Promise<void> {
  try {
    await assertCanConsume(p.ctx, { feature: 'chat', required: questionsFor(p.model.usage, p.provider.modelClass) + 1 });
  } catch (err) {
    if (!isDomainError(err)) throw err;
    throw new DomainError(err.status, err.message, err.code, { details: { ...err.details, conversationId: p.conversation.id }, headers: err.headers });
  }
}

async function speak(
  p: PendingDebate,
  t: { seat: StoredParticipant; agent: Agent; round: number; said: SaidBefore[]; position: number; quoted: ReadonlySet<string> },
): Promise<ConversationMessage> {
  const { ctx, sink, model, masker, conversation } = p;
  const messageId = newId('cmsg');
  const { seat } = t;
  sink?.({ type: 'turn_start', data: { messageId, round: t.round, agentId: seat.agentId, agentName: seat.name, isDevilsAdvocate: seat.isDevilsAdvocate } });
  const passages = await retrieve(ctx, t.agent, p.question ?? conversation.topic, conversation.collectionIds, t.quoted);
  const knowledgeUsed = knowledgeUsedOf(passages);
  if (passages.length > 0) sink?.({ type: 'citations', data: { messageId, agentId: seat.agentId, items: knowledgeUsed } });
  const prompt = turnPrompt({
    agent: t.agent,
    seat,
    participants: conversation.participants,
    topic: conversation.topic,
    round: t.round,
    lastRound: p.lastRound,
    question: p.question,
    transcript: t.said,
    blocks: p.blocks,
    passages: passages.map((x) => ({ ...x, text: masker.mask(x.text) })),
  });
  const before = model.usage;
  const restorer = masker.streamRestorer();
  const emit = (text: string) => {
    if (text) sink?.({ type: 'token', data: { messageId, agentId: seat.agentId, delta: text } });
  };
  const result = await model.stream(
    { messages: masked(masker, prompt.messages), material: prompt.material, ...TURN_SAMPLING },
    (delta) => emit(restorer.push(delta)),
    DEBATE_FAILED,
  );
  emit(restorer.flush());
  const usage = usageSince(before, model.usage);
  const message = ctx.em.create(ConversationMessage, {
    id: messageId,
    workspaceId: conversation.workspaceId,
    conversationId: conversation.id,
    position: t.position,
    round: t.round,
    kind: 'turn',
    agentId: seat.agentId,
    agentName: seat.name,
    isDevilsAdvocate: seat.isDevilsAdvocate,
    content: masker.restore(result.content).trim(),
    knowledgeUsed,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.totalTokens,
    createdAt: ctx.clock.now(),
  });
  conversation.rounds = Math.max(conversation.rounds, t.round);
  conversation.updatedAt = ctx.clock.now();
  await ctx.em.flush();
  sink?.({ type: 'turn_end', data: toMessageDto(message) });
  return message;
}

/**
 * The synthesis, then side by side the metering of the whole debate and its certificate; then in one
 * transaction the synthesis message, the conversation and the `debate.synthesized` event for the
 * initiator's endpoints (identifiers and status only, SPEC Events 4).
 */
async function synthesize(p: PendingDebate, said: SaidBefore[], position: number, round: number): Promise<ConversationDto> {
  const { ctx, model, masker, conversation, sink } = p;
  const transcript = said.filter((m) => m.kind !== 'synthesis');
  const prompt = synthesisPrompt({ participants: conversation.participants, topic: conversation.topic, transcript, round });
  const result = await model.complete({ messages: masked(masker, prompt.messages), material: prompt.material, json: true, ...SYNTHESIS_SAMPLING }, DEBATE_FAILED);
  const parts = readSynthesis(masker.restore(result.content), conversation.participants, transcript);
  const content = renderSynthesis(parts, conversation.participants);
  const messageId = newId('cmsg');
  const debateUsage = model.usage;
  const [, proof] = await Promise.all([
    model.run.record(result.model),
    issueProof(ctx, {
      route: p.route,
      modelAddress: `debate:${conversation.id}`,
      model: result.model,
      requestHash: p.requestHash,
      answer: content,
      usage: debateUsage,
      conversationId: conversation.id,
    }),
  ]);
  const synthesis: StoredSynthesis = { messageId, round, content, ...parts, proofId: proof.id };
  const now = ctx.clock.now();
  ctx.em.create(ConversationMessage, {
    id: messageId,
    workspaceId: conversation.workspaceId,
    conversationId: conversation.id,
    position,
    round,
    kind: 'synthesis',
    agentId: null,
    agentName: null,
    isDevilsAdvocate: false,
    content,
    knowledgeUsed: [],
    ...tokensOf(result.usage),
    createdAt: now,
  });
  conversation.status = 'synthesized';
  conversation.synthesis = synthesis;
  conversation.proofId = proof.id;
  conversation.rounds = round;
  conversation.updatedAt = now;
  await publishEvent(ctx, {
    name: 'debate.synthesized',
    workspaceId: conversation.workspaceId,
    actorUserId: ctx.caller.user.id,
    payload: {
      conversationId: conversation.id,
      synthesis: { messageId, proofId: proof.id, round, verdict: parts.verdict, status: 'synthesized' },
    },
  });
  await ctx.em.flush();
  const dto = await toConversationDto(ctx, conversation);
  sink?.({ type: 'synthesis', data: dto.synthesis! });
  sink?.({ type: 'done', data: dto });
  return dto;
}

const tokensOf = (u: TokenUsage) => ({ promptTokens: u.promptTokens, completionTokens: u.completionTokens, totalTokens: u.totalTokens });

/** What was said stays; the conversation says it ended before its synthesis. Never throws: the caller is already failing. */
async function markInterrupted(ctx: ServiceContext, conversation: Conversation, rounds: number): Promise<void> {
  try {
    await ctx.app.orm.em
      .fork()
      .nativeUpdate(Conversation, { id: conversation.id }, { status: 'interrupted', rounds, updatedAt: ctx.clock.now() });
  } catch (err) {
    ctx.log.error({ err, conversationId: conversation.id }, 'could not mark a debate interrupted');
  }
}
