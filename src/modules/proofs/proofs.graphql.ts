import { builder } from '../../graphql/builder.js';
import { objectFromZod } from '../../graphql/from-zod.js';
import { operationField } from '../../graphql/root-fields.js';
import { VerificationSchema } from './proofs.schemas.js';
import { verifyProofOp } from './operations.js';

/** A certificate's verification for the console (the certificates themselves: `registre`). */
const VerificationRef = objectFromZod('ProofVerification', VerificationSchema, {
  description: 'The checks of one certificate: its hash, its signature and its link to the previous one (GET /v1/proofs/:id/verify).',
  names: { checks: 'ProofVerificationChecks', failedCheck: 'ProofVerificationCheck' },
});

builder.queryFields((t) => ({
  proofVerification: t.field({
    type: VerificationRef,
    description: 'Recomputes the hash, checks the signature and the link to the previous certificate; names the first failed check.',
    extensions: operationField(verifyProofOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => verifyProofOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));
