import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { deleteSession, renameSession } from './sessions.service.js';

// A person's chat sessions, renamed and deleted from the console (issue 27). GraphQL only (no REST route:
// the SPEC shows no session resource); a session is the caller's own, in the caller's workspace, as for
// the reads (`findOwnSession`: another user's session is a 404 like a missing one).
const WRITE = { scope: 'agents', write: true } as const;

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
