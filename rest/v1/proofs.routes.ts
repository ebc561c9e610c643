import { Router } from 'express';
import type { Deps } from '../../src/core/deps.js';
import { OpenAIErrorSchema } from '../../src/modules/gateway/index.js';
import { CertificateSchema, PublicKeyResponseSchema, VerificationSchema } from '../../src/modules/proofs/index.js';
import { gatewayPublicKeyOp, getProofOp, verifyProofOp } from '../../src/modules/proofs/index.js';
import { mountOperation, param } from '../route.js';

/** The request id of the call that produced a certificate, beside (not inside) the signed certificate. */
const PROOF_REQUEST_ID_HEADER = 'x-svc-proof-request-id';

/** Proof certificates and the gateway public key; errors in the OpenAI shape (SPEC, Errors > Body shapes). */
export function proofsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'proofs', dialect: 'openai' } as const;
  const notFound = { description: 'proof_not_found (unknown id or another workspace)', schema: OpenAIErrorSchema };

  mountOperation(r, app, getProofOp, {
    ...base,
    summary:
      'A proof certificate. The `x-svc-proof-request-id` response header names the `x-request-id` of the call that produced it (absent for certificates issued before request ids were kept); it is not part of the signed certificate',
    responses: { 200: { description: 'The certificate', schema: CertificateSchema }, 404: notFound },
    input: (req) => ({ id: param(req, 'id') }),
    reply: ({ certificate, requestId }) => {
      const headers: Record<string, string> = requestId ? { [PROOF_REQUEST_ID_HEADER]: requestId } : {};
      return { status: 200, body: certificate, headers };
    },
  });

  mountOperation(r, app, verifyProofOp, {
    ...base,
    summary: 'Recompute the hash, check the signature and the link to the previous certificate',
    responses: { 200: { description: 'Verification result, naming the first failed check', schema: VerificationSchema }, 404: notFound },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (verification) => ({ status: 200, body: verification }),
  });

  mountOperation(r, app, gatewayPublicKeyOp, {
    ...base,
    summary: 'The gateway signing key (Ed25519, PEM and JWK) for offline verification',
    responses: { 200: { description: 'Public key', schema: PublicKeyResponseSchema } },
    input: () => ({}),
    reply: (key) => ({ status: 200, body: key }),
  });

  return r;
}
