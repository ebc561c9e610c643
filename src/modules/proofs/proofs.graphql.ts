import { builder } from '../../graphql/builder.js';
import { objectFromZod } from '../../graphql/from-zod.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { VerificationSchema } from './proofs.schemas.js';
import { verifyProof } from './proofs.service.js';

/** A certificate's verification for the console (the certificates themselves: `registre`). */
const VerificationRef = objectFromZod('ProofVerification', VerificationSchema, {
  description: 'The checks of one certificate: its hash, its signature and its link to the previous one (GET /v1/proofs/:id/verify).',
  names: { checks: 'ProofVerificationChecks', failedCheck: 'ProofVerificationCheck' },
});

builder.queryFields((t) => ({
  proofVerification: t.field({
    type: VerificationRef,
    description: 'Recomputes the hash, checks the signature and the link to the previous certificate; names the first failed check.',
    extensions: operationNeeds({ scope: 'engine', twin: 'GET /v1/proofs/:id/verify' }),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => verifyProof(await ctx.service(), String(args.id)),
  }),
}));
