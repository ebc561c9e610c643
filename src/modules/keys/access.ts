import { errors } from '../../errors/index.js';
import type { ServiceContext } from '../../core/context.js';
import type { CapabilityScope } from './scopes.js';

export interface Access {
  /** The route family's capability scope; null for a route that no capability scope opens. */
  scope: CapabilityScope | null;
  /** The use case changes something (chatting counts). */
  write?: boolean;
}

/**
 * The one authorisation check, run on the way into every service use case, so REST and GraphQL
 * refuse the same callers the same way. Order follows SPEC: scope first, then read-only.
 */
export function authorize(ctx: ServiceContext, access: Access): void {
  const { caller } = ctx;
  if (caller.restricted && (access.scope === null || !caller.scopes.includes(access.scope))) {
    throw errors.scopeDenied(access.scope);
  }
  if (access.write && caller.readonly) throw errors.readOnlyKey();
}
