import type { Caller, ServiceContext } from '../../core/context.js';
import type { Em } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { AuditEntry } from './audit.entity.js';
import type { AuditAction, AuditActor } from './audit.schemas.js';

/** The operator's CLI: no key, no person, no address. */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', keyId: null, userId: null, email: null };

/** A person acting for themselves before any session exists (a sign-in, a link confirmed). */
export const personActor = (user: { id: string; email?: string | null }): AuditActor => ({
  type: 'person',
  keyId: null,
  userId: user.id,
  email: user.email ?? null,
});

/**
 * Who a caller is, for the log (src/core/principal.ts): the signed-in person; the API key and the user it
 * acts for; the service (a flow, for its creator); a widget's visitor, who is nobody of the workspace.
 */
export function actorOf(caller: Caller): AuditActor {
  const email = caller.user.email ?? null;
  switch (caller.kind) {
    case 'person':
      return { type: 'person', keyId: null, userId: caller.user.id, email };
    case 'key':
      return { type: 'key', keyId: caller.key.id, userId: caller.user.id, email };
    case 'system':
      return { type: 'system', keyId: null, userId: caller.user.id, email };
    case 'widget':
      return { type: 'anonymous', keyId: null, userId: null, email: null };
  }
}

/** Who acted and from where: the actor, the client's address and the request id (both absent for the CLI). */
export interface AuditSource {
  actor: AuditActor;
  address?: string | null;
  requestId?: string | null;
}

export const sourceOf = (ctx: ServiceContext): AuditSource => ({ actor: actorOf(ctx.caller), address: ctx.address ?? null, requestId: ctx.requestId });

/** What happened, to what, in which workspace; `details` are non-secret facts (names, scopes, roles, before and after). */
export interface AuditFact {
  workspaceId: string;
  action: AuditAction;
  target: { type: 'apiKey' | 'person' | 'webhook' | 'flow' | 'workspace'; id: string | null };
  details?: Record<string, unknown>;
}

/**
 * Field names that may hold a secret. Call sites pass explicit, non-secret details; this is the second
 * line: such a field never reaches the table, whatever a later change passes (test/audit/audit.test.ts
 * reads every entry for the secrets it made).
 */
const SECRET_FIELD = /secret|password|token|hash|preview|authorization|cookie/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_FIELD.test(k)).map(([k, v]) => [k, withoutSecrets(v)]));
  }
  return value;
}

/**
 * Adds an entry to the unit of work of `em`: it is written by the flush (or the transaction) that writes
 * the change itself, so the change and its entry commit together or not at all.
 */
export function recordAudit(em: Em, clock: Clock, source: AuditSource, fact: AuditFact): AuditEntry {
  return em.create(AuditEntry, {
    id: newId('aud'),
    workspaceId: fact.workspaceId,
    at: clock.now(),
    action: fact.action,
    actorType: source.actor.type,
    actorKeyId: source.actor.keyId,
    actorUserId: source.actor.userId,
    actorEmail: source.actor.email,
    targetType: fact.target.type,
    targetId: fact.target.id,
    details: withoutSecrets(fact.details ?? {}) as Record<string, unknown>,
    address: source.address?.slice(0, 64) ?? null,
    requestId: source.requestId?.slice(0, 128) ?? null,
  });
}

/**
 * A failed sign-in, recorded in the account's workspace when the e-mail belongs to an account. One
 * statement whether or not it does (an insert of what the select finds, nothing for an unknown e-mail),
 * so the answer's timing tells no more than its body; the e-mail typed for an unknown account is never
 * kept (it might be a password typed in the wrong field).
 */
export async function recordSignInFailure(
  em: Em,
  clock: Clock,
  client: { address?: string; requestId?: string | null },
  userId: string | undefined,
  reason: string,
): Promise<void> {
  await em.execute(
    `insert into audit_entry (id, workspace_id, at, action, actor_type, target_type, target_id, details, address, request_id)
     select ?, u.workspace_id, ?, 'person.sign_in_failed', 'anonymous', 'person', u.id, jsonb_build_object('email', u.email, 'reason', cast(? as text)), ?, ?
       from app_user u where u.id = ?`,
    [newId('aud'), clock.now(), reason, client.address?.slice(0, 64) ?? null, client.requestId?.slice(0, 128) ?? null, userId ?? ''],
  );
}

/** `recordAudit` for a use case: the caller of `ctx`, its address and request, in the caller's workspace unless named. */
export function audit(ctx: ServiceContext, fact: Omit<AuditFact, 'workspaceId'> & { workspaceId?: string }, em: Em = ctx.em): AuditEntry {
  return recordAudit(em, ctx.clock, sourceOf(ctx), { ...fact, workspaceId: fact.workspaceId ?? ctx.caller.workspace.id });
}
