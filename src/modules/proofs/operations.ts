import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { gatewayPublicKey, getProof, verifyProof } from './proofs.service.js';

// The proofs family's use cases (issue 29 §1): rest/v1/proofs.routes.ts and proofs.graphql.ts refer to
// these; the request pipeline admits the caller with their needs (reading certificates: scope engine).
const READ = { scope: 'engine' } as const;
const ById = z.object({ id: z.string() });

/** A certificate exactly as signed, and beside it the request id of the call that produced it. */
export const getProofOp = defineOperation({
  name: 'proofs.get',
  route: 'GET /v1/proofs/:id',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => getProof(ctx, id),
});

export const verifyProofOp = defineOperation({
  name: 'proofs.verify',
  route: 'GET /v1/proofs/:id/verify',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => verifyProof(ctx, id),
});

export const gatewayPublicKeyOp = defineOperation({
  name: 'proofs.publicKey',
  route: 'GET /v1/gateway/public-key',
  needs: READ,
  input: z.object({}),
  run: (ctx) => gatewayPublicKey(ctx),
});
