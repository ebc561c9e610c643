import { Router } from 'express';
import type { Deps } from '../../src/core/deps.js';
import { OpenAIErrorSchema } from '../../src/modules/gateway/index.js';
import { CertificateSchema, PublicKeyResponseSchema, VerificationSchema } from '../../src/modules/proofs/index.js';
import { gatewayPublicKey, getProof, verifyProof } from '../../src/modules/proofs/index.js';
import { mount, param } from '../route.js';

/** The request id of the call that produced a certificate, beside (not inside) the signed certificate. */
const PROOF_REQUEST_ID_HEADER = 'x-svc-proof-request-id';

/** Proof certificates and the gateway public key; errors in the OpenAI shape (SPEC, Errors > Body shapes). */
export function proofsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'proofs', scope: 'engine', dialect: 'openai' } as const;
  const notFound = { description: 'proof_not_found (unknown id or another workspace)', schema: OpenAIErrorSchema };

  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/proofs/:id',
    summary:
      'A proof certificate. The `x-svc-proof-request-id` response header names the `x-request-id` of the call that produced it (absent for certificates issued before request ids were kept); it is not part of the signed certificate',
    responses: { 200: { description: 'The certificate', schema: CertificateSchema }, 404: notFound },
    handler: async (ctx, req) => {
      const { certificate, requestId } = await getProof(ctx, param(req, 'id'));
      const headers: Record<string, string> = requestId ? { [PROOF_REQUEST_ID_HEADER]: requestId } : {};
      return { status: 200, body: certificate, headers };
    },
  });

  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/proofs/:id/verify',
    summary: 'Recompute the hash, check the signature and the link to the previous certificate',
    responses: { 200: { description: 'Verification result, naming the first failed check', schema: VerificationSchema }, 404: notFound },
    handler: async (ctx, req) => ({ status: 200, body: await verifyProof(ctx, param(req, 'id')) }),
  });

  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/gateway/public-key',
    summary: 'The gateway signing key (Ed25519, PEM and JWK) for offline verification',
    responses: { 200: { description: 'Public key', schema: PublicKeyResponseSchema } },
    handler: async (ctx) => ({ status: 200, body: await gatewayPublicKey(ctx) }),
  });

  return r;
}
