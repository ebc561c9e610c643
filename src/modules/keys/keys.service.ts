import type { EntityName } from '@mikro-orm/core';
import type { Em } from '../../db/types.js';
import { preparedSql } from '../../db/sql.js';
import { errors } from '../../errors/index.js';
import type { AdminContext } from '../../core/context.js';
import type { KeyCaller } from '../../core/principal.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { constantTimeEqualHex, newSecret, previewOf, sha256Hex } from '../../lib/secrets.js';
import { recordAudit, SYSTEM_ACTOR } from '../audit/index.js';
import { User, Workspace } from '../workspaces/index.js';
import { ApiKey } from './api-key.entity.js';
import { KeyAttributesSchema, type KeyAttributes } from './keys.schemas.js';
import { isRestricted, READONLY_SCOPE } from '../../core/scopes.js';

export const KEY_PREFIX = 'svc_';


export interface IssuedKey {
  key: ApiKey;
  secret: string;
}

/**
 * Stores a new key for a user; the secret is returned once and only its hash is kept. `parentKeyId`
 * is the key that created it through the API: revoking that key revokes this one. Without it (CLI,
 * signed-in people) the key is independent.
 */
export async function issueKey(
  actx: AdminContext,
  owner: { workspaceId: string; userId: string },
  attributes: KeyAttributes,
  parentKeyId: string | null = null,
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
    parentKeyId,
    createdAt: actx.clock.now(),
  });
  await actx.em.flush();
  return { key, secret };
}

export interface RevokedKey {
  key: ApiKey;
  /** Keys created by this key, directly or through other keys, that this revocation revoked. */
  revokedDescendants: number;
}

/**
 * Revokes a key and every key it created through the API, transitively, in one statement (a
 * recursive walk down `parent_key_id`); each is refused at its next call. Keys already revoked keep
 * their date, the key itself included, so revoking again only catches descendants that escaped.
 */
export async function revokeKeyAndDescendants(em: Em, key: ApiKey, now: Date): Promise<RevokedKey> {
  const rows = await em.execute<{ id: string }[]>(
    `with recursive lineage(id) as (
       select cast(? as varchar)
       union
       select k.id from api_key k join lineage l on k.parent_key_id = l.id
     )
     update api_key set revoked_at = ?
      where workspace_id = ? and revoked_at is null and id in (select id from lineage)
     returning id`,
    [key.id, now, key.workspaceId],
  );
  await em.refresh(key);
  return { key, revokedDescendants: rows.filter((r) => r.id !== key.id).length };
}

/** CLI `key revoke`: any key of any workspace (or of the given one), with its descendants; audited as the system's act. */
export async function revokeKeyById(actx: AdminContext, keyId: string, workspaceId?: string): Promise<RevokedKey> {
  return actx.em.transactional(async (em) => {
    const key = await em.findOne(ApiKey, workspaceId ? { id: keyId, workspaceId } : { id: keyId });
    if (!key) throw errors.notFound('apiKey', keyId);
    const revoked = await revokeKeyAndDescendants(em, key, actx.clock.now());
    recordAudit(em, actx.clock, { actor: SYSTEM_ACTOR }, {
      workspaceId: key.workspaceId,
      action: 'key.revoked',
      target: { type: 'apiKey', id: key.id },
      details: { name: key.name ?? null, userId: key.userId, revokedDescendants: revoked.revokedDescendants, by: 'operator' },
    });
    return revoked;
  });
}

export const AuthMessages = {
  missing: 'Missing API key: send Authorization: Bearer <API_KEY> or x-api-key',
  invalid: 'Invalid or revoked API key',
  expired: 'API key expired',
  unknownUser: 'User not found for this API key',
} as const;

/** `alias.column as "prefix_column"` for every column of an entity, to split a joined row apart again. */
function selectColumns<T extends object>(em: Em, entity: EntityName<T>, alias: string): string {
  return em
    .getMetadata(entity)
    .props.flatMap((p) => p.fieldNames ?? [])
    .map((column) => `${alias}.${column} as "${alias}_${column}"`)
    .join(', ');
}

/** The columns of one alias from a joined row, unprefixed; null when the outer join found nothing. */
function part(row: Record<string, unknown>, alias: string): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (k.startsWith(`${alias}_`)) out[k.slice(alias.length + 1)] = v;
  return out.id === null || out.id === undefined ? null : out;
}

/** The joined row of a key (`k_…`), its user (`u_…`) and workspace (`w_…`), and `ancestor_revoked`. */
export type KeyRow = Record<string, unknown>;

/**
 * The one query of a key check: the key by hash, its user and workspace joined, and whether any ancestor
 * key is revoked. The ancestor walk is what makes a key created while its parent was being revoked fail
 * as well: revocation marks the descendants it sees, and this catches one inserted concurrently. A named
 * prepared statement: planning it cost PostgreSQL two to three times its execution.
 */
export async function lookupKeyRow(em: Em, hash: string): Promise<KeyRow | undefined> {
  const [row] = await preparedSql(em, (lookupSql ??= keyLookupSql(em)), [hash]);
  return row;
}

/** The lookup's SQL text, built once from the entities' metadata. */
let lookupSql: string | undefined;
const keyLookupSql = (em: Em): string =>
  `with recursive ancestors(id, parent_key_id, revoked_at) as (
       select p.id, p.parent_key_id, p.revoked_at from api_key c join api_key p on p.id = c.parent_key_id where c.secret_hash = $1
       union
       select p.id, p.parent_key_id, p.revoked_at from ancestors a join api_key p on p.id = a.parent_key_id
     )
     select ${selectColumns(em, ApiKey, 'k')}, ${selectColumns(em, User, 'u')}, ${selectColumns(em, Workspace, 'w')},
            exists (select 1 from ancestors where revoked_at is not null) as "ancestor_revoked",
            md5(concat_ws('|', k::text, u::text, w::text)) as "fingerprint"
       from api_key k
       join workspace w on w.id = k.workspace_id
       left join app_user u on u.id = k.user_id and u.workspace_id = k.workspace_id
      where k.secret_hash = $1`;

/**
 * A key's lookup, hydrated: the key, its user (null when the user is gone) and workspace as entities, and
 * whether the key or an ancestor is revoked. Made once per lookup and shared by the calls that share it
 * (src/modules/keys/runtime.ts): the entities are read, never changed, by the use cases.
 */
export interface KeyRecord {
  key: ApiKey;
  user: User | null;
  workspace: Workspace;
  revoked: boolean;
  /** The lookup's md5 of the key, user and workspace rows (`lookupKeyRow`): what the entities were made of. */
  fingerprint: string | null;
}

/** Hydrates a lookup's joined row (`lookupKeyRow`) into its entities, or null when no key or workspace matched. */
export function hydrateKeyRow(em: Em, row: KeyRow | undefined): KeyRecord | null {
  const keyRow = row ? part(row, 'k') : null;
  const wsRow = row ? part(row, 'w') : null;
  if (!row || !keyRow || !wsRow) return null;
  const userRow = part(row, 'u');
  // The joined row's columns by alias: the lookup is one raw statement, so its parts have no static type.
  return {
    key: em.map(ApiKey, keyRow as never),
    user: userRow ? em.map(User, userRow as never) : null,
    workspace: em.map(Workspace, wsRow as never),
    revoked: Boolean(keyRow.revoked_at) || row.ancestor_revoked === true,
    fingerprint: typeof row.fingerprint === 'string' ? row.fingerprint : null,
  };
}

/** One key check's lookup and hydration (`lookupKeyRow`, `hydrateKeyRow`). */
export async function lookupKey(em: Em, hash: string): Promise<KeyRecord | null> {
  return hydrateKeyRow(em, await lookupKeyRow(em, hash));
}

/** Hydrated lookups kept per secret hash (`KeyRecords`); past this many keys the memory starts again empty. */
const MAX_KEPT_RECORDS = 10_000;

/**
 * The entities of each key's last lookup, by secret hash (issue 28). Reused by the next lookup of that key
 * while its joined row is unchanged (at one connection, hydrating the key, its user and workspace was a tenth
 * of a gateway call's CPU): the row's `fingerprint` (an md5 of the key, user and workspace rows as text) says
 * whether anything changed, and a changed row is hydrated anew; `revoked` is read from every lookup, since an
 * ancestor's revocation is not in the key's own row. And remembered (`remembered`) for a caller whose
 * rates' or admission's statement confirms its key, without a lookup (`authenticateSecret`). The entities are
 * read, never changed, by the use cases, as when calls share a lookup.
 */
export class KeyRecords {
  private readonly kept = new Map<string, KeyRecord>();

  /** The record of a lookup's row (`lookupKeyRow`), hydrated in a fork of `em` only when the row changed. */
  resolve(em: Em, hash: string, row: KeyRow | undefined): KeyRecord | null {
    const fingerprint = typeof row?.fingerprint === 'string' ? row.fingerprint : undefined;
    const kept = fingerprint ? this.kept.get(hash) : undefined;
    if (row && kept && kept.fingerprint === fingerprint) {
      const revoked = Boolean(kept.key.revokedAt) || row.ancestor_revoked === true;
      if (revoked === kept.revoked) return kept;
      const updated = { ...kept, revoked };
      this.kept.set(hash, updated);
      return updated;
    }
    const record = hydrateKeyRow(em.fork(), row);
    if (!record || !fingerprint) {
      this.kept.delete(hash);
      return record;
    }
    if (this.kept.size >= MAX_KEPT_RECORDS) this.kept.clear();
    this.kept.set(hash, record);
    return record;
  }

  /** The record of the key's last lookup in this process, if any: possibly out of date. */
  remembered(hash: string): KeyRecord | undefined {
    return this.kept.get(hash);
  }

  /** Keys whose entities are kept (for tests). */
  get size(): number {
    return this.kept.size;
  }
}

/** A key caller made from the process's memory of its key's last lookup: the hash and the row it was made of. */
export interface RememberedKey {
  hash: string;
  fingerprint: string;
}

/**
 * Resolves a presented secret to its caller, or throws the auth-stage error of SPEC
 * (401 variants, 403 client_suspended, 403 provider_unpaid). The lookup is by hash; the final comparison is
 * constant-time. By default one lookup per call (`lookupKey`, or `lookup`: the request pipeline shares one
 * lookup, hydrated once, between the calls with the same key that arrive while the previous lookup of that
 * key is in flight, each still answered by a lookup made after it arrived), so a revocation or a change takes
 * effect at the next call.
 *
 * With `remembered` (every admitted REST request: the pipeline confirms the key in the statement that counts its
 * rates, `svc_rate_take`, or its admission's, `svc_rate_admit`, or by a lookup when it counts nothing), a key this process looked up before and that passed every check then makes the caller
 * from that lookup's entities, without a statement, marked `remembered`: the admission (or a lookup before
 * any earlier refusal) confirms it, and a changed key starts the request again (`StaleCaller`). A refusal is
 * never decided from memory: a remembered record that fails a check is looked up again.
 */
export async function authenticateSecret(
  em: Em,
  clock: Clock,
  secret: string | undefined,
  lookup: (hash: string) => Promise<KeyRecord | null | undefined> = (hash) => lookupKey(em, hash),
  remembered?: (hash: string) => KeyRecord | undefined,
): Promise<KeyCaller> {
  if (!secret) throw errors.unauthorized(AuthMessages.missing);
  const hash = sha256Hex(secret);
  const kept = remembered?.(hash);
  const fromMemory = kept?.fingerprint ? callerOf(kept, hash, clock.now()) : undefined;
  if (kept?.fingerprint && fromMemory && !(fromMemory instanceof Error)) return { ...fromMemory, remembered: { hash, fingerprint: kept.fingerprint } };
  const caller = callerOf(await lookup(hash), hash, clock.now());
  if (caller instanceof Error) throw caller;
  return caller;
}

/** The caller of a lookup's record at `now`, or its auth-stage refusal in SPEC's order. */
function callerOf(found: KeyRecord | null | undefined, hash: string, now: Date): KeyCaller | Error {
  if (!found || !constantTimeEqualHex(found.key.secretHash, hash) || found.revoked) return errors.unauthorized(AuthMessages.invalid);
  const { key, user, workspace } = found;
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return errors.unauthorized(AuthMessages.expired);
  if (!user) return errors.unauthorized(AuthMessages.unknownUser);
  return workspaceRefusal(workspace, now) ?? keyCaller(workspace, user, key);
}

/** The caller of an API key: metered under the key's id, limited by its `ratePerMinute` and `monthlyQuestionLimit`. */
export function keyCaller(workspace: Workspace, user: User, key: ApiKey): KeyCaller {
  const rate = key.ratePerMinute;
  return {
    kind: 'key',
    workspace,
    user,
    key,
    limits: {
      meter: key.id,
      rates: rate === null || rate === undefined ? [] : [{ bucket: `key:${key.id}`, perMinute: rate }],
      monthlyQuestions: key.monthlyQuestionLimit ?? null,
    },
    scopes: key.scopes,
    restricted: isRestricted(key.scopes),
    readonly: key.readonly,
  };
}

/**
 * The workspace's own refusals, read from the workspace row the key lookup already joins (no query of
 * their own): 403 client_suspended (suspended by its integrator or an operator), then 403
 * provider_unpaid once its integrator's overdue invoice has passed the grace period (docs/partner.md).
 */
export function assertWorkspaceOpen(workspace: Pick<Workspace, 'suspended' | 'providerUnpaidAfter'>, now: Date): void {
  const refusal = workspaceRefusal(workspace, now);
  if (refusal) throw refusal;
}

function workspaceRefusal(workspace: Pick<Workspace, 'suspended' | 'providerUnpaidAfter'>, now: Date): Error | undefined {
  if (workspace.suspended) return errors.clientSuspended();
  const unpaidAfter = workspace.providerUnpaidAfter;
  if (unpaidAfter && unpaidAfter.getTime() <= now.getTime()) return errors.providerUnpaid();
  return undefined;
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
