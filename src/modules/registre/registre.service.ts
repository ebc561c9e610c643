import { createHash, verify } from 'node:crypto';
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { ProofCertificate } from '../proofs/index.js';
import { certificateBody, certificateJson, toCertificateDto } from '../proofs/index.js';
import { planTerms, requiredPlanFor, subscriptionState } from '../usage/index.js';
import { KIND_SQL, RegisterQuerySchema, type ProofKind, type RegisterEntry, type RegisterSummary } from './registre.schemas.js';
import { decodeSeqCursor, encodeSeqCursor } from '../../lib/cursor.js';

/** Certificates read per statement when walking the chain. */
export const CHAIN_PAGE = 1_000;

/**
 * The register needs the proof journal (Cabinet): 402 PLAN_UPGRADE_REQUIRED naming the feature and plan.
 * The caller's scope is the operation's need (operations.ts), checked by the pipeline before this.
 */
export function requireProofJournal(ctx: ServiceContext): void {
  const ws = ctx.caller.workspace;
  if (!subscriptionState(ws, ctx.clock.now()).active) throw errors.subscriptionInactive();
  if (!planTerms(ws).features.includes('proofJournal')) throw errors.planUpgradeRequired('proofJournal', requiredPlanFor('proofJournal'));
}

export const kindOfRoute = (route: string): ProofKind =>
  route.startsWith('POST /v1/verify') ? 'verify' : route === 'POST /v1/chat/completions' || route === 'POST /v1/messages' ? 'gateway' : 'chat';

export const toRegisterEntry = (c: ProofCertificate): RegisterEntry => ({ ...toCertificateDto(c), kind: kindOfRoute(c.route), apiKeyId: c.apiKeyId ?? null, requestId: c.requestId ?? null });


/** `GET /v1/registre`: every certificate of the workspace, newest first, filtered by kind, period and API key. */
export async function listRegister(ctx: ServiceContext, query: unknown = {}): Promise<{ certificates: RegisterEntry[]; nextCursor: string | null }> {
  requireProofJournal(ctx);
  const q = RegisterQuerySchema.parse(query ?? {});
  const where: string[] = ['workspace_id = ?'];
  const params: unknown[] = [ctx.caller.workspace.id];
  if (q.kind) {
    where.push(`(${KIND_SQL}) in (${q.kind.map(() => '?').join(', ')})`);
    params.push(...q.kind);
  }
  if (q.from) where.push('created_at >= ?'), params.push(q.from);
  if (q.to) where.push('created_at < ?'), params.push(q.to);
  if (q.keyId) where.push('api_key_id = ?'), params.push(q.keyId);
  if (q.cursor) where.push('seq < ?'), params.push(decodeSeqCursor(q.cursor));
  const ids = await ctx.em.execute<{ id: string }[]>(
    `select id from proof_certificate where ${where.join(' and ')} order by seq desc limit ?`,
    [...params, q.limit + 1],
  );
  const page = ids.slice(0, q.limit).map((r) => r.id);
  const rows = page.length ? await ctx.em.find(ProofCertificate, { id: { $in: page } }, { orderBy: { seq: 'desc' } }) : [];
  return { certificates: rows.map(toRegisterEntry), nextCursor: ids.length > q.limit ? encodeSeqCursor(rows[rows.length - 1]!.seq) : null };
}

/** One certificate of the register with its kind (the console's deep link to a certificate). */
export async function getRegisterEntry(ctx: ServiceContext, id: string): Promise<RegisterEntry> {
  requireProofJournal(ctx);
  const proof = id.includes('\u0000') ? null : await ctx.em.findOne(ProofCertificate, { id, workspaceId: ctx.caller.workspace.id });
  if (!proof) throw errors.proofNotFound(id);
  return toRegisterEntry(proof);
}

export interface ChainWalk {
  length: number;
  firstHash: string | null;
  lastHash: string | null;
  firstBroken: RegisterSummary['chain']['firstBroken'];
}

/**
 * Walks the workspace's chain from position 1 in pages (constant memory), checking each certificate's
 * position, hash (SHA-256 of the RFC 8785 body), signature and link to the previous hash, up to `upTo`.
 * `each` sees every certificate in order (the export writes them out); `check: false` skips the checks.
 */
export async function walkChain(
  ctx: ServiceContext,
  opts: { upTo?: number; each?: (c: ProofCertificate) => Promise<void> | void; check?: boolean } = {},
): Promise<ChainWalk> {
  const ws = ctx.caller.workspace.id;
  const walk: ChainWalk = { length: 0, firstHash: null, lastHash: null, firstBroken: null };
  let after = 0;
  let prev: ProofCertificate | null = null;
  for (;;) {
    const em = ctx.em.fork();
    const rows = await em.find(
      ProofCertificate,
      { workspaceId: ws, seq: { $gt: after, ...(opts.upTo !== undefined ? { $lte: opts.upTo } : {}) } },
      { orderBy: { seq: 'asc' }, limit: CHAIN_PAGE },
    );
    for (const c of rows) {
      walk.length++;
      walk.firstHash ??= c.hash;
      walk.lastHash = c.hash;
      if (!walk.firstBroken && opts.check !== false) {
        const broken = await checkLink(ctx, c, prev);
        if (broken) walk.firstBroken = { seq: c.seq, id: c.id, ...broken };
      }
      if (opts.each) await opts.each(c);
      prev = c;
    }
    if (rows.length < CHAIN_PAGE) return walk;
    after = rows[rows.length - 1]!.seq;
  }
}

async function checkLink(
  ctx: ServiceContext,
  c: ProofCertificate,
  prev: ProofCertificate | null,
): Promise<{ check: 'sequence' | 'hash' | 'signature' | 'chain'; reason: string } | null> {
  const expected = (prev?.seq ?? 0) + 1;
  if (c.seq !== expected) return { check: 'sequence', reason: `Position ${expected} is missing (next is ${c.seq})` };
  const payload = Buffer.from(certificateJson(certificateBody(c)), 'utf8');
  if (createHash('sha256').update(payload).digest('hex') !== c.hash) return { check: 'hash', reason: 'The stored hash does not match the certificate content' };
  const key = await ctx.app.signing.publicKeyById(ctx.em, c.keyId);
  let signed = false;
  try {
    signed = !!key && verify(null, payload, key, Buffer.from(c.signature, 'base64url'));
  } catch {
    signed = false;
  }
  if (!signed) return { check: 'signature', reason: key ? 'The signature does not match the certificate content' : `Unknown signing key: ${c.keyId}` };
  if ((c.prevHash ?? null) !== (prev?.hash ?? null)) return { check: 'chain', reason: prev ? `prevHash does not match the hash of ${prev.id}` : 'The first certificate names a previous hash' };
  return null;
}

/** `GET /v1/registre/summary`: counts by month and kind, and the chain checked end to end. */
export async function registerSummary(ctx: ServiceContext): Promise<RegisterSummary> {
  requireProofJournal(ctx);
  const rows = await ctx.em.execute<{ month: string; kind: ProofKind; count: string | number }[]>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM') as month, ${KIND_SQL} as kind, count(*) as count
       from proof_certificate where workspace_id = ? group by 1, 2 order by 1, 2`,
    [ctx.caller.workspace.id],
  );
  const walk = await walkChain(ctx);
  return {
    counts: rows.map((r) => ({ month: r.month, kind: r.kind, count: Number(r.count) })),
    chain: { ...walk, valid: walk.firstBroken === null },
  };
}
