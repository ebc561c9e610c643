import { createHash, sign } from 'node:crypto';
import type { Kernel } from '../../core/deps.js';
import { GroupCommit, type Outcome } from '../../lib/group-commit.js';
import type { TokenUsage } from '../models/provider.js';
import { canonicalJson } from './canonical.js';
import { ProofCertificate } from './proof.entity.js';
import type { CallOutcome, CertificateBody } from './proofs.schemas.js';
import type { GatewaySigning } from './signing-key.js';

/** A certificate waiting for its workspace's next append: everything of the body but its place in the chain. */
export interface PendingProof {
  id: string;
  route: string;
  modelAddress: string;
  model: string;
  conversationId: string | null;
  requestHash: string;
  answerHash: string;
  usage: TokenUsage;
  outcome?: CallOutcome;
}

/**
 * The proof chains of this process: one appender per workspace (group commit). Certificates issued while
 * an append of their workspace is in flight are appended together by the next one, in arrival order, in
 * one transaction under the workspace's advisory lock: a call waits for its batch, not for every call
 * before it, and the chain stays one unbroken line across processes (each append reads the last link
 * under the lock).
 */
export type ProofChain = GroupCommit<PendingProof, { id: string }>;

export function createProofChain(kernel: Kernel, signing: GatewaySigning): ProofChain {
  return new GroupCommit({ flush: (workspaceId, items) => appendBatch(kernel, signing, workspaceId, items) });
}

async function appendBatch(kernel: Kernel, signing: GatewaySigning, workspaceId: string, items: PendingProof[]): Promise<Outcome<{ id: string }>[]> {
  const key = signing.key;
  const createdAt = kernel.clock.now();
  return kernel.orm.em.fork().transactional(async (tx) => {
    // The chain's advisory lock for this transaction, then the last link (svc_chain_head, Migration20261123120100).
    const [last] = await tx.execute<{ seq: number; hash: string }[]>('select seq, hash from svc_chain_head(?)', [workspaceId]);
    let seq = last?.seq ?? 0;
    let prevHash: string | null = last?.hash ?? null;
    const rows = items.map((item) => {
      seq += 1;
      const body: CertificateBody = {
        version: 1,
        id: item.id,
        workspaceId,
        seq,
        createdAt: createdAt.toISOString(),
        route: item.route,
        modelAddress: item.modelAddress,
        model: item.model,
        conversationId: item.conversationId,
        requestHash: item.requestHash,
        answerHash: item.answerHash,
        usage: { promptTokens: item.usage.promptTokens, completionTokens: item.usage.completionTokens, totalTokens: item.usage.totalTokens },
        prevHash,
        keyId: key.keyId,
        algorithm: 'Ed25519',
        ...(item.outcome ? { outcome: item.outcome } : {}),
      };
      const payload = Buffer.from(canonicalJson(body), 'utf8');
      const hash = createHash('sha256').update(payload).digest('hex');
      prevHash = hash;
      return {
        id: body.id,
        workspaceId,
        seq: body.seq,
        route: body.route,
        modelAddress: body.modelAddress,
        model: body.model,
        conversationId: body.conversationId,
        requestHash: body.requestHash,
        answerHash: body.answerHash,
        promptTokens: body.usage.promptTokens,
        completionTokens: body.usage.completionTokens,
        totalTokens: body.usage.totalTokens,
        prevHash: body.prevHash,
        hash,
        signature: sign(null, payload, key.privateKey).toString('base64url'),
        keyId: key.keyId,
        outcome: item.outcome ?? null,
        createdAt,
      };
    });
    await tx.insertMany(ProofCertificate, rows);
    return rows.map((r) => ({ id: r.id }));
  });
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The proof chains' appenders of this process (group commit per workspace). */
    readonly proofChain: ProofChain;
  }
}
