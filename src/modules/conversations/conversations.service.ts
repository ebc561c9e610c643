/**
 * Conversations (issue 14, docs/debates.md): multi-agent debates with a devil's advocate, and the
 * record the gateway's `x-svc-conversation` names. One use case per function, called by the REST
 * routes, the GraphQL fields and the stream alike.
 */
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { isPoste, type Agent } from '../agents/index.js';
import { loadWorkspaceAgents } from '../agents/index.js';
import { renderContextBlocks } from '../chat/index.js';
import { NoMasking, PiiMasker } from '../../lib/pii.js';
import { TurnModel } from '../chat/index.js';
import { KnowledgeCollection } from '../knowledge/index.js';
import { MeteredModel } from '../models/index.js';
import type { ModelProvider } from '../models/index.js';
import { hashRequest } from '../proofs/index.js';
import { assertCanConsume, assertKeyBudget } from '../usage/index.js';
import { Conversation, ConversationMessage, type StoredParticipant } from './conversation.entity.js';
import { conversationDto, messagesOf, toConversationDto } from './conversation-dto.js';
import {
  ContinueConversationSchema,
  ListConversationsQuerySchema,
  StartConversationSchema,
  type ConversationDto,
} from './conversations.schemas.js';
import type { DebateSink } from './debate-events.js';
import { runDebate, type PendingDebate } from './debate-engine.js';
import type { SaidBefore } from './debate-prompt.js';
import { devilsAdvocateOf, participantOf, seatDebaters } from './roster.js';

export interface DebateOptions {
  /** Metering and proof route label, e.g. `POST /v1/conversations`. */
  route: string;
  /** Receives the stream events. */
  sink?: DebateSink;
  /** The model to debate on; default the registry's default model. */
  provider?: ModelProvider;
}

/** Workspace-scoped lookup: another workspace's conversation is 404 `conversation_not_found`, like a missing one. */
export async function findConversation(ctx: ServiceContext, id: string): Promise<Conversation> {
  const found = id.length > 64 || id.includes('\u0000') ? null : await ctx.em.findOne(Conversation, { id, workspaceId: ctx.caller.workspace.id });
  if (!found) throw errors.conversationNotFound(id);
  return found;
}

export async function listConversations(ctx: ServiceContext, query: unknown = {}): Promise<ConversationDto[]> {
  const { limit } = ListConversationsQuerySchema.parse(query ?? {});
  const rows = await ctx.em.find(Conversation, { workspaceId: ctx.caller.workspace.id }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  const messages = await messagesOf(ctx, rows.map((c) => c.id));
  return rows.map((c) => conversationDto(c, messages.get(c.id) ?? []));
}

export async function getConversation(ctx: ServiceContext, id: string): Promise<ConversationDto> {
  return toConversationDto(ctx, await findConversation(ctx, id));
}

/** Deletes the conversation and its messages; certificates that name it are kept (the chain never loses a link). */
export async function deleteConversation(ctx: ServiceContext, id: string): Promise<void> {
  const conversation = await findConversation(ctx, id);
  await ctx.em.transactional(async (em) => {
    await em.nativeDelete(ConversationMessage, { conversationId: conversation.id });
    await em.nativeDelete(Conversation, { id: conversation.id, workspaceId: conversation.workspaceId });
  });
}

async function assertCollections(ctx: ServiceContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await ctx.em.find(KnowledgeCollection, { workspaceId: ctx.caller.workspace.id, id: { $in: ids } }, { fields: ['id'] });
  const missing = ids.findIndex((id) => !found.some((c) => c.id === id));
  if (missing >= 0) throw errors.validation('collectionIds', `Collection not found: ${ids[missing]} (collectionIds[${missing}])`);
}

function modelFor(ctx: ServiceContext, opts: DebateOptions, admission: Awaited<ReturnType<typeof assertCanConsume>>) {
  const provider = opts.provider ?? ctx.app.models.default();
  const run = new MeteredModel(provider, { meter: admission, route: opts.route, signal: ctx.signal });
  return { provider, model: new TurnModel(run, ctx.signal, ctx.log), masker: provider.local ? new NoMasking() : new PiiMasker() };
}

const seatsOf = (debaters: Agent[], devilsAdvocate: Agent) => [
  ...debaters.map((agent) => ({ seat: participantOf(agent, false), agent })),
  { seat: participantOf(devilsAdvocate, true), agent: devilsAdvocate },
];

/**
 * Validates, seats the debaters, admits the debate (402 before anything runs, nothing consumed),
 * creates the devil's advocate when the workspace has none, and records the conversation as
 * `running`. Everything thrown here precedes any stream.
 */
export async function startConversation(ctx: ServiceContext, raw: unknown, opts: DebateOptions): Promise<PendingDebate> {
  const input = StartConversationSchema.parse(raw ?? {});
  await assertKeyBudget(ctx);
  const requestHash = hashRequest(raw ?? null);
  const roster = await seatDebaters(ctx, input.topic, input.agentIds);
  const collectionIds = input.collectionIds ?? [];
  await assertCollections(ctx, collectionIds);
  const admission = await assertCanConsume(ctx, { feature: 'chat' });
  const devilsAdvocate = roster.devilsAdvocate ?? (await devilsAdvocateOf(ctx));
  const seats = seatsOf(roster.debaters, devilsAdvocate);
  const now = ctx.clock.now();
  const conversation = ctx.em.create(Conversation, {
    id: newId('conv'),
    workspaceId: ctx.caller.workspace.id,
    userId: ctx.caller.user.id,
    topic: input.topic,
    rounds: 0,
    participants: seats.map((s) => s.seat),
    collectionIds,
    status: 'running',
    synthesis: null,
    proofId: null,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  const pending: PendingDebate = {
    ctx,
    route: opts.route,
    sink: opts.sink,
    conversation,
    seats,
    firstRound: 1,
    lastRound: input.rounds,
    transcript: [],
    nextPosition: 1,
    blocks: renderContextBlocks(input.context),
    requestHash,
    ...modelFor(ctx, opts, admission),
  };
  announce(pending);
  return pending;
}

function announce(p: PendingDebate): void {
  const c = p.conversation;
  p.sink?.({
    type: 'start',
    data: { conversationId: c.id, topic: c.topic, firstRound: p.firstRound, lastRound: p.lastRound, participants: c.participants.map((s) => ({ ...s })) },
  });
}

/**
 * A conversation left `running` this long after its last turn (the process that ran it died) may be
 * taken over by a follow-up; a live debate saves a turn far more often than that.
 */
export const STALE_RUNNING_MS = 5 * 60_000;

/**
 * One follow-up at a time per conversation: the conversation passes to `running` in one conditional
 * update, so of two follow-ups (or a follow-up during the first debate) exactly one gets it and the
 * other is 409 `conversation_busy`, before anything is stored or any model runs (its hold is given
 * back with the request). A debate holds no row lock while its models think.
 */
async function claimForFollowUp(ctx: ServiceContext, conversation: Conversation): Promise<void> {
  const now = ctx.clock.now();
  const stale = new Date(now.getTime() - STALE_RUNNING_MS);
  const claimed = await ctx.em.nativeUpdate(
    Conversation,
    {
      id: conversation.id,
      workspaceId: conversation.workspaceId,
      $or: [{ status: { $ne: 'running' } }, { updatedAt: null }, { updatedAt: { $lt: stale } }],
    },
    { status: 'running', updatedAt: now },
  );
  if (claimed === 0) throw errors.conversationBusy(conversation.id);
}

/**
 * A follow-up question: stored as the question of a new round, which every seated debater still in
 * the workspace answers (the devil's advocate last), then a new synthesis.
 */
export async function continueConversation(ctx: ServiceContext, id: string, raw: unknown, opts: DebateOptions): Promise<PendingDebate> {
  const input = ContinueConversationSchema.parse(raw ?? {});
  await assertKeyBudget(ctx);
  const requestHash = hashRequest(raw ?? null);
  const conversation = await findConversation(ctx, id);
  const agents = await loadWorkspaceAgents(ctx);
  const seats = conversation.participants
    .map((seat) => ({ seat, agent: agents.find((a) => a.id === seat.agentId) }))
    .filter((s): s is { seat: StoredParticipant; agent: Agent } => s.agent !== undefined && !isPoste(s.agent));
  const regulars = seats.filter((s) => !s.seat.isDevilsAdvocate);
  if (regulars.length === 0) throw errors.validation(null, 'This conversation has no debater left to answer: start a new debate');
  const admission = await assertCanConsume(ctx, { feature: 'chat' });
  await claimForFollowUp(ctx, conversation);
  // Every round seats one devil's advocate: the conversation's own, else the workspace's, else a new one.
  let devil = seats.find((s) => s.seat.isDevilsAdvocate);
  if (!devil) {
    const agent = agents.find((a) => a.isDevilsAdvocate && !isPoste(a)) ?? (await devilsAdvocateOf(ctx));
    devil = { seat: participantOf(agent, true), agent };
    conversation.participants = [...conversation.participants.filter((p) => !p.isDevilsAdvocate), devil.seat];
  }
  const stored = (await messagesOf(ctx, [conversation.id])).get(conversation.id) ?? [];
  const transcript: SaidBefore[] = stored.map((m) => ({
    round: m.round,
    kind: m.kind,
    speaker:
      conversation.participants.find((p) => p.agentId === m.agentId) ??
      (m.agentId ? { agentId: m.agentId, name: m.agentName ?? m.agentId, role: '', isDevilsAdvocate: m.isDevilsAdvocate } : undefined),
    content: m.content,
  }));
  const round = conversation.rounds + 1;
  const now = ctx.clock.now();
  const position = (stored.at(-1)?.position ?? 0) + 1;
  ctx.em.create(ConversationMessage, {
    id: newId('cmsg'),
    workspaceId: conversation.workspaceId,
    conversationId: conversation.id,
    position,
    round,
    kind: 'question',
    agentId: null,
    agentName: null,
    isDevilsAdvocate: false,
    content: input.message,
    knowledgeUsed: [],
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    createdAt: now,
  });
  conversation.status = 'running';
  conversation.userId ??= ctx.caller.user.id;
  conversation.updatedAt = now;
  await ctx.em.flush();
  const pending: PendingDebate = {
    ctx,
    route: opts.route,
    sink: opts.sink,
    conversation,
    seats: [...regulars, devil],
    firstRound: round,
    lastRound: round,
    question: input.message,
    transcript: [...transcript, { round, kind: 'question', content: input.message }],
    nextPosition: position + 1,
    blocks: renderContextBlocks(input.context),
    requestHash,
    ...modelFor(ctx, opts, admission),
  };
  announce(pending);
  return pending;
}

/** The plain routes and mutations: the whole debate, answered once finished. */
export async function runConversation(pending: PendingDebate): Promise<ConversationDto> {
  return runDebate(pending);
}
