import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { RegisterEntrySchema, RegisterSummarySchema } from '../registre/registre.schemas.js';
import { listRegister, registerSummary } from '../registre/registre.service.js';
import { getReport, listReports, verifyText } from './verify.service.js';
import { ReportSchema, VerifyInputSchema } from './verify.schemas.js';

/** The verifier and the register of proofs for the console: the same service functions as the REST routes. */
const ReportRef = objectFromZod('VerifyReport', ReportSchema, {
  description: 'A verifier report (POST /v1/verify): each claim with its verdict and best evidence.',
  names: { claims: 'VerifyClaim', counts: 'VerifyCounts' },
});

const VerifyInput = inputFromZod('VerifyInput', VerifyInputSchema, { names: { passages: 'VerifyPassageInput' } });

const ReportPageRef = builder.objectRef<{ reports: unknown[]; nextCursor: string | null }>('VerifyReportPage').implement({
  description: 'A page of reports, newest first; pass nextCursor as cursor for the next one.',
  fields: (t) => ({
    reports: t.field({ type: [ReportRef], resolve: (p) => p.reports as never }),
    nextCursor: t.string({ nullable: true, resolve: (p) => p.nextCursor }),
  }),
});

const RegisterEntryRef = objectFromZod('RegisterCertificate', RegisterEntrySchema, {
  description: 'A certificate of the register (gateway call, chat turn or verifier report) with its kind.',
  types: { version: 'Int', algorithm: 'String' },
  names: { usage: 'RegisterCertificateUsage', kind: 'ProofKind', outcome: 'ProofCallOutcome' },
});

const RegisterPageRef = builder.objectRef<{ certificates: unknown[]; nextCursor: string | null }>('RegisterPage').implement({
  fields: (t) => ({
    certificates: t.field({ type: [RegisterEntryRef], resolve: (p) => p.certificates as never }),
    nextCursor: t.string({ nullable: true, resolve: (p) => p.nextCursor }),
  }),
});

const RegisterSummaryRef = objectFromZod('RegisterSummary', RegisterSummarySchema, {
  description: 'Counts by month and kind, and the proof chain checked end to end.',
});

builder.queryFields((t) => ({
  verifyReports: t.field({
    type: ReportPageRef,
    description: 'Reports of the workspace, newest first (GET /v1/verify).',
    extensions: operationNeeds({ scope: 'proof', twin: 'GET /v1/verify' }),
    args: { limit: t.arg.int({ required: false }), cursor: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => listReports(await ctx.service(), { limit: args.limit ?? undefined, cursor: args.cursor ?? undefined }),
  }),
  verifyReport: t.field({
    type: ReportRef,
    extensions: operationNeeds({ scope: 'proof', twin: 'GET /v1/verify/:id' }),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getReport(await ctx.service(), String(args.id)),
  }),
  registre: t.field({
    type: RegisterPageRef,
    description: 'The register of proofs, newest first (GET /v1/registre); needs the proofJournal plan feature.',
    extensions: operationNeeds({ scope: 'proof', twin: 'GET /v1/registre' }),
    args: {
      kind: t.arg.string({ required: false, description: 'gateway, chat or verify; several separated by commas' }),
      from: t.arg.string({ required: false }),
      to: t.arg.string({ required: false }),
      keyId: t.arg.string({ required: false }),
      limit: t.arg.int({ required: false }),
      cursor: t.arg.string({ required: false }),
    },
    resolve: async (_r, args, ctx) =>
      listRegister(await ctx.service(), {
        kind: args.kind ?? undefined,
        from: args.from ?? undefined,
        to: args.to ?? undefined,
        keyId: args.keyId ?? undefined,
        limit: args.limit ?? undefined,
        cursor: args.cursor ?? undefined,
      }),
  }),
  registreSummary: t.field({
    type: RegisterSummaryRef,
    extensions: operationNeeds({ scope: 'proof', twin: 'GET /v1/registre/summary' }),
    resolve: async (_r, _a, ctx) => registerSummary(await ctx.service()),
  }),
}));

builder.mutationFields((t) => ({
  verify: t.field({
    type: ReportRef,
    description: 'Checks each claim of a text against passages or collections (POST /v1/verify); one control.',
    extensions: operationNeeds({ scope: 'proof', write: true, rateLimit: 'verify', twin: 'POST /v1/verify' }),
    args: { input: t.arg({ type: VerifyInput, required: true }) },
    resolve: async (_r, args, ctx) => verifyText(await ctx.service(), plainInput(args.input)),
  }),
}));
