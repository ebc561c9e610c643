import { parseCookie, stringifySetCookie } from 'cookie';
import type { PersonCaller } from '../../core/principal.js';
import type { Deps } from '../../core/deps.js';
import type { Em } from '../../db/types.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { newSecret, sha256Hex } from '../../lib/secrets.js';
import { assertWorkspaceOpen } from '../keys/index.js';
import { User, Workspace } from '../workspaces/index.js';
import { assertSameOrigin, type CrossSiteFacts } from './csrf.js';
import { PersonSession } from './people.entity.js';

/** The session cookie's name. */
export const SESSION_COOKIE = 'svc_session';
/** A session unused for this long is over (docs/people.md). */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
/** A session is over this long after sign-in, however much it is used (docs/people.md). */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** `last_seen_at` is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60 * 1000;

export const SessionMessages = {
  missing: 'Not signed in',
  expired: 'Session expired or closed: sign in again',
} as const;

/** What an adapter passes to authenticate a request by its session cookie. */
export interface SessionCredentials extends CrossSiteFacts {
  /** The request's `Cookie` header. */
  cookie?: string | null;
  /** The origin the request reached (`proto://host`), used when SVC_PUBLIC_URL is unset. */
  requestOrigin: string;
}

export const sessionTokenOf = (cookieHeader: string | null | undefined): string | undefined =>
  cookieHeader ? parseCookie(cookieHeader)[SESSION_COOKIE] || undefined : undefined;

export const hasSessionCookie = (c: SessionCredentials): boolean => sessionTokenOf(c.cookie) !== undefined;

/** Plain http on localhost / 127.0.0.1 / ::1 is the one place the cookie goes without `Secure`. */
function isPlainLocalhost(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** The service's own origin: SVC_PUBLIC_URL's, or the request's. */
export const ownOrigin = (app: Deps, requestOrigin: string): string => (app.config.publicUrl ? new URL(app.config.publicUrl).origin : requestOrigin);

/**
 * Whether a browser page of `origin` is trusted with people's sessions (docs/security.md): the
 * service's own origin (the console's) and the operator's list SVC_CORS_ORIGINS. The CSRF check and
 * CORS on /graphql read the same answer.
 */
export const isTrustedOrigin = (app: Deps, requestOrigin: string, origin: string): boolean =>
  origin === ownOrigin(app, requestOrigin) || app.config.corsOrigins.includes(origin);

/**
 * `Set-Cookie` opening a session: httpOnly, SameSite=Lax, Secure except on plain localhost. Max-Age
 * (not Expires) until the absolute end, so a browser's clock does not matter; the server enforces both
 * periods anyway.
 */
export function sessionCookie(app: Deps, requestOrigin: string, token: string, expiresAt: Date): string {
  return stringifySetCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: !isPlainLocalhost(ownOrigin(app, requestOrigin)),
    path: '/',
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - app.clock.now().getTime()) / 1000)),
  });
}

/** `Set-Cookie` removing the session cookie. */
export function clearedSessionCookie(app: Deps, requestOrigin: string): string {
  return stringifySetCookie(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: !isPlainLocalhost(ownOrigin(app, requestOrigin)),
    path: '/',
    maxAge: 0,
  });
}

/** Opens a session for an active user; the token is returned once, only its hash is stored. */
export async function openSession(em: Em, now: Date, user: User): Promise<{ session: PersonSession; token: string }> {
  const token = newSecret('svs_');
  const session = em.create(PersonSession, {
    id: newId('ses'),
    tokenHash: sha256Hex(token),
    userId: user.id,
    workspaceId: user.workspaceId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
    closedAt: null,
  });
  await em.flush();
  return { session, token };
}

/** Closes every open session of a user, but `keep` (the one changing its password). */
export async function closeSessions(em: Em, now: Date, userId: string, keep?: string): Promise<number> {
  return em.nativeUpdate(
    PersonSession,
    { userId, closedAt: null, ...(keep ? { id: { $ne: keep } } : {}) },
    { closedAt: now },
  );
}

const isLive = (s: PersonSession, now: number): boolean =>
  !s.closedAt && s.expiresAt.getTime() > now && s.lastSeenAt.getTime() + SESSION_IDLE_MS > now;

/**
 * The open session behind a token with its active user and workspace, or null (unknown, closed, idle
 * too long, past its absolute end, user no longer active). Moves `last_seen_at` forward.
 */
export async function findLiveSession(em: Em, now: Date, token: string | undefined): Promise<{ session: PersonSession; user: User; workspace: Workspace } | null> {
  if (!token) return null;
  const session = await em.findOne(PersonSession, { tokenHash: sha256Hex(token) });
  if (!session || !isLive(session, now.getTime())) return null;
  const [user, workspace] = await Promise.all([
    em.findOne(User, { id: session.userId, workspaceId: session.workspaceId }),
    em.findOne(Workspace, { id: session.workspaceId }),
  ]);
  if (!user || !workspace || user.state !== 'active') return null;
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await em.nativeUpdate(PersonSession, { id: session.id }, { lastSeenAt: now });
    session.lastSeenAt = now;
  }
  return { session, user, workspace };
}

/** The meter of a signed-in person: the ledger's key column and the per-caller ceilings count per person. */
export const personMeter = (userId: string): string => `person:${userId}`;

/**
 * A signed-in person: no key, so no per-key rate or monthly budget; metered as `person:<userId>` (usage by
 * key lists each person apart); what they may do is their role's (docs/people.md).
 */
export function personCaller(session: PersonSession, user: User, workspace: Workspace): PersonCaller {
  return {
    kind: 'person',
    workspace,
    user,
    person: { sessionId: session.id, role: user.role },
    limits: { meter: personMeter(user.id), rates: [], monthlyQuestions: null },
    scopes: [],
    restricted: false,
    readonly: false,
  };
}

/**
 * The request pipeline's step 1 for a signed-in person (`authenticate`, src/pipeline/pipeline.ts):
 * a request from an untrusted origin, or a write with neither Origin nor Referer, is 403 csrf_rejected
 * (csrf.ts); the session must be live
 * (401), the workspace not suspended nor its integrator unpaid (403 client_suspended, provider_unpaid).
 */
export async function authenticateSession(app: Deps, credentials: SessionCredentials): Promise<PersonCaller> {
  assertSameOrigin(credentials, (origin) => isTrustedOrigin(app, credentials.requestOrigin, origin));
  const now = app.clock.now();
  const found = await findLiveSession(app.orm.em.fork(), now, sessionTokenOf(credentials.cookie));
  if (!found) throw errors.unauthorized(SessionMessages.expired);
  assertWorkspaceOpen(found.workspace, now);
  return personCaller(found.session, found.user, found.workspace);
}
