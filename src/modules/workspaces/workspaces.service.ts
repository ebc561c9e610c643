import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import type { AdminContext, ServiceContext } from '../../core/context.js';
import { assertSeatRoom } from './seats.js';
import type { UserRole } from '../../core/access.js';
import { User, Workspace, type UserState } from './workspace.entity.js';

export async function findWorkspaceOrFail(actx: AdminContext, id: string): Promise<Workspace> {
  const ws = await actx.em.findOne(Workspace, { id });
  if (!ws) throw errors.notFound('workspace', id);
  return ws;
}

/** Seats taken in the caller's workspace: every user counts (people in any state, users only API keys act for), as at `createUser`. */
export async function seatsUsed(ctx: ServiceContext): Promise<number> {
  return ctx.em.count(User, { workspaceId: ctx.caller.workspace.id });
}

/** What a person is made of besides the workspace (the people module fills it; API-key users leave it out). */
export interface UserAttributes {
  email?: string | null;
  name?: string | null;
  passwordHash?: string | null;
  role?: UserRole;
  state?: UserState;
}

/**
 * A new user of the workspace, within the seats its subscription covers (402 SEAT_LIMIT). Without
 * attributes, a user only API keys act for (no e-mail, so no sign-in): a member, active.
 */
export async function createUser(actx: AdminContext, workspaceId: string, attrs: UserAttributes = {}): Promise<User> {
  const ws = await findWorkspaceOrFail(actx, workspaceId);
  assertSeatRoom(ws, (await actx.em.count(User, { workspaceId })) + 1);
  const user = actx.em.create(User, {
    id: newId('usr'),
    workspaceId,
    name: attrs.name ?? null,
    email: attrs.email ?? null,
    passwordHash: attrs.passwordHash ?? null,
    role: attrs.role ?? 'member',
    state: attrs.state ?? 'active',
    createdAt: actx.clock.now(),
  });
  await actx.em.flush();
  return user;
}
