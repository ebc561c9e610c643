/** The proofs module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { type AlongsideStatement, appendBatch, type ChainHeads, createProofChain, type LinkedProof, type PendingProof, type ProofChain } from './chain.js';
export { GatewaySigningKey, ProofCertificate } from './proof.entity.js';
export { type CallOutcome, type Certificate, CertificateSchema, PublicKeyResponseSchema, VerificationSchema } from './proofs.schemas.js';
export { canonicalJson, certificateBody, certificateJson, hashRequest, issueProof, pendingProof, toCertificateDto } from './proofs.service.js';
export { gatewayPublicKeyOp, getProofOp, verifyProofOp } from './operations.js';
export { type GatewaySigning, loadGatewaySigning } from './signing-key.js';
