import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Deps } from '../src/core/deps.js';
import { errors } from '../src/errors/index.js';
import { assertSameOrigin } from '../src/modules/people/index.js';
import {
  acceptInvitation,
  changePasswordOp,
  confirmPasswordReset,
  requestPasswordReset,
  signIn,
  signOut,
  toAuthUser,
  type OpenedSession,
} from '../src/modules/people/index.js';
import {
  AcceptInvitationSchema,
  AuthUserSchema,
  ChangePasswordSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  SignInSchema,
} from '../src/modules/people/index.js';
import {
  clearedSessionCookie,
  findLiveSession,
  isTrustedOrigin,
  ownOrigin,
  SessionMessages,
  sessionCookie,
  sessionTokenOf,
  type SessionCredentials,
} from '../src/modules/people/index.js';
import { secretFromHeaders } from '../src/modules/keys/index.js';
import { openRequest } from '../src/pipeline/pipeline.js';
import { pageHeaders } from './page-headers.js';
import { credentialsOf, mountPublic, type Reply } from './route.js';
import { SET_PASSWORD_PAGE, SET_PASSWORD_SCRIPT } from '../src/modules/people/index.js';

/** The console's page headers; its script allowed by hash; no referrer (a link's token is on this page). */
const SET_PASSWORD_HEADERS = pageHeaders({ inlineScripts: [SET_PASSWORD_SCRIPT], referrerPolicy: 'no-referrer' });

const requestOrigin = (req: Request): string => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

const sessionCredentials = (req: Request): SessionCredentials => ({
  cookie: req.headers.cookie,
  method: req.method,
  origin: req.headers.origin,
  referer: req.headers.referer,
  requestOrigin: requestOrigin(req),
});

/** Whether an origin is trusted with the session (the service's own, SVC_CORS_ORIGINS). */
const trusted = (app: Deps, req: Request) => (origin: string) => isTrustedOrigin(app, requestOrigin(req), origin);

/**
 * Browsers send `Origin` on cross-site posts: a sign-in or a link confirmation from another site is
 * refused like a cookie-authenticated write (login CSRF). Clients that send neither header (curl,
 * scripts) are not browsers and pass.
 */
function assertNotCrossSite(app: Deps, req: Request): void {
  if (req.headers.origin === undefined && req.headers.referer === undefined) return;
  assertSameOrigin(sessionCredentials(req), trusted(app, req));
}

const UserBody = z.object({ user: AuthUserSchema });

/** `/auth/*`: sign-in, sign-out, who is signed in, password change and the invitation and reset links (docs/people.md). */
export function authRouter(app: Deps): Router {
  const r = Router();
  const base = { public: true, scope: null, tag: 'auth' } as const;
  const opened = (req: Request, s: OpenedSession): Reply => ({
    status: 200,
    body: { user: toAuthUser(s.user) },
    headers: { 'set-cookie': sessionCookie(app, requestOrigin(req), s.token, s.expiresAt) },
  });
  const peopleCtx = (req: Request) => ({
    em: app.orm.em.fork(),
    clock: app.clock,
    log: req.log,
    mailer: app.mailer,
    linkBase: ownOrigin(app, requestOrigin(req)),
  });

  mountPublic(r, app, {
    ...base,
    method: 'post',
    path: '/auth/sign-in',
    summary:
      'Sign in with e-mail and password: opens a session (cookie `svc_session`, httpOnly, SameSite=Lax, Secure except on plain localhost). Wrong credentials: one generic 401; throttled per account and per address (429 + retry-after)',
    body: SignInSchema,
    responses: {
      200: { description: 'Signed in; `Set-Cookie` holds the session', schema: UserBody },
      400: { description: 'email or password missing or not a string' },
      401: { description: 'Wrong e-mail or password, or an account that may not sign in (one answer for all)' },
      403: { description: 'csrf_rejected: sent from another origin' },
      429: { description: 'rate_limited: too many failed sign-ins for this account or address; retry-after in seconds' },
    },
    handler: async (_ctx, req) => {
      assertNotCrossSite(app, req);
      return opened(req, await signIn({ em: app.orm.em.fork(), clock: app.clock }, req.body, req.ip, req.requestId));
    },
  });

  mountPublic(r, app, {
    ...base,
    method: 'post',
    path: '/auth/sign-out',
    summary: 'Closes the session of the cookie (a cookie-authenticated write: Origin checked) and clears the cookie',
    responses: { 204: { description: 'Signed out (also when no session was open)' }, 403: { description: 'csrf_rejected' } },
    handler: async (_ctx, req) => {
      const token = sessionTokenOf(req.headers.cookie);
      if (token) {
        assertSameOrigin(sessionCredentials(req), trusted(app, req));
        await signOut(app.orm.em.fork(), app.clock.now(), token);
      }
      return { status: 204, headers: { 'set-cookie': clearedSessionCookie(app, requestOrigin(req)) } };
    },
  });

  mountPublic(r, app, {
    ...base,
    method: 'get',
    path: '/auth/me',
    summary: 'Who is signed in (session cookie)',
    responses: {
      200: { description: 'The signed-in person', schema: UserBody },
      401: { description: 'Not signed in, or the session is over' },
      403: { description: 'csrf_rejected: sent from an origin that is not trusted (docs/security.md)' },
    },
    handler: async (_ctx, req) => {
      const token = sessionTokenOf(req.headers.cookie);
      // Read by the cookie, so from a trusted origin (or with neither Origin nor Referer) only.
      if (token) assertSameOrigin(sessionCredentials(req), trusted(app, req));
      const found = await findLiveSession(app.orm.em.fork(), app.clock.now(), token);
      if (!found) throw errors.unauthorized(token ? SessionMessages.expired : SessionMessages.missing);
      return { status: 200, body: { user: toAuthUser(found.user) } };
    },
  });

  mountPublic(r, app, {
    ...base,
    method: 'post',
    path: '/auth/password',
    summary: "Changes the signed-in person's password (session cookie, Origin checked); their other sessions close",
    body: ChangePasswordSchema,
    responses: {
      204: { description: 'Changed' },
      400: { description: 'currentPassword wrong, or newPassword outside the policy' },
      401: { description: 'Not signed in' },
      403: { description: 'csrf_rejected; person_required for an API key' },
    },
    handler: async (_ctx, req) => {
      if (!sessionTokenOf(req.headers.cookie) && !secretFromHeaders(credentialsOf(req))) throw errors.unauthorized(SessionMessages.missing);
      // The request pipeline with the session accepted, with the operation's needs: an API key is refused with 403 person_required.
      const ctx = await openRequest(
        app,
        { ...credentialsOf(req), session: sessionCredentials(req) },
        { name: 'POST /auth/password', needs: changePasswordOp.needs },
        { requestId: req.requestId, address: req.ip },
      );
      try {
        await changePasswordOp.run(ctx, { body: req.body });
      } finally {
        await ctx.scope.dispose();
      }
      return { status: 204 };
    },
  });

  mountPublic(r, app, {
    ...base,
    method: 'post',
    path: '/auth/invitations/accept',
    summary:
      'Sets the password from an invitation link (single use, expires after 7 days); the account becomes active and is signed in. `email` only for an account that has none yet (the first admin)',
    body: AcceptInvitationSchema,
    responses: {
      200: { description: 'Active and signed in; `Set-Cookie` holds the session', schema: UserBody },
      400: { description: 'link_invalid (unknown, used or expired), or a field outside the policy' },
      429: { description: 'rate_limited: too many invalid links from this address; retry-after in seconds' },
    },
    handler: async (_ctx, req) => {
      assertNotCrossSite(app, req);
      return opened(req, await acceptInvitation({ em: app.orm.em.fork(), clock: app.clock }, req.body, req.ip, req.requestId));
    },
  });

  mountPublic(r, app, {
    ...base,
    method: 'post',
    path: '/auth/password-reset',
    summary: 'Mails a password-reset link (single use, expires after 1 hour) when the e-mail belongs to an active account; the answer is the same either way',
    body: PasswordResetRequestSchema,
    responses: {
      202: { description: 'Accepted (whether or not the e-mail is known)', schema: z.object({}) },
      400: { description: 'email missing or not a string' },
      429: { description: 'rate_limited: too many requests from this address or for this e-mail; retry-after in seconds' },
    },
    handler: async (_ctx, req) => {
      await requestPasswordReset(peopleCtx(req), req.body, req.ip);
      return { status: 202, body: {} };
    },
  });

  mountPublic(r, app, {
    ...base,
    method: 'post',
    path: '/auth/password-reset/confirm',
    summary: 'Sets a new password from a reset link; every session of the account closes and a new one opens',
    body: PasswordResetConfirmSchema,
    responses: {
      200: { description: 'Changed and signed in; `Set-Cookie` holds the session', schema: UserBody },
      400: { description: 'link_invalid (unknown, used or expired), or a password outside the policy' },
      429: { description: 'rate_limited: too many invalid links from this address; retry-after in seconds' },
    },
    handler: async (_ctx, req) => {
      assertNotCrossSite(app, req);
      return opened(req, await confirmPasswordReset({ em: app.orm.em.fork(), clock: app.clock }, req.body, req.ip, req.requestId));
    },
  });

  mountPublic(r, app, {
    ...base,
    method: 'get',
    path: '/auth/set-password',
    summary: 'The page invitation and reset links open (HTML); the token is in the fragment (`#invite=` or `#reset=`), never sent to the server by the browser',
    responses: { 200: { description: 'HTML page' } },
    handler: async (_ctx, _req, res) => {
      res.status(200).set(SET_PASSWORD_HEADERS).send(SET_PASSWORD_PAGE);
    },
  });
  return r;
}
