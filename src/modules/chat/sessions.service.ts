import type { ServiceContext } from '../../core/context.js';
import type { Em } from '../../db/types.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { z } from 'zod';
import { Agent } from '../agents/index.js';
import { authorize } from '../../core/access.js';
import type { TokenUsage } from '../models/index.js';
import { ChatSession, SessionMessage, type StoredCitation, type StoredMood, type StoredStage } from './chat.entity.js';
import { CHAT_LIMITS } from './chat.schemas.js';
import type { HistoryMessage } from './prompt.js';

const READ = { scope: 'agents' } as const;
const TITLE_CHARS = 80;

export const sessionNotFound = (id: string) => errors.notFound('session', id);

/** A session of the calling user; another user's session (or another workspace's) is a missing one. */
export async function findOwnSession(ctx: ServiceContext, id: string): Promise<ChatSession> {
  const session = await ctx.em.findOne(ChatSession, { id, workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id });
  if (!session) throw sessionNotFound(id);
  return session;
}

/** The last 20 messages of the session, oldest first: the history the agent sees. */
export async function loadHistory(ctx: ServiceContext, sessionId: string): Promise<SessionMessage[]> {
  const latest = await ctx.em.find(
    SessionMessage,
    { sessionId, workspaceId: ctx.caller.workspace.id },
    { orderBy: { position: 'desc' }, limit: CHAT_LIMITS.historyMessages },
  );
  return latest.reverse();
}

/**
 * The history the model reads. A stopped exchange is part of it with what had streamed; one stopped
 * before any text streamed is left out whole (an empty answer is not a message a model accepts).
 */
export function historyOf(messages: SessionMessage[]): HistoryMessage[] {
  const unanswered = new Set(messages.filter((m) => m.role === 'assistant' && m.stopped && !m.content.trim()).map((m) => m.position - 1));
  return messages
    .filter((m) => !(m.role === 'assistant' ? m.stopped && !m.content.trim() : unanswered.has(m.position)))
    .map((m) => ({ role: m.role, content: m.content }));
}

/** The agent's last mood in these messages, if it answered there before. */
export function previousMood(messages: SessionMessage[], agentId: string): StoredMood | null {
  return messages.findLast((m) => m.role === 'assistant' && m.agentId === agentId)?.mood ?? null;
}

export interface Exchange {
  sessionId: string;
  /** False: the session does not exist yet and is created with this exchange. */
  existing: boolean;
  agent: { id: string; name: string };
  model: string;
  userMessage: string;
  answer: string;
  usage: TokenUsage;
  /** Null on a stopped answer (no mood is derived from half an answer). */
  mood: StoredMood | null;
  /** The passages the answer cited (the `done` event's knowledgeUsed); null when the turn stopped before retrieval ended. */
  citations: StoredCitation[] | null;
  /** The client left while the answer streamed: `answer` is what had streamed. */
  stopped?: boolean;
  /** The stages that ended, when known as the exchange is written (a stopped turn's); else set by `completeAnswer`. */
  stages?: StoredStage[];
}

/**
 * Appends the user message and the answer to the session (creating it on its first exchange).
 * Positions come from the session's counter, bumped atomically, so concurrent turns in one session
 * interleave exchanges without clashing. Runs inside the caller's transaction.
 */
export async function appendExchange(em: Em, ctx: ServiceContext, x: Exchange): Promise<{ answerId: string }> {
  const now = ctx.clock.now();
  const workspaceId = ctx.caller.workspace.id;
  let first: number;
  if (x.existing) {
    const rows = await em.execute<{ message_count: number }[]>(
      'update chat_session set message_count = message_count + 2, agent_id = ?, updated_at = ? where id = ? and workspace_id = ? returning message_count',
      [x.agent.id, now, x.sessionId, workspaceId],
    );
    const count = rows[0]?.message_count;
    if (count === undefined) throw sessionNotFound(x.sessionId);
    first = Number(count) - 1;
  } else {
    const flat = x.userMessage.replace(/\s+/g, ' ').trim();
    em.create(ChatSession, {
      id: x.sessionId,
      workspaceId,
      userId: ctx.caller.user.id,
      agentId: x.agent.id,
      title: flat.length > TITLE_CHARS ? `${flat.slice(0, TITLE_CHARS - 1).trimEnd()}…` : flat,
      messageCount: 2,
      createdAt: now,
      updatedAt: now,
    });
    first = 1;
  }
  const base = { workspaceId, sessionId: x.sessionId, createdAt: now };
  em.create(SessionMessage, {
    ...base,
    id: newId('msg'),
    position: first,
    role: 'user',
    content: x.userMessage,
    agentId: null,
    agentName: null,
    model: null,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    mood: null,
    citations: null,
    proofId: null,
    stages: null,
    stopped: false,
  });
  const answerId = newId('msg');
  em.create(SessionMessage, {
    ...base,
    id: answerId,
    position: first + 1,
    role: 'assistant',
    content: x.answer,
    agentId: x.agent.id,
    agentName: x.agent.name,
    model: x.model,
    promptTokens: x.usage.promptTokens,
    completionTokens: x.usage.completionTokens,
    totalTokens: x.usage.totalTokens,
    mood: x.mood,
    citations: x.citations,
    proofId: null,
    stages: x.stages ?? null,
    stopped: x.stopped ?? false,
  });
  return { answerId };
}

/**
 * The answer's certificate and its turn's stages, known only once the turn is settled (the proof is
 * issued beside the save): written onto the stored answer afterwards, in one statement.
 */
export async function completeAnswer(em: Em, workspaceId: string, answerId: string, done: { proofId: string | null; stages: StoredStage[] }): Promise<void> {
  await em.execute('update chat_message set proof_id = ?, stages = ?::jsonb where id = ? and workspace_id = ?', [
    done.proofId,
    JSON.stringify(done.stages),
    answerId,
    workspaceId,
  ]);
}

// ---- reads for the console (GraphQL) ----

export const MAX_SESSIONS_PAGE = 100;

/** The calling user's sessions, most recently active first. */
export async function listSessions(ctx: ServiceContext, opts: { limit?: number | null } = {}): Promise<ChatSession[]> {
  authorize(ctx, READ);
  const limit = opts.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SESSIONS_PAGE) {
    throw errors.validation('limit', `limit must be a whole number between 1 and ${MAX_SESSIONS_PAGE}`);
  }
  return ctx.em.find(
    ChatSession,
    { workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id },
    { orderBy: { updatedAt: 'desc', id: 'desc' }, limit },
  );
}

export async function getSession(ctx: ServiceContext, id: string): Promise<ChatSession> {
  authorize(ctx, READ);
  return findOwnSession(ctx, id);
}

/** A session's new title: trimmed, on one line, 1 to 80 characters. */
export const RenameSessionSchema = z.object({
  title: z
    .string()
    .transform((t) => t.replace(/\s+/g, ' ').trim())
    .pipe(z.string().min(1, 'title is required').max(TITLE_CHARS, `title is at most ${TITLE_CHARS} characters`)),
});

/** Renames a session of the caller (another user's, or another workspace's, is a 404). */
export async function renameSession(ctx: ServiceContext, id: string, raw: unknown): Promise<ChatSession> {
  const { title } = RenameSessionSchema.parse(raw ?? {});
  const session = await findOwnSession(ctx, id);
  session.title = title;
  await ctx.em.flush();
  return session;
}

/** Deletes a session of the caller with its messages; the memories its turns saved stay the agent's. */
export async function deleteSession(ctx: ServiceContext, id: string): Promise<void> {
  const session = await findOwnSession(ctx, id);
  await ctx.em.transactional(async (em) => {
    await em.nativeDelete(SessionMessage, { sessionId: session.id, workspaceId: session.workspaceId });
    await em.nativeDelete(ChatSession, { id: session.id, workspaceId: session.workspaceId });
  });
}

/** Messages of several sessions of the caller at once (dataloader batch), each list in order. */
export async function messagesOfSessions(ctx: ServiceContext, sessionIds: readonly string[]): Promise<SessionMessage[][]> {
  authorize(ctx, READ);
  const owned = await ctx.em.find(
    ChatSession,
    { id: { $in: [...sessionIds] }, workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id },
    { fields: ['id'] },
  );
  const ids = owned.map((s) => s.id);
  const rows = ids.length
    ? await ctx.em.find(SessionMessage, { sessionId: { $in: ids }, workspaceId: ctx.caller.workspace.id }, { orderBy: { sessionId: 'asc', position: 'asc' } })
    : [];
  return sessionIds.map((id) => rows.filter((m) => m.sessionId === id));
}

/** The agents that answered last in sessions (dataloader batch); null for an agent deleted since. */
export async function agentsByIds(ctx: ServiceContext, agentIds: readonly string[]): Promise<(Agent | null)[]> {
  authorize(ctx, READ);
  const agents = await ctx.em.find(Agent, { id: { $in: [...agentIds] }, workspaceId: ctx.caller.workspace.id });
  return agentIds.map((id) => agents.find((a) => a.id === id) ?? null);
}
