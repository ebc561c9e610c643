import { defineEntity, p } from '@mikro-orm/core';

/**
 * One link of a workspace's proof chain. Every field but `hash` and `signature` is part of the
 * signed body (see proofs.service.ts, `certificateBody`).
 */
const ProofCertificateSchema = defineEntity({
  name: 'ProofCertificate',
  tableName: 'proof_certificate',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    /** Position in the workspace chain, from 1. */
    seq: p.integer(),
    route: p.string(),
    modelAddress: p.text(),
    model: p.text(),
    conversationId: p.string().nullable(),
    requestHash: p.string(),
    answerHash: p.string(),
    promptTokens: p.integer(),
    completionTokens: p.integer(),
    totalTokens: p.integer(),
    prevHash: p.string().nullable(),
    hash: p.string(),
    signature: p.text(),
    keyId: p.string(),
    /** `failed` or `abandoned` for a streamed call that ended without an answer; null for an answer. */
    outcome: p.string().nullable(),
    /** The API key the certificate was issued for; not signed (Migration20261123130000, the register's key filter). */
    apiKeyId: p.string().nullable(),
    /** The id of the HTTP request of the call (`x-request-id`); not signed (Migration20261126201000). */
    requestId: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export class ProofCertificate extends ProofCertificateSchema.class {}
ProofCertificateSchema.setClass(ProofCertificate);

/**
 * Gateway signing keys, by JWK thumbprint. The generated key keeps its private half here; a key given
 * by `SVC_GATEWAY_SIGNING_KEY` only records its public half, so certificates it signed stay verifiable.
 */
const GatewaySigningKeySchema = defineEntity({
  name: 'GatewaySigningKey',
  tableName: 'gateway_signing_key',
  properties: {
    id: p.string().primary(),
    publicKeyPem: p.text(),
    privateKeyPem: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
export class GatewaySigningKey extends GatewaySigningKeySchema.class {}
GatewaySigningKeySchema.setClass(GatewaySigningKey);
