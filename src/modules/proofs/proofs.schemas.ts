import { z } from 'zod';

const Usage = z.object({ promptTokens: z.number().int(), completionTokens: z.number().int(), totalTokens: z.number().int() });

/** The signed part of a certificate: `hash` is the SHA-256 of its RFC 8785 canonical JSON, `signature` signs the same bytes. */
/** How a streamed call that ended without an answer ended. */
export const CALL_OUTCOMES = ['failed', 'abandoned'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

export const CertificateBodySchema = z.object({
  version: z.literal(1),
  id: z.string(),
  workspaceId: z.string(),
  seq: z.number().int().describe('Position in the workspace chain, from 1'),
  createdAt: z.string(),
  route: z.string().describe('The route that produced the answer, e.g. `POST /v1/chat/completions`'),
  modelAddress: z.string().describe('The model the caller asked for (`agent:<slug>`, `svc-auto`, ...)'),
  model: z.string().describe('The model that answered'),
  conversationId: z.string().nullable(),
  requestHash: z.string().describe('SHA-256 (hex) of the canonical JSON of the request'),
  answerHash: z.string().describe('SHA-256 (hex) of the answer text (UTF-8)'),
  usage: Usage,
  prevHash: z.string().nullable().describe("Previous certificate's hash in the workspace chain; null for the first"),
  keyId: z.string().describe('JWK thumbprint of the signing key'),
  algorithm: z.literal('Ed25519'),
  outcome: z
    .enum(CALL_OUTCOMES)
    .optional()
    .describe(
      'Present only when the call ended without an answer: `failed` (the model failed) or `abandoned` (the client left). The answer hash is then of the text streamed before the end, and the usage what was consumed',
    ),
});
export type CertificateBody = z.infer<typeof CertificateBodySchema>;

export const CertificateSchema = CertificateBodySchema.extend({
  hash: z.string().describe('SHA-256 (hex) of the canonical JSON of the other fields'),
  signature: z.string().describe('Ed25519 signature (base64url) of the canonical JSON of the other fields'),
});
export type Certificate = z.infer<typeof CertificateSchema>;

export const VERIFY_CHECKS = ['hash', 'signature', 'chain'] as const;
export type VerifyCheck = (typeof VERIFY_CHECKS)[number];

export const VerificationSchema = z.object({
  id: z.string(),
  valid: z.boolean(),
  checks: z.object({ hash: z.boolean(), signature: z.boolean(), chain: z.boolean() }),
  failedCheck: z.enum(VERIFY_CHECKS).nullable().describe('The first check that failed, in the order hash, signature, chain'),
  reason: z.string().nullable(),
});
export type Verification = z.infer<typeof VerificationSchema>;

export const PublicKeySchema = z.object({
  keyId: z.string(),
  algorithm: z.literal('Ed25519'),
  pem: z.string(),
  jwk: z.object({ kty: z.string(), crv: z.string(), x: z.string(), kid: z.string(), alg: z.string(), use: z.string() }),
  createdAt: z.string(),
});

export const PublicKeyResponseSchema = PublicKeySchema.extend({
  canonicalization: z.string(),
  keys: z.array(PublicKeySchema).describe('Every key that has signed certificates, current one included'),
});
