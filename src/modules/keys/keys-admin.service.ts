import { z } from 'zod';
import type { Caller, ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { audit } from '../audit/index.js';
import { ApiKey } from './api-key.entity.js';
import { KeyAttributesSchema, ScopesSchema, type ApiKeyDto } from './keys.schemas.js';
import { issueKey, revokeKeyAndDescendants, type IssuedKey, type RevokedKey } from './keys.service.js';
import { isCapabilityScope, READONLY_SCOPE } from '../../core/scopes.js';

/**
 * Key management (`/developer/api-keys`, GraphQL; who may is declared in operations.ts). A key manages
 * the keys of its own user; other users' keys look missing (404). Whatever the policy, no key can create
 * or raise a key beyond its own rights (`assertWithinRights`).
 */

export function toApiKeyDto(key: ApiKey, secret?: string): ApiKeyDto {
  return {
    id: key.id,
    name: key.name ?? null,
    preview: key.preview,
    scopes: key.scopes,
    readonly: key.readonly,
    ratePerMinute: key.ratePerMinute ?? null,
    monthlyQuestionLimit: key.monthlyQuestionLimit ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
    ...(secret ? { secret } : {}),
  };
}

/** `POST /developer/api-keys` body. */
export const CreateApiKeySchema = KeyAttributesSchema;
export type CreateApiKeyInput = z.input<typeof CreateApiKeySchema>;

/**
 * `PATCH /developer/api-keys/:id` body: omitted fields keep their value; `null` clears `name`,
 * `ratePerMinute`, `monthlyQuestionLimit` and `expiresAt` (no limit, no expiry) and keeps `scopes`
 * and `readonly`.
 */
export const UpdateApiKeySchema = KeyAttributesSchema.extend({
  scopes: ScopesSchema.nullish(),
  readonly: z.boolean({ error: 'readonly must be a boolean' }).nullish(),
});
export type UpdateApiKeyInput = z.input<typeof UpdateApiKeySchema>;

/** What a key may do: the attributes compared by the rights rule. */
export interface KeyRights {
  scopes: readonly string[];
  readonly: boolean;
  ratePerMinute: number | null;
  monthlyQuestionLimit: number | null;
  expiresAt: Date | null;
}

const rightsOf = (k: ApiKey): KeyRights => ({
  scopes: k.scopes,
  readonly: k.readonly,
  ratePerMinute: k.ratePerMinute ?? null,
  monthlyQuestionLimit: k.monthlyQuestionLimit ?? null,
  expiresAt: k.expiresAt ?? null,
});

const UNBOUNDED: KeyRights = { scopes: [], readonly: false, ratePerMinute: null, monthlyQuestionLimit: null, expiresAt: null };

/** `null` is "no limit": more than any number. */
const limitExceeds = (value: number | null, bound: number | null): boolean => bound !== null && (value === null || value > bound);
const expiryExceeds = (value: Date | null, bound: Date | null): boolean =>
  bound !== null && (value === null || value.getTime() > bound.getTime());
/** Capability scopes of `next` that `bound` lacks; `['*']` when `next` is unrestricted and `bound` is not. */
function scopesBeyond(next: readonly string[], bound: readonly string[]): string[] {
  const boundCaps = bound.filter(isCapabilityScope);
  if (boundCaps.length === 0) return [];
  const nextCaps = next.filter(isCapabilityScope);
  if (nextCaps.length === 0) return ['*'];
  return nextCaps.filter((s) => !boundCaps.includes(s));
}

/**
 * Refuses a key state that goes beyond the calling key's own rights: capability scopes it lacks or
 * unrestricted when it is restricted (403 scope_denied), writable when it is read-only (403
 * read_only_key), a higher or absent `ratePerMinute` / `monthlyQuestionLimit` or a later or absent
 * expiry than its own (400 naming the field). With `current` (an update), only a raise is refused:
 * lowering a key that already exceeds the caller's rights is allowed.
 */
export function assertWithinRights(caller: Caller, next: KeyRights, current?: KeyRights): void {
  // A signed-in person has no key: their rights are unbounded (what the role allows was checked before).
  const own: KeyRights = caller.kind === 'key' ? rightsOf(caller.key) : UNBOUNDED;
  const raised = <T>(beyond: (n: T, b: T) => boolean, pick: (r: KeyRights) => T) =>
    beyond(pick(next), pick(own)) && (!current || beyond(pick(next), pick(current)));
  const extra = scopesBeyond(next.scopes, own.scopes);
  if (extra.length > 0 && (!current || scopesBeyond(next.scopes, current.scopes).length > 0)) {
    throw errors.scopeDenied(extra[0] === '*' ? null : extra[0]);
  }
  if (caller.readonly && !next.readonly && (!current || current.readonly)) throw errors.readOnlyKey();
  for (const field of ['ratePerMinute', 'monthlyQuestionLimit'] as const) {
    if (raised(limitExceeds, (r) => r[field])) {
      throw errors.validation(field, `${field} cannot exceed the calling key's own ${field} (${own[field]})`);
    }
  }
  if (raised(expiryExceeds, (r) => r.expiresAt)) {
    throw errors.validation('expiresAt', `expiresAt cannot be later than the calling key's own expiry (${own.expiresAt?.toISOString()})`);
  }
}

function assertFutureExpiry(ctx: ServiceContext, expiresAt: string | null | undefined): void {
  if (expiresAt && new Date(expiresAt).getTime() <= ctx.clock.now().getTime()) {
    throw errors.validation('expiresAt', 'expiresAt must be in the future');
  }
}

const splitReadonly = (scopes: readonly string[]) => ({
  scopes: [...new Set(scopes.filter((s) => s !== READONLY_SCOPE))],
  readonlyScope: scopes.includes(READONLY_SCOPE),
});

export const apiKeyNotFound = (id: string) => errors.notFound('apiKey', id);

/** An active key of the caller's user; revoked keys, other users' and other workspaces' look missing. */
async function findManagedKey(ctx: ServiceContext, id: string, em = ctx.em): Promise<ApiKey> {
  const key = await em.findOne(ApiKey, { id, workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id, revokedAt: null });
  if (!key) throw apiKeyNotFound(id);
  return key;
}

/** Keys of the workspace by id, whoever's they are (the usage report names every key), in one query. */
export async function apiKeysByIds(ctx: ServiceContext, ids: readonly string[]): Promise<Map<string, ApiKeyDto>> {
  const keys = await ctx.em.find(ApiKey, { id: { $in: [...ids] }, workspaceId: ctx.caller.workspace.id });
  return new Map(keys.map((k) => [k.id, toApiKeyDto(k)]));
}

/** Keys of the caller's user, oldest first, revoked ones included (with `revokedAt`); never secrets. */
export async function listApiKeys(ctx: ServiceContext): Promise<ApiKey[]> {
  return ctx.em.find(
    ApiKey,
    { workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
}

export async function createApiKey(ctx: ServiceContext, input: unknown): Promise<IssuedKey> {
  const data = CreateApiKeySchema.parse(input ?? {});
  assertFutureExpiry(ctx, data.expiresAt);
  const { scopes, readonlyScope } = splitReadonly(data.scopes ?? []);
  assertWithinRights(ctx.caller, {
    scopes,
    readonly: Boolean(data.readonly) || readonlyScope,
    ratePerMinute: data.ratePerMinute ?? null,
    monthlyQuestionLimit: data.monthlyQuestionLimit ?? null,
    expiresAt: data.expiresAt ? new Date(data.expiresAt) : null,
  });
  return ctx.em.transactional(async (em) => {
    const issued = await issueKey(
      { em, clock: ctx.clock },
      { workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id },
      data,
      // A signed-in person has no key of their own: their keys are independent (no parent to revoke them).
      ctx.caller.kind === 'key' ? ctx.caller.key.id : null,
    );
    audit(ctx, { action: 'key.created', target: { type: 'apiKey', id: issued.key.id }, details: keyAuditDetails(issued.key) }, em);
    return issued;
  });
}

/** What the audit log says of a key: its name and rights, never its secret or preview. */
export const keyAuditDetails = (key: ApiKey): Record<string, unknown> => ({
  name: key.name ?? null,
  userId: key.userId,
  ...rightsJson(rightsOf(key)),
  parentKeyId: key.parentKeyId ?? null,
});

const rightsJson = (r: KeyRights) => ({ ...r, scopes: [...r.scopes], expiresAt: r.expiresAt?.toISOString() ?? null });

/** The fields of a key that changed, before and after. */
function keyChanges(before: KeyRights & { name: string | null }, after: KeyRights & { name: string | null }): Record<string, { from: unknown; to: unknown }> {
  const a = { name: before.name, ...rightsJson(before) };
  const b = { name: after.name, ...rightsJson(after) };
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of Object.keys(a) as (keyof typeof a)[]) {
    if (JSON.stringify(a[field]) !== JSON.stringify(b[field])) out[field] = { from: a[field], to: b[field] };
  }
  return out;
}

/** Changes limits, scopes, expiry or name; effective at the key's next call. */
export async function updateApiKey(ctx: ServiceContext, id: string, input: unknown): Promise<ApiKey> {
  const data = UpdateApiKeySchema.parse(input ?? {});
  assertFutureExpiry(ctx, data.expiresAt);
  const key = await findManagedKey(ctx, id);
  const current = rightsOf(key);
  const split = data.scopes ? splitReadonly(data.scopes) : null;
  const next: KeyRights = {
    scopes: split ? split.scopes : current.scopes,
    readonly: data.readonly ?? (split?.readonlyScope || current.readonly),
    ratePerMinute: data.ratePerMinute !== undefined ? data.ratePerMinute : current.ratePerMinute,
    monthlyQuestionLimit: data.monthlyQuestionLimit !== undefined ? data.monthlyQuestionLimit : current.monthlyQuestionLimit,
    expiresAt: data.expiresAt !== undefined ? (data.expiresAt ? new Date(data.expiresAt) : null) : current.expiresAt,
  };
  if (split?.readonlyScope && data.readonly === false) next.readonly = true;
  assertWithinRights(ctx.caller, next, current);
  const before = { name: key.name ?? null, ...current };
  if (data.name !== undefined) key.name = data.name;
  key.scopes = [...next.scopes];
  key.readonly = next.readonly;
  key.ratePerMinute = next.ratePerMinute;
  key.monthlyQuestionLimit = next.monthlyQuestionLimit;
  key.expiresAt = next.expiresAt;
  const changes = keyChanges(before, { name: key.name ?? null, ...next });
  // Written by the same flush as the change; a PATCH that changes nothing leaves no entry.
  if (Object.keys(changes).length > 0) audit(ctx, { action: 'key.updated', target: { type: 'apiKey', id: key.id }, details: { name: key.name ?? null, changes } });
  await ctx.em.flush();
  return key;
}

/**
 * Revokes a key and the keys it created, transitively: the next call of each gets 401. Says how
 * many descendants were revoked. A key can revoke itself (and so its whole lineage).
 */
export async function revokeApiKey(ctx: ServiceContext, id: string): Promise<RevokedKey> {
  return ctx.em.transactional(async (em) => {
    const key = await findManagedKey(ctx, id, em);
    const revoked = await revokeKeyAndDescendants(em, key, ctx.clock.now());
    audit(ctx, { action: 'key.revoked', target: { type: 'apiKey', id: key.id }, details: revokedAuditDetails(revoked) }, em);
    return revoked;
  });
}

/** What the audit log says of a revocation: the key's name and how many keys it created were revoked with it. */
export const revokedAuditDetails = (r: RevokedKey): Record<string, unknown> => ({
  name: r.key.name ?? null,
  userId: r.key.userId,
  revokedDescendants: r.revokedDescendants,
});
