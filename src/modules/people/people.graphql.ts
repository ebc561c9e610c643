import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationField } from '../../graphql/root-fields.js';
import { changePasswordOp, disablePersonOp, invitePersonOp, listPeopleOp, setPersonRoleOp } from './operations.js';
import type { toPersonDto } from './people.service.js';
import { ChangePasswordSchema, InvitePersonSchema, PersonDtoSchema, SetPersonRoleSchema } from './people.schemas.js';

export const PersonRef = objectFromZod('Person', PersonDtoSchema, {
  description: 'A person of the workspace: signs in with e-mail and password (docs/people.md).',
  names: { role: 'PersonRole', state: 'PersonState' },
});

const InvitePersonInput = inputFromZod('InvitePersonInput', InvitePersonSchema, { names: { role: 'PersonRole' } });
const ChangePasswordInput = inputFromZod('ChangePasswordInput', ChangePasswordSchema);
const SetPersonRoleInput = inputFromZod('SetPersonRoleInput', SetPersonRoleSchema, { names: { role: 'PersonRole' } });

const InvitationRef = builder
  .objectRef<{ person: ReturnType<typeof toPersonDto>; expiresAt: string; mailed: boolean }>('Invitation')
  .implement({
    description: 'An invitation: the invited person, when the link stops working, and whether the mail left.',
    fields: (t) => ({
      person: t.field({ type: PersonRef, resolve: (i) => i.person }),
      expiresAt: t.exposeString('expiresAt'),
      mailed: t.exposeBoolean('mailed'),
    }),
  });

builder.queryFields((t) => ({
  people: t.field({
    type: [PersonRef],
    description: 'The people of the workspace, oldest first.',
    extensions: operationField(listPeopleOp),
    resolve: async (_r, _a, ctx) => listPeopleOp.run(await ctx.service(), {}),
  }),
}));

builder.mutationFields((t) => ({
  invitePerson: t.field({
    type: InvitationRef,
    description: 'Invites a person by e-mail with a role: they receive a single-use link to choose a password. Signed-in admins only.',
    args: { input: t.arg({ type: InvitePersonInput, required: true }) },
    extensions: operationField(invitePersonOp),
    resolve: async (_r, args, ctx) =>
      invitePersonOp.run(await ctx.service(), {
        body: plainInput(args.input),
        linkBase: ctx.app.config.publicUrl ? new URL(ctx.app.config.publicUrl).origin : ctx.origin,
      }),
  }),
  setPersonRole: t.field({
    type: PersonRef,
    description: "Changes a person's role. Signed-in admins only; the workspace keeps one active admin.",
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: SetPersonRoleInput, required: true }) },
    extensions: operationField(setPersonRoleOp),
    resolve: async (_r, args, ctx) => setPersonRoleOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  disablePerson: t.field({
    type: PersonRef,
    description: 'Disables a person: their sessions close and they can no longer sign in. Signed-in admins only.',
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(disablePersonOp),
    resolve: async (_r, args, ctx) => disablePersonOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  changePassword: t.boolean({
    description: "Changes the signed-in person's password; their other sessions close (same as POST /auth/password).",
    args: { input: t.arg({ type: ChangePasswordInput, required: true }) },
    extensions: operationField(changePasswordOp),
    resolve: async (_r, args, ctx) => changePasswordOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
}));
