import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { z } from 'zod';
import { Agent } from '../agents/index.js';
import { ChatSession, SessionMessage, type StoredMood } from './chat.entity.js';
import type { HistoryRow } from './turn.repository.js';
import type { HistoryMessage } from './prompt.js';

const TITLE_CHARS = 80;

export const sessionNotFound = (id: string) => errors.notFound('session', id);

/** A session of the calling user; another user's session (or another workspace's) is a missing one. */
export async function findOwnSession(ctx: ServiceContext, id: string): Promise<ChatSession> {
  const session = await ctx.em.findOne(ChatSession, { id, workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id });
  if (!session) throw sessionNotFound(id);
  return session;
}

/**
 * The history the model reads. A stopped exchange is part of it with what had streamed; one stopped
 * before any text streamed is left out whole (an empty answer is not a message a model accepts).
 */
export function historyOf(messages: readonly HistoryRow[]): HistoryMessage[] {
  const unanswered = new Set(messages.filter((m) => m.role === 'assistant' && m.stopped && !m.content.trim()).map((m) => m.position - 1));
  return messages
    .filter((m) => !(m.role === 'assistant' ? m.stopped && !m.content.trim() : unanswered.has(m.position)))
    .map((m) => ({ role: m.role, content: m.content }));
}

/** The agent's last mood in these messages, if it answered there before. */
export function previousMood(messages: readonly HistoryRow[], agentId: string): StoredMood | null {
  return messages.findLast((m) => m.role === 'assistant' && m.agentId === agentId)?.mood ?? null;
}

/** A new session's title: its first message on one line, cut at TITLE_CHARS. */
export function sessionTitle(firstMessage: string): string {
  const flat = firstMessage.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_CHARS ? `${flat.slice(0, TITLE_CHARS - 1).trimEnd()}…` : flat;
}

// ---- reads for the console (GraphQL) ----

export const MAX_SESSIONS_PAGE = 100;

/** The calling user's sessions, most recently active first. */
export async function listSessions(ctx: ServiceContext, opts: { limit?: number | null } = {}): Promise<ChatSession[]> {
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
  const agents = await ctx.em.find(Agent, { id: { $in: [...agentIds] }, workspaceId: ctx.caller.workspace.id });
  return agentIds.map((id) => agents.find((a) => a.id === id) ?? null);
}
