import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { deleteSession, getSession, listSessions, renameSession } from './sessions.service.js';

// A person's chat sessions, read, renamed and deleted from the console (issue 27). GraphQL only (no REST
// route: the SPEC shows no session resource); a session is the caller's own, in the caller's workspace
// (`findOwnSession`: another user's session is a 404 like a missing one).
const READ = { scope: 'agents' } as const;
const WRITE = { scope: 'agents', write: true } as const;

/** The caller's sessions, most recently active first (`limit` 1 to 100, default 50). */
export const listSessionsOp = defineOperation({
  name: 'chat.sessions',
  needs: READ,
  input: z.object({ limit: z.number().nullish() }),
  run: (ctx, { limit }) => listSessions(ctx, { limit }),
});

export const getSessionOp = defineOperation({
  name: 'chat.session',
  needs: READ,
  input: z.object({ id: z.string() }),
  run: (ctx, { id }) => getSession(ctx, id),
});

export const renameSessionOp = defineOperation({
  name: 'chat.renameSession',
  needs: WRITE,
  input: z.object({ id: z.string(), body: z.unknown() }),
  run: (ctx, { id, body }) => renameSession(ctx, id, body),
});

export const deleteSessionOp = defineOperation({
  name: 'chat.deleteSession',
  needs: WRITE,
  input: z.object({ id: z.string() }),
  run: async (ctx, { id }) => {
    await deleteSession(ctx, id);
    return true as const;
  },
});
