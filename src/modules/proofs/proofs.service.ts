import { createHash, verify } from 'node:crypto';
import { canonicalJson, certificateJson, sha256 } from './canonical.js';
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import type { TokenUsage } from '../models/index.js';
import type { PendingProof } from './chain.js';
import { GatewaySigningKey, ProofCertificate } from './proof.entity.js';
import type { CallOutcome, Certificate, CertificateBody, Verification, VerifyCheck } from './proofs.schemas.js';
import { publicKeyDto, type PublicKeyDto } from './signing-key.js';

export interface IssueProofInput {
  /** A certificate id reserved earlier (a stream names it in its headers before the answer exists); default a new one. */
  id?: string;
  /** e.g. `POST /v1/chat/completions` or `POST /v1/agents/:id/chat/stream`. */
  route: string;
  /** The address the caller asked for (`agent:<slug>`, `svc-auto`, a model name). */
  modelAddress: string;
  /** The model that answered. */
  model: string;
  /** The request as received (any JSON value): hashed in its RFC 8785 canonical form. */
  request?: unknown;
  /** `hashRequest` of the request, when the caller computed it before the answer (the gateway does, so that a body with no canonical form is refused before any model runs). */
  requestHash?: string;
  answer: string;
  usage: TokenUsage;
  conversationId?: string | null;
  /** Set for a call that ended without an answer (`answer` is then the text streamed before the end). */
  outcome?: CallOutcome;
}

export { canonicalJson, certificateJson, sha256 } from './canonical.js';

/**
 * SHA-256 (hex) of the RFC 8785 canonical JSON of a request. A body JSON can carry but RFC 8785 cannot
 * (a number beyond the double range, a lone surrogate in a string) is a 400 `validation_failed`.
 */
export function hashRequest(request: unknown): string {
  let text: string;
  try {
    text = canonicalJson(request);
  } catch (err) {
    throw errors.validation(null, `The request body has no canonical JSON form (RFC 8785): ${(err as Error).message}`);
  }
  return sha256(text);
}

/**
 * Appends a signed certificate to the caller's workspace chain and returns its id, once committed. The
 * append is optimistic: certificates issued together share one insert after the head this process knows,
 * and the unique (workspace, seq) index refuses an insert after a head another process has passed, which
 * then re-reads the head and links again (`appendBatch`, chain.ts), so concurrent calls, in this process
 * or another one on the same database, still form a single line. Internal: callers authorise first.
 */
export function issueProof(ctx: ServiceContext, input: IssueProofInput): Promise<{ id: string }> {
  return ctx.app.proofChain.submit(ctx.caller.workspace.id, pendingProof(ctx, input));
}

/** The certificate `issueProof` appends, for an appender that writes it with something else (the gateway's answer writes). */
export function pendingProof(ctx: ServiceContext, input: IssueProofInput): PendingProof {
  const requestHash = input.requestHash ?? hashRequest(input.request);
  return {
    id: input.id ?? newId('prf'),
    route: input.route,
    modelAddress: input.modelAddress,
    model: input.model,
    conversationId: input.conversationId ?? null,
    requestHash,
    answerHash: sha256(input.answer),
    usage: input.usage,
    outcome: input.outcome,
    apiKeyId: ctx.caller.kind === 'person' ? null : ctx.caller.limits.meter,
    requestId: ctx.requestId,
  };
}

/** The signed body as stored: every field of the certificate but `hash` and `signature`. */
export function certificateBody(c: ProofCertificate): CertificateBody {
  return {
    version: 1,
    id: c.id,
    workspaceId: c.workspaceId,
    seq: c.seq,
    createdAt: c.createdAt.toISOString(),
    route: c.route,
    modelAddress: c.modelAddress,
    model: c.model,
    conversationId: c.conversationId ?? null,
    requestHash: c.requestHash,
    answerHash: c.answerHash,
    usage: { promptTokens: c.promptTokens, completionTokens: c.completionTokens, totalTokens: c.totalTokens },
    prevHash: c.prevHash ?? null,
    keyId: c.keyId,
    algorithm: 'Ed25519',
    ...(c.outcome ? { outcome: c.outcome as CallOutcome } : {}),
  };
}

export const toCertificateDto = (c: ProofCertificate): Certificate => ({ ...certificateBody(c), hash: c.hash, signature: c.signature });

async function findProof(ctx: ServiceContext, id: string): Promise<ProofCertificate> {
  // An id with a NUL names nothing (and PostgreSQL text cannot hold one: no query), as for the other resources.
  const proof = id.includes('\u0000') ? null : await ctx.em.findOne(ProofCertificate, { id, workspaceId: ctx.caller.workspace.id });
  if (!proof) throw errors.proofNotFound(id);
  return proof;
}

/**
 * The certificate exactly as signed, and beside it the id of the call's HTTP request (`x-request-id`,
 * null before Migration20261126201000): not part of the certificate, whose shape and signature stay as
 * SPEC has them (the route sends it as the `x-svc-proof-request-id` header).
 */
export async function getProof(ctx: ServiceContext, id: string): Promise<{ certificate: Certificate; requestId: string | null }> {
  const proof = await findProof(ctx, id);
  return { certificate: toCertificateDto(proof), requestId: proof.requestId ?? null };
}

/** Recomputes the hash, checks the signature and the link to the previous certificate; names the first failure. */
export async function verifyProof(ctx: ServiceContext, id: string): Promise<Verification> {
  const proof = await findProof(ctx, id);
  const payload = Buffer.from(certificateJson(certificateBody(proof)), 'utf8');
  const reasons: Partial<Record<VerifyCheck, string>> = {};

  if (createHash('sha256').update(payload).digest('hex') !== proof.hash) {
    reasons.hash = 'The stored hash does not match the hash of the certificate content';
  }

  const publicKey = await ctx.app.signing.publicKeyById(ctx.em, proof.keyId);
  if (!publicKey) reasons.signature = `Unknown signing key: ${proof.keyId}`;
  else if (!safeVerify(payload, publicKey, proof.signature)) reasons.signature = 'The signature does not match the certificate content';

  if (proof.seq <= 1) {
    if (proof.prevHash) reasons.chain = 'The first certificate of the chain must not name a previous hash';
  } else {
    const previous = await ctx.em.findOne(ProofCertificate, { workspaceId: proof.workspaceId, seq: proof.seq - 1 });
    if (!previous) reasons.chain = `The previous certificate (position ${proof.seq - 1}) is missing`;
    else if (previous.hash !== proof.prevHash) reasons.chain = `prevHash does not match the hash of the previous certificate ${previous.id}`;
  }

  const failedCheck = (['hash', 'signature', 'chain'] as const).find((c) => reasons[c]) ?? null;
  return {
    id: proof.id,
    valid: failedCheck === null,
    checks: { hash: !reasons.hash, signature: !reasons.signature, chain: !reasons.chain },
    failedCheck,
    reason: failedCheck ? (reasons[failedCheck] ?? null) : null,
  };
}

function safeVerify(payload: Buffer, publicKey: Parameters<typeof verify>[2], signature: string): boolean {
  try {
    return verify(null, payload, publicKey, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

/** The current signing key (PEM and JWK) and every key that signed certificates, for offline verification. */
export async function gatewayPublicKey(ctx: ServiceContext): Promise<PublicKeyDto & { canonicalization: string; keys: PublicKeyDto[] }> {
  const current = ctx.app.signing.key;
  const rows = await ctx.em.find(GatewaySigningKey, {}, { orderBy: { createdAt: 'asc', id: 'asc' }, fields: ['id', 'publicKeyPem', 'createdAt'] });
  const keys = rows.map(publicKeyDto);
  const main = keys.find((k) => k.keyId === current.keyId);
  if (!main) throw errors.internal('Gateway signing key not persisted');
  return { ...main, canonicalization: 'RFC 8785 (JCS)', keys };
}
