/** The people module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { assertSameOrigin } from './csrf.js';
export { createMailer, type Mailer } from './mailer.js';
export { AcceptInvitationSchema, AuthUserSchema, ChangePasswordSchema, PasswordResetConfirmSchema, PasswordResetRequestSchema, SignInSchema } from './people.schemas.js';
export { changePasswordOp } from './operations.js';
export { acceptInvitation, confirmPasswordReset, createPerson, firstAdminLink, invite, type OpenedSession, peopleByIds, peopleContext, requestPasswordReset, setPassword, signIn, signOut, toAuthUser, toPersonDto } from './people.service.js';
export { authenticateSession, clearedSessionCookie, findLiveSession, hasSessionCookie, isTrustedOrigin, ownOrigin, sessionCookie, type SessionCredentials, SessionMessages, sessionTokenOf } from './sessions.js';
export { SET_PASSWORD_PAGE, SET_PASSWORD_SCRIPT } from './set-password-page.js';
export { startPeopleSweep } from './sweep.js';
