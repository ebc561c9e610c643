import { builder } from '../../graphql/builder.js';
import { objectFromZod } from '../../graphql/from-zod.js';
import { operationField } from '../../graphql/root-fields.js';
import { RegisterEntrySchema, RegisterSummarySchema, type RegisterEntry } from './registre.schemas.js';
import { getRegisterEntryOp, listRegisterOp, registerSummaryOp } from './operations.js';

/** The register of proofs for the console: the same operations as the REST routes (rest/v1/registre.routes.ts). */
const RegisterEntryRef = objectFromZod('RegisterCertificate', RegisterEntrySchema, {
  description: 'A certificate of the register (gateway call, chat turn or verifier report) with its kind.',
  types: { version: 'Int', algorithm: 'String' },
  names: { usage: 'RegisterCertificateUsage', kind: 'ProofKind', outcome: 'ProofCallOutcome' },
});

const RegisterPageRef = builder.objectRef<{ certificates: RegisterEntry[]; nextCursor: string | null }>('RegisterPage').implement({
  fields: (t) => ({
    certificates: t.field({ type: [RegisterEntryRef], resolve: (p) => p.certificates }),
    nextCursor: t.string({ nullable: true, resolve: (p) => p.nextCursor }),
  }),
});

const RegisterSummaryRef = objectFromZod('RegisterSummary', RegisterSummarySchema, {
  description: 'Counts by month and kind, and the proof chain checked end to end.',
});

builder.queryFields((t) => ({
  registre: t.field({
    type: RegisterPageRef,
    description: 'The register of proofs, newest first (GET /v1/registre); needs the proofJournal plan feature.',
    extensions: operationField(listRegisterOp),
    args: {
      kind: t.arg.string({ required: false, description: 'gateway, chat or verify; several separated by commas' }),
      from: t.arg.string({ required: false }),
      to: t.arg.string({ required: false }),
      keyId: t.arg.string({ required: false }),
      limit: t.arg.int({ required: false }),
      cursor: t.arg.string({ required: false }),
    },
    resolve: async (_r, args, ctx) =>
      listRegisterOp.run(await ctx.service(), {
        query: {
          kind: args.kind ?? undefined,
          from: args.from ?? undefined,
          to: args.to ?? undefined,
          keyId: args.keyId ?? undefined,
          limit: args.limit ?? undefined,
          cursor: args.cursor ?? undefined,
        },
      }),
  }),
  registreCertificate: t.field({
    type: RegisterEntryRef,
    description: 'One certificate of the register with its kind (GET /v1/proofs/:id, as the register shows it); needs the proofJournal plan feature.',
    extensions: operationField(getRegisterEntryOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getRegisterEntryOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  registreSummary: t.field({
    type: RegisterSummaryRef,
    extensions: operationField(registerSummaryOp),
    resolve: async (_r, _a, ctx) => registerSummaryOp.run(await ctx.service(), {}),
  }),
}));
