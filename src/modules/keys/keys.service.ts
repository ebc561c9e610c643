import type { Em } from '../../db/orm.js';
import { errors } from '../../errors/index.js';
import type { Caller } from '../../context.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { constantTimeEqualHex, newSecret, previewOf, sha256Hex } from '../../lib/secrets.js';
import { User, Workspace } from '../workspaces/workspace.entity.js';
import { ApiKey } from './api-key.entity.js';
import { KeyAttributesSchema, type KeyAttributes } from './keys.schemas.js';
import { isRestricted, READONLY_SCOPE } from './scopes.js';

export const KEY_PREFIX = 'svc_';

export interface AdminContext {
  em: Em;
  clock: Clock;
}

export interface IssuedKey {
  key: ApiKey;
  secret: string;
}

/** Stores a new key for a user; the secret is returned once and only its hash is kept. */
export async function issueKey(
  actx: AdminContext,
  owner: { workspaceId: string; userId: string },
  attributes: KeyAttributes,
  createdByKeyId: string | null = null,
): Promise<IssuedKey> {
  const attrs = KeyAttributesSchema.parse(attributes);
  const scopes = [...new Set(attrs.scopes ?? [])];
  const readonly = Boolean(attrs.readonly) || scopes.includes(READONLY_SCOPE);
  const secret = newSecret(KEY_PREFIX);
  const key = actx.em.create(ApiKey, {
    id: newId('key'),
    workspaceId: owner.workspaceId,
    userId: owner.userId,
    name: attrs.name ?? null,
    secretHash: sha256Hex(secret),
    preview: previewOf(secret),
    scopes: scopes.filter((s) => s !== READONLY_SCOPE),
    readonly,
    ratePerMinute: attrs.ratePerMinute ?? null,
    monthlyQuestionLimit: attrs.monthlyQuestionLimit ?? null,
    expiresAt: attrs.expiresAt ? new Date(attrs.expiresAt) : null,
    revokedAt: null,
    createdByKeyId,
    createdAt: actx.clock.now(),
  });
  await actx.em.flush();
  return { key, secret };
}

export async function revokeKeyById(actx: AdminContext, keyId: string, workspaceId?: string): Promise<ApiKey> {
  const key = await actx.em.findOne(ApiKey, workspaceId ? { id: keyId, workspaceId } : { id: keyId });
  if (!key) throw errors.notFound(`API key not found: ${keyId}`);
  key.revokedAt ??= actx.clock.now();
  await actx.em.flush();
  return key;
}

export const AuthMessages = {
  missing: 'Missing API key: send Authorization: Bearer <API_KEY> or x-api-key',
  invalid: 'Invalid or revoked API key',
  expired: 'API key expired',
  unknownUser: 'User not found for this API key',
} as const;

/**
 * Resolves a presented secret to its caller, or throws the auth-stage error of SPEC
 * (401 variants, 403 client_suspended). The lookup is by hash; the final comparison is constant-time.
 */
export async function authenticateSecret(em: Em, clock: Clock, secret: string | undefined): Promise<Caller> {
  if (!secret) throw errors.unauthorized(AuthMessages.missing);
  const hash = sha256Hex(secret);
  const key = await em.findOne(ApiKey, { secretHash: hash });
  if (!key || !constantTimeEqualHex(key.secretHash, hash) || key.revokedAt) {
    throw errors.unauthorized(AuthMessages.invalid);
  }
  if (key.expiresAt && key.expiresAt.getTime() <= clock.now().getTime()) throw errors.unauthorized(AuthMessages.expired);
  const user = await em.findOne(User, { id: key.userId, workspaceId: key.workspaceId });
  if (!user) throw errors.unauthorized(AuthMessages.unknownUser);
  const workspace = await em.findOneOrFail(Workspace, { id: key.workspaceId });
  if (workspace.suspended) throw errors.clientSuspended();
  return {
    workspace,
    user,
    key,
    scopes: key.scopes,
    restricted: isRestricted(key.scopes),
    readonly: key.readonly,
  };
}

/** Reads a key from `Authorization: Bearer` or `x-api-key`. */
export function secretFromHeaders(headers: { authorization?: string | null; 'x-api-key'?: string | null }): string | undefined {
  const auth = headers.authorization?.trim();
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    if (m) return m[1].trim();
  }
  const x = headers['x-api-key']?.trim();
  return x || undefined;
}
