import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationField } from '../../graphql/root-fields.js';
import { getReportOp, listReportsOp, verifyTextOp } from './operations.js';
import { ReportSchema, VerifyInputSchema, type ReportDto } from './verify.schemas.js';

/** The verifier for the console: the same operations as the REST routes. */
const ReportRef = objectFromZod('VerifyReport', ReportSchema, {
  description: 'A verifier report (POST /v1/verify): each claim with its verdict and best evidence.',
  names: { claims: 'VerifyClaim', counts: 'VerifyCounts' },
});

const VerifyInput = inputFromZod('VerifyInput', VerifyInputSchema, { names: { passages: 'VerifyPassageInput' } });

const ReportPageRef = builder.objectRef<{ reports: ReportDto[]; nextCursor: string | null }>('VerifyReportPage').implement({
  description: 'A page of reports, newest first; pass nextCursor as cursor for the next one.',
  fields: (t) => ({
    reports: t.field({ type: [ReportRef], resolve: (p) => p.reports }),
    nextCursor: t.string({ nullable: true, resolve: (p) => p.nextCursor }),
  }),
});

builder.queryFields((t) => ({
  verifyReports: t.field({
    type: ReportPageRef,
    description: 'Reports of the workspace, newest first (GET /v1/verify).',
    extensions: operationField(listReportsOp),
    args: { limit: t.arg.int({ required: false }), cursor: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => listReportsOp.run(await ctx.service(), { query: { limit: args.limit ?? undefined, cursor: args.cursor ?? undefined } }),
  }),
  verifyReport: t.field({
    type: ReportRef,
    extensions: operationField(getReportOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => getReportOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  verify: t.field({
    type: ReportRef,
    description: 'Checks each claim of a text against passages or collections (POST /v1/verify); one control.',
    extensions: operationField(verifyTextOp),
    args: { input: t.arg({ type: VerifyInput, required: true }) },
    resolve: async (_r, args, ctx) => verifyTextOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
}));
