import type { ServiceContext } from '../../core/context.js';
import type { Em } from '../../db/types.js';
import { ErrorCode, errors, isDomainError } from '../../errors/index.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { newSecret, sha256Hex } from '../../lib/secrets.js';
import { audit, personActor, recordAudit, recordSignInFailure, sourceOf, SYSTEM_ACTOR, type AuditSource } from '../audit/index.js';
import { User } from '../workspaces/index.js';
import { createUser, findWorkspaceOrFail } from '../workspaces/index.js';
import type { Mailer } from './mailer.js';
import { hashPassword, verifyNothing, verifyPassword } from './password.js';
import { PersonToken, type TokenKind } from './people.entity.js';
import {
  AcceptInvitationSchema,
  ChangePasswordSchema,
  CreatePersonSchema,
  EmailSchema,
  InvitePersonSchema,
  NewPasswordSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  SetPersonRoleSchema,
  SignInSchema,
  type AuthUser,
  type PersonDto,
} from './people.schemas.js';
import { closeSessions, openSession } from './sessions.js';
import {
  assertBucketRoom,
  assertNotThrottled,
  clearAccount,
  countIn,
  LINK_FAILURE_LIMIT,
  recordFailure,
  RESET_REQUEST_LIMITS,
  takeAttempt,
  throttleBuckets,
} from './throttle.js';

/** How long an invitation link works (docs/people.md). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a password-reset link works (docs/people.md). */
export const RESET_TTL_MS = 60 * 60 * 1000;

/** The one answer to wrong credentials, whatever was wrong (no enumeration). */
export const SIGN_IN_REFUSED = 'Invalid e-mail or password';

/**
 * What the people use cases need besides a caller: sign-in, the links and the CLI run before anyone is
 * authenticated. `linkBase` is the origin the links in mails point to (SVC_PUBLIC_URL, or the request's).
 */
export interface PeopleContext {
  em: Em;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  linkBase: string;
}

export const peopleContext = (ctx: ServiceContext, linkBase: string): PeopleContext => ({
  em: ctx.em,
  clock: ctx.clock,
  log: ctx.log,
  mailer: ctx.app.mailer,
  linkBase,
});

export const toAuthUser = (u: User): AuthUser => ({ id: u.id, email: u.email ?? '', name: u.name ?? null, role: u.role, workspaceId: u.workspaceId });

export const toPersonDto = (u: User): PersonDto => ({
  id: u.id,
  email: u.email ?? null,
  name: u.name ?? null,
  role: u.role,
  state: u.state,
  workspaceId: u.workspaceId,
  createdAt: u.createdAt.toISOString(),
});

/**
 * People of the caller's workspace by id, in the order asked (null for an id that names nobody there):
 * batched for the fields that name who did something (usage by person, …).
 */
export async function peopleByIds(ctx: ServiceContext, ids: readonly string[]): Promise<(PersonDto | null)[]> {
  const wanted = [...new Set(ids)].filter((id) => !id.includes('\u0000'));
  const found = wanted.length ? await ctx.em.find(User, { id: { $in: wanted }, workspaceId: ctx.caller.workspace.id }) : [];
  const byId = new Map(found.map((u) => [u.id, toPersonDto(u)]));
  return ids.map((id) => byId.get(id) ?? null);
}

export interface OpenedSession {
  user: User;
  /** The cookie's value: returned once, stored hashed. */
  token: string;
  expiresAt: Date;
}

/**
 * Opens a session for the right e-mail and password of an active account. Every wrong answer — unknown
 * e-mail, wrong password, account invited or disabled — is the same 401 after the same work (a dummy
 * hash is checked when there is nothing to check), and counts against the account and the address
 * (429 past the throttle's limits, src/modules/people/throttle.ts).
 */
export async function signIn(pctx: Pick<PeopleContext, 'em' | 'clock'>, input: unknown, ip: string | undefined, requestId?: string | null): Promise<OpenedSession> {
  // Sign-ins and failed sign-ins are audited in the account's workspace (the address is the client's).
  const data = SignInSchema.parse(input ?? {});
  const now = pctx.clock.now();
  const buckets = throttleBuckets(data.email, ip);
  await assertNotThrottled(pctx.em, now, buckets);
  const user = await pctx.em.findOne(User, { email: data.email.trim().toLowerCase() });
  const ok = user?.passwordHash ? await verifyPassword(data.password, user.passwordHash) : await verifyNothing(data.password);
  if (!ok || !user || user.state !== 'active') {
    await recordFailure(pctx.em, now, buckets);
    await recordSignInFailure(pctx.em, pctx.clock, { address: ip, requestId }, user?.id, user && user.state !== 'active' ? `account ${user.state}` : 'wrong password');
    throw errors.unauthorized(SIGN_IN_REFUSED);
  }
  await clearAccount(pctx.em, buckets);
  recordAudit(pctx.em, pctx.clock, { actor: personActor(user), address: ip, requestId }, {
    workspaceId: user.workspaceId,
    action: 'person.signed_in',
    target: { type: 'person', id: user.id },
  });
  const { session, token } = await openSession(pctx.em, now, user);
  return { user, token, expiresAt: session.expiresAt };
}

/** Closes the session behind a token, if any. */
export async function signOut(em: Em, now: Date, token: string | undefined): Promise<void> {
  if (!token) return;
  await em.execute('update person_session set closed_at = ? where token_hash = ? and closed_at is null', [now, sha256Hex(token)]);
}

/** Changes the signed-in person's password, closing their other sessions. */
export async function changePassword(ctx: ServiceContext, input: unknown): Promise<void> {
  const data = ChangePasswordSchema.parse(input ?? {});
  const user = await ctx.em.findOneOrFail(User, { id: ctx.caller.user.id });
  if (!user.passwordHash || !(await verifyPassword(data.currentPassword, user.passwordHash))) {
    throw errors.validation('currentPassword', 'currentPassword is wrong');
  }
  user.passwordHash = await hashPassword(data.newPassword);
  audit(ctx, { action: 'person.password_changed', target: { type: 'person', id: user.id } });
  await ctx.em.flush();
  await closeSessions(ctx.em, ctx.clock.now(), user.id, ctx.caller.kind === 'person' ? ctx.caller.person.sessionId : undefined);
}

/** The people of the caller's workspace, oldest first. */
export async function listPeople(ctx: ServiceContext): Promise<User[]> {
  return ctx.em.find(User, { workspaceId: ctx.caller.workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

async function findPerson(ctx: ServiceContext, id: string): Promise<User> {
  const user = await ctx.em.findOne(User, { id, workspaceId: ctx.caller.workspace.id });
  if (!user) throw errors.notFound('user', id);
  return user;
}

/** The workspace keeps at least one active admin who can sign in (users only API keys act for do not count). */
async function assertOtherAdmin(em: Em, user: User): Promise<void> {
  if (user.role !== 'admin' || user.state !== 'active' || !user.passwordHash) return;
  const admins = await em.count(User, {
    workspaceId: user.workspaceId,
    role: 'admin',
    state: 'active',
    passwordHash: { $ne: null },
    id: { $ne: user.id },
  });
  if (admins === 0) throw errors.validation(null, 'The workspace must keep at least one active admin who can sign in');
}

export async function setPersonRole(ctx: ServiceContext, id: string, input: unknown): Promise<User> {
  const { role } = SetPersonRoleSchema.parse(input ?? {});
  const user = await findPerson(ctx, id);
  if (role !== 'admin') await assertOtherAdmin(ctx.em, user);
  if (user.role !== role) {
    audit(ctx, { action: 'person.role_changed', target: { type: 'person', id: user.id }, details: { email: user.email ?? null, from: user.role, to: role } });
  }
  user.role = role;
  await ctx.em.flush();
  return user;
}

/** Disables a person: their sessions close and they can no longer sign in (their API keys are not touched). */
export async function disablePerson(ctx: ServiceContext, id: string): Promise<User> {
  const user = await findPerson(ctx, id);
  await assertOtherAdmin(ctx.em, user);
  if (user.state !== 'disabled') {
    audit(ctx, { action: 'person.disabled', target: { type: 'person', id: user.id }, details: { email: user.email ?? null, role: user.role, previousState: user.state } });
  }
  user.state = 'disabled';
  await ctx.em.flush();
  await closeSessions(ctx.em, ctx.clock.now(), user.id);
  return user;
}

/** A single-use link's token: the previous unused ones of the same kind are voided; only the hash is kept. */
async function issueToken(em: Em, now: Date, userId: string, kind: TokenKind): Promise<{ token: string; expiresAt: Date }> {
  await em.nativeUpdate(PersonToken, { userId, kind, usedAt: null }, { usedAt: now });
  const token = newSecret('');
  const expiresAt = new Date(now.getTime() + (kind === 'invite' ? INVITATION_TTL_MS : RESET_TTL_MS));
  em.create(PersonToken, { id: newId('ptk'), tokenHash: sha256Hex(token), userId, kind, createdAt: now, expiresAt, usedAt: null });
  await em.flush();
  return { token, expiresAt };
}

/** The page a link opens (`GET /auth/set-password`); the token travels in the fragment, never to a server log. */
export const linkFor = (base: string, kind: TokenKind, token: string): string => `${base}/auth/set-password#${kind}=${token}`;

/** Consumes a link's token (once, before it expires) and returns its user, or 400 link_invalid. */
async function consumeToken(em: Em, now: Date, token: string, kind: TokenKind): Promise<User> {
  const rows = await em.execute<{ user_id: string }[]>(
    `update person_token set used_at = ? where token_hash = ? and kind = ? and used_at is null and expires_at > ? returning user_id`,
    [now, sha256Hex(token), kind, now],
  );
  const user = rows[0] ? await em.findOne(User, { id: rows[0].user_id }) : null;
  if (!user || user.state === 'disabled') throw errors.linkInvalid();
  return user;
}

export interface Invitation {
  user: User;
  expiresAt: Date;
  /** Whether the mail left (a failure is logged; inviting again sends a new link). */
  mailed: boolean;
}

async function sendMail(pctx: PeopleContext, to: string, subject: string, text: string): Promise<boolean> {
  try {
    await pctx.mailer.send({ to, subject, text });
    return true;
  } catch (err) {
    pctx.log.error({ err: err instanceof Error ? err.message : String(err), subject }, 'mail could not be sent');
    return false;
  }
}

/**
 * Invites a person into a workspace by e-mail with a role: an invited account (no password) and a
 * single-use link, mailed. Inviting again an account still invited sends a new link (the old one no
 * longer works); an e-mail already used by an account that signed up is refused.
 */
export async function invite(pctx: PeopleContext, workspaceId: string, input: unknown, source: AuditSource = { actor: SYSTEM_ACTOR }): Promise<Invitation> {
  const data = InvitePersonSchema.parse(input ?? {});
  const now = pctx.clock.now();
  let user = await pctx.em.findOne(User, { email: data.email });
  if (user && (user.workspaceId !== workspaceId || user.state !== 'invited')) throw errors.alreadyExists('An account with this e-mail already exists');
  if (user) {
    user.role = data.role;
    if (data.name !== undefined) user.name = data.name;
  } else {
    user = await createUser(pctx, workspaceId, { email: data.email, name: data.name ?? null, role: data.role, state: 'invited' });
  }
  // Written with the invitation's link (issueToken's flush).
  recordAudit(pctx.em, pctx.clock, source, {
    workspaceId,
    action: 'person.invited',
    target: { type: 'person', id: user.id },
    details: { email: data.email, role: data.role },
  });
  const { token, expiresAt } = await issueToken(pctx.em, now, user.id, 'invite');
  const ws = await findWorkspaceOrFail(pctx, workspaceId);
  const mailed = await sendMail(
    pctx,
    data.email,
    `Invitation to ${ws.name}`,
    [
      `You are invited to the workspace "${ws.name}" as ${data.role}.`,
      '',
      'Choose your password here (the link works once, until ' + expiresAt.toISOString() + '):',
      linkFor(pctx.linkBase, 'invite', token),
      '',
    ].join('\n'),
  );
  return { user, expiresAt, mailed };
}

/** GraphQL `invitePerson`: an admin, signed in, invites into their own workspace. */
export async function invitePerson(ctx: ServiceContext, input: unknown, linkBase: string): Promise<Invitation> {
  return invite(peopleContext(ctx, linkBase), ctx.caller.workspace.id, input, sourceOf(ctx));
}

/** Sets the password from an invitation link: the account becomes active and is signed in. */
export async function acceptInvitation(pctx: Pick<PeopleContext, 'em' | 'clock'>, input: unknown, ip?: string, requestId?: string | null): Promise<OpenedSession> {
  const data = AcceptInvitationSchema.parse(input ?? {});
  return withLinkThrottle(pctx, ip, data.password, (passwordHash) => pctx.em.transactional(async (em) => {
    const now = pctx.clock.now();
    const user = await consumeToken(em, now, data.token, 'invite');
    if (!user.email) {
      if (!data.email) throw errors.validation('email', 'email is required: this account has none yet');
      if (await em.findOne(User, { email: data.email })) throw errors.alreadyExists('An account with this e-mail already exists');
      user.email = data.email;
    }
    user.passwordHash = passwordHash;
    user.state = 'active';
    if (data.name !== undefined) user.name = data.name;
    recordAudit(em, pctx.clock, { actor: personActor(user), address: ip, requestId }, {
      workspaceId: user.workspaceId,
      action: 'person.invitation_accepted',
      target: { type: 'person', id: user.id },
      details: { email: user.email ?? null, role: user.role },
    });
    await em.flush();
    await closeSessions(em, now, user.id);
    const { session, token } = await openSession(em, now, user);
    return { user, token, expiresAt: session.expiresAt };
  }));
}

/**
 * Link confirmations from one address: refused (429) once it has sent `LINK_FAILURE_LIMIT` unknown, used
 * or expired tokens in the throttle's window; each such failure counts.
 */
async function withLinkThrottle<T>(
  pctx: Pick<PeopleContext, 'em' | 'clock'>,
  ip: string | undefined,
  password: string,
  run: (passwordHash: string) => Promise<T>,
): Promise<T> {
  const bucket = `links:address:${ip ?? 'unknown'}`;
  await assertBucketRoom(pctx.em, pctx.clock.now(), bucket, LINK_FAILURE_LIMIT);
  const passwordHash = await hashPassword(password);
  try {
    return await run(passwordHash);
  } catch (err) {
    if (isDomainError(err) && err.code === ErrorCode.linkInvalid) await countIn(pctx.em, pctx.clock.now(), bucket);
    throw err;
  }
}

/**
 * Mails a reset link when the e-mail belongs to an active account. Answers the same, at once, either
 * way: the work (token, mail) happens after the answer, so neither the body nor the timing tells.
 * Throttled per address and per e-mail, known or not (429 rate_limited).
 */
export async function requestPasswordReset(pctx: PeopleContext, input: unknown, ip?: string): Promise<void> {
  const { email } = PasswordResetRequestSchema.parse(input ?? {});
  const now = pctx.clock.now();
  await takeAttempt(pctx.em, now, `reset:address:${ip ?? 'unknown'}`, RESET_REQUEST_LIMITS.address);
  await takeAttempt(pctx.em, now, `reset:${throttleBuckets(email, ip).account}`, RESET_REQUEST_LIMITS.account);
  const parsed = EmailSchema.safeParse(email);
  if (!parsed.success) return;
  void (async () => {
    const user = await pctx.em.findOne(User, { email: parsed.data, state: 'active' });
    if (!user) return;
    const { token, expiresAt } = await issueToken(pctx.em, pctx.clock.now(), user.id, 'reset');
    await sendMail(
      pctx,
      parsed.data,
      'Reset your password',
      [
        'Someone asked to reset the password of your account. If it was not you, ignore this mail.',
        '',
        'Choose a new password here (the link works once, until ' + expiresAt.toISOString() + '):',
        linkFor(pctx.linkBase, 'reset', token),
        '',
      ].join('\n'),
    );
  })().catch((err) => pctx.log.error({ err: err instanceof Error ? err.message : String(err) }, 'password reset failed'));
}

/** Sets a new password from a reset link: every other session closes and a new one opens. */
export async function confirmPasswordReset(pctx: Pick<PeopleContext, 'em' | 'clock'>, input: unknown, ip?: string, requestId?: string | null): Promise<OpenedSession> {
  const data = PasswordResetConfirmSchema.parse(input ?? {});
  return withLinkThrottle(pctx, ip, data.password, (passwordHash) => pctx.em.transactional(async (em) => {
    const now = pctx.clock.now();
    const user = await consumeToken(em, now, data.token, 'reset');
    if (user.state !== 'active') throw errors.linkInvalid();
    user.passwordHash = passwordHash;
    recordAudit(em, pctx.clock, { actor: personActor(user), address: ip, requestId }, {
      workspaceId: user.workspaceId,
      action: 'person.password_reset',
      target: { type: 'person', id: user.id },
    });
    await em.flush();
    await closeSessions(em, now, user.id);
    const { session, token } = await openSession(em, now, user);
    return { user, token, expiresAt: session.expiresAt };
  }));
}

// ---- operators (CLI) ----

/** CLI `user create --email`: an active person with a password, or invited (no password yet). */
export async function createPerson(pctx: Pick<PeopleContext, 'em' | 'clock'>, workspaceId: string, input: unknown): Promise<User> {
  const data = CreatePersonSchema.parse(input ?? {});
  if (await pctx.em.findOne(User, { email: data.email })) throw errors.alreadyExists('An account with this e-mail already exists');
  const passwordHash = data.password ? await hashPassword(data.password) : null;
  return pctx.em.transactional(async (em) => {
    const user = await createUser({ em, clock: pctx.clock }, workspaceId, {
      email: data.email,
      name: data.name ?? null,
      role: data.role,
      passwordHash,
      state: passwordHash ? 'active' : 'invited',
    });
    recordAudit(em, pctx.clock, { actor: SYSTEM_ACTOR }, {
      workspaceId,
      action: 'person.created',
      target: { type: 'person', id: user.id },
      details: { email: user.email ?? null, role: user.role, state: user.state },
    });
    return user;
  });
}

/** CLI `user set-password`: the account becomes active (an invited one too); its sessions close. */
export async function setPassword(pctx: Pick<PeopleContext, 'em' | 'clock'>, userId: string, password: unknown): Promise<User> {
  const plain = NewPasswordSchema.parse(password);
  const user = await pctx.em.findOne(User, { id: userId });
  if (!user) throw errors.notFound('user', userId);
  if (!user.email) throw errors.validation('--email', 'This user has no e-mail: a password would not let anyone sign in');
  user.passwordHash = await hashPassword(plain);
  if (user.state === 'invited') user.state = 'active';
  recordAudit(pctx.em, pctx.clock, { actor: SYSTEM_ACTOR }, {
    workspaceId: user.workspaceId,
    action: 'person.password_reset',
    target: { type: 'person', id: user.id },
    details: { by: 'operator' },
  });
  await pctx.em.flush();
  await closeSessions(pctx.em, pctx.clock.now(), user.id);
  return user;
}

/**
 * First start: a link for the first admin (who has an API key but no e-mail or password yet) to choose
 * an e-mail and a password, printed with the key.
 */
export async function firstAdminLink(pctx: Pick<PeopleContext, 'em' | 'clock' | 'linkBase'>, user: User): Promise<{ link: string; expiresAt: Date }> {
  const { token, expiresAt } = await issueToken(pctx.em, pctx.clock.now(), user.id, 'invite');
  return { link: linkFor(pctx.linkBase, 'invite', token), expiresAt };
}

