/**
 * The access rule every use case and the pipeline's step 3 apply: capability scope, read-only, person
 * only and role. It lives in core because every module checks it (and the keys module, which holds the
 * keys, records audit entries, which are read under this rule too).
 */
import { errors } from '../errors/index.js';
import type { ServiceContext } from './context.js';
import type { CapabilityScope } from './scopes.js';

/** A person's role in their workspace (docs/people.md, role matrix). */
export const USER_ROLES = ['admin', 'member'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface Access {
  /** The route family's capability scope; null for a route that no capability scope opens. */
  scope: CapabilityScope | null;
  /** The use case changes something (chatting counts). */
  write?: boolean;
  /** Only a signed-in person may do it: an API key gets 403 person_required. */
  person?: boolean;
  /** The role a signed-in person needs (403 admin_required); see `roleAllows`. */
  role?: UserRole;
}

/**
 * What a member may not do (docs/people.md, role matrix): what declares the admin role; without a
 * declared role, managing the workspace's keys (the writes no capability scope opens) and the partner
 * family. Everything else — agents, chat, knowledge, tools, flows and approvals, their own webhooks,
 * reading usage — is theirs.
 */
const needsAdmin = (access: Access): boolean =>
  access.role ? access.role === 'admin' : access.scope === 'partner' || (access.scope === null && access.write === true);

/** Whether a person of `role` may use what `access` declares. */
export const roleAllows = (role: UserRole, access: Access): boolean => role === 'admin' || !needsAdmin(access);

/**
 * The one authorisation check, run on the way into every service use case, so REST and GraphQL
 * refuse the same callers the same way. A signed-in person is checked by role (person_required for a
 * key on person-only operations, admin_required for a member); a key by SPEC's order: scope first,
 * then read-only.
 */
export function authorize(ctx: Pick<ServiceContext, 'caller'>, access: Access): void {
  const { caller } = ctx;
  if (access.person && caller.kind !== 'person') throw errors.personRequired();
  if (caller.kind === 'person' && !roleAllows(caller.person.role, access)) throw errors.adminRequired();
  if (caller.restricted && (access.scope === null || !caller.scopes.includes(access.scope))) {
    throw errors.scopeDenied(access.scope);
  }
  if (access.write && caller.readonly) throw errors.readOnlyKey();
}
