import { z } from 'zod';
import type { AdminContext } from '../../core/context.js';
import { newId } from '../../lib/ids.js';
import { recordAudit, SYSTEM_ACTOR } from '../audit/index.js';
import { issueKey, type IssuedKey } from '../keys/index.js';
import { PLANS, User, Workspace } from '../workspaces/index.js';
import { findWorkspaceOrFail } from '../workspaces/index.js';

/**
 * Provisioning: the operator's use cases that make a working tenant out of several modules — a workspace
 * (workspaces), its first user, and an unrestricted key for that user (keys). Kept apart from the
 * workspaces module, which the keys module builds on, so that no two modules import each other.
 */

export const CreateWorkspaceSchema = z.object({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200),
  plan: z.enum(PLANS, { error: `plan must be one of ${PLANS.join(', ')}` }).default('trial'),
  seats: z.number().int('seats must be a positive whole number').positive('seats must be a positive whole number').default(1),
});

export interface CreatedWorkspace {
  workspace: Workspace;
  user: User;
  issued: IssuedKey;
}

/** A workspace, its first user and an unrestricted key for that user, in one transaction. */
export async function createWorkspace(
  actx: AdminContext,
  input: unknown,
): Promise<CreatedWorkspace> {
  const data = CreateWorkspaceSchema.parse(input);
  return actx.em.transactional(async (em) => {
    const now = actx.clock.now();
    const workspace = em.create(Workspace, {
      id: newId('ws'),
      name: data.name,
      plan: data.plan,
      seats: data.seats,
      subscriptionStartedAt: now,
      subscriptionActive: true,
      suspended: false,
      createdAt: now,
    });
    // The first user administers the workspace.
    const user = em.create(User, {
      id: newId('usr'),
      workspaceId: workspace.id,
      name: null,
      email: null,
      passwordHash: null,
      role: 'admin',
      state: 'active',
      createdAt: now,
    });
    await em.flush();
    const issued = await issueKey({ em, clock: actx.clock }, { workspaceId: workspace.id, userId: user.id }, { name: 'first key' });
    recordAudit(em, actx.clock, { actor: SYSTEM_ACTOR }, {
      workspaceId: workspace.id,
      action: 'key.created',
      target: { type: 'apiKey', id: issued.key.id },
      details: { name: issued.key.name ?? null, userId: user.id, scopes: [], readonly: false, firstKey: true },
    });
    return { workspace, user, issued };
  });
}

/**
 * On first start with an empty database, creates the owner's workspace and returns it with its key;
 * returns null when any workspace exists. The local owner gets the Cabinet plan (every feature).
 */
export async function bootstrapFirstWorkspace(actx: AdminContext): Promise<CreatedWorkspace | null> {
  const count = await actx.em.count(Workspace, {});
  if (count > 0) return null;
  return createWorkspace(actx, { name: 'My workspace', plan: 'cabinet', seats: 1 });
}

/** Suspends or reinstates a workspace (operator), with its audit entry. */
export async function setSuspended(actx: AdminContext, workspaceId: string, suspended: boolean): Promise<Workspace> {
  const ws = await findWorkspaceOrFail(actx, workspaceId);
  if (ws.suspended !== suspended) {
    recordAudit(actx.em, actx.clock, { actor: SYSTEM_ACTOR }, {
      workspaceId,
      action: suspended ? 'workspace.suspended' : 'workspace.reinstated',
      target: { type: 'workspace', id: workspaceId },
      details: { by: 'operator' },
    });
  }
  ws.suspended = suspended;
  await actx.em.flush();
  return ws;
}
