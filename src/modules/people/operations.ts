import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { changePassword, disablePerson, invitePerson, listPeople, setPersonRole, toPersonDto } from './people.service.js';

// The people of a workspace (issue 29 §1, docs/people.md): people.graphql.ts refers to these, and the public
// route POST /auth/password admits its caller with changePasswordOp's needs. Managing people is for a
// signed-in admin only (an API key gets person_required, a member admin_required); listing them is open to
// keys without capability scopes and to people.
const MANAGE = { scope: null, write: true, person: true, role: 'admin' } as const;
const ById = z.object({ id: z.string() });

export const listPeopleOp = defineOperation({
  name: 'people.list',
  needs: { scope: null },
  input: z.object({}),
  run: async (ctx) => (await listPeople(ctx)).map(toPersonDto),
});

/** Invites by e-mail with a role; `linkBase` is the origin the single-use link points to. */
export const invitePersonOp = defineOperation({
  name: 'people.invite',
  needs: MANAGE,
  input: z.object({ body: z.unknown(), linkBase: z.string() }),
  run: async (ctx, { body, linkBase }) => {
    const inv = await invitePerson(ctx, body, linkBase);
    return { person: toPersonDto(inv.user), expiresAt: inv.expiresAt.toISOString(), mailed: inv.mailed };
  },
});

export const setPersonRoleOp = defineOperation({
  name: 'people.setRole',
  needs: MANAGE,
  input: ById.extend({ body: z.unknown() }),
  run: async (ctx, { id, body }) => toPersonDto(await setPersonRole(ctx, id, body)),
});

export const disablePersonOp = defineOperation({
  name: 'people.disable',
  needs: MANAGE,
  input: ById,
  run: async (ctx, { id }) => toPersonDto(await disablePerson(ctx, id)),
});

/** The signed-in person's own password: their other sessions close. GraphQL and POST /auth/password (public: it reads the cookie itself). */
export const changePasswordOp = defineOperation({
  name: 'people.changePassword',
  needs: { scope: null, write: true, person: true, role: 'member' },
  input: z.object({ body: z.unknown() }),
  run: async (ctx, { body }) => {
    await changePassword(ctx, body);
    return true as const;
  },
});
