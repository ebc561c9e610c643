import { z } from 'zod';
import { USER_ROLES } from '../../core/access.js';
import { USER_STATES } from '../workspaces/index.js';

export const EmailSchema = z
  .string({ error: 'email is required' })
  .trim()
  .min(3, 'email is required')
  .max(254, 'email must be at most 254 characters')
  .pipe(z.email({ error: 'email must be an e-mail address' }))
  .transform((e) => e.toLowerCase());

/** A new password: 10 to 200 characters (docs/people.md). */
export const NewPasswordSchema = z
  .string({ error: 'password is required' })
  .min(10, 'password must be at least 10 characters')
  .max(200, 'password must be at most 200 characters');

const RoleSchema = z.enum(USER_ROLES, { error: `role must be one of ${USER_ROLES.join(', ')}` });
const NameSchema = z.string().trim().max(200, 'name must be at most 200 characters');

/** `POST /auth/sign-in`. The password is not checked against the policy here: a wrong one is just wrong. */
export const SignInSchema = z.object({
  email: z.string({ error: 'email is required' }).max(254, 'email must be at most 254 characters'),
  password: z.string({ error: 'password is required' }).max(200, 'password must be at most 200 characters'),
});

/** `POST /auth/password`, GraphQL `changePassword`. */
export const ChangePasswordSchema = z.object({
  currentPassword: z.string({ error: 'currentPassword is required' }).max(200, 'currentPassword must be at most 200 characters'),
  newPassword: NewPasswordSchema,
});

/** GraphQL `invitePerson`, CLI `user invite`. */
export const InvitePersonSchema = z.object({
  email: EmailSchema,
  role: RoleSchema.default('member'),
  name: NameSchema.optional(),
});

/** `POST /auth/invitations/accept`: `email` only for an account that has none yet (the first admin). */
export const AcceptInvitationSchema = z.object({
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(200),
  password: NewPasswordSchema,
  name: NameSchema.optional(),
  email: EmailSchema.optional(),
});

/** `POST /auth/password-reset`. */
export const PasswordResetRequestSchema = z.object({ email: z.string({ error: 'email is required' }).max(254) });

/** `POST /auth/password-reset/confirm`. */
export const PasswordResetConfirmSchema = z.object({
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(200),
  password: NewPasswordSchema,
});

/** CLI `user create` with an e-mail. */
export const CreatePersonSchema = z.object({
  email: EmailSchema,
  role: RoleSchema.default('member'),
  name: NameSchema.optional(),
  password: NewPasswordSchema.optional(),
});

/** Who is signed in: the answer of `/auth/sign-in`, `/auth/me` and the link confirmations. */
export const AuthUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: RoleSchema,
  workspaceId: z.string(),
});
export type AuthUser = z.infer<typeof AuthUserSchema>;

/** A person of the workspace, as the console lists them. */
export const PersonDtoSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  role: RoleSchema,
  state: z.enum(USER_STATES),
  workspaceId: z.string(),
  createdAt: z.string(),
});
export type PersonDto = z.infer<typeof PersonDtoSchema>;

export const SetPersonRoleSchema = z.object({ role: RoleSchema });
