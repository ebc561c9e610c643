import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { decodeSeqCursor, encodeSeqCursor } from '../../lib/cursor.js';
import { newId } from '../../lib/ids.js';
import { findCollection } from '../knowledge/index.js';
import { ProofCertificate } from '../proofs/index.js';
import { canonicalJson, pendingProof, toCertificateDto } from '../proofs/index.js';
import type { Certificate } from '../proofs/index.js';
import { Verifier, type ClaimResult } from './engine.js';
import { VerifyReport } from './verify-report.entity.js';
import { parseVerifyInput, ReportListQuerySchema, type ParsedVerifyInput, type ReportDto } from './verify.schemas.js';
import { unnamed } from '../../lib/unnamed.js';

/** The route a report's control and certificate are recorded under (the GraphQL twin shares it). */
export const VERIFY_ROUTE = 'POST /v1/verify';
/** `model` of a report's certificate: the rules, versioned with docs/verifier.md. */
export const VERIFIER_MODEL = 'svc-verifier/rules-1';

/** Chunks read per statement when checking against collections. */
const CHUNK_PAGE = 2_000;

/** Loads the ready passages of the collections into the verifier, page by page (source, then position). */
async function addCollections(ctx: ServiceContext, verifier: Verifier, collectionIds: string[]): Promise<void> {
  for (const id of collectionIds) {
    if (!(await findCollection(ctx, id))) throw errors.validation('collectionIds', 'Collection not found', { collectionId: id });
  }
  const ws = ctx.caller.workspace.id;
  const inList = collectionIds.map(() => '?').join(', ');
  const sources = await ctx.em.execute<{ id: string; name: string }[]>(
    `select id, name from knowledge_source where workspace_id = ? and status = 'ready' and collection_id in (${inList})`,
    [ws, ...collectionIds],
  );
  if (sources.length === 0) return;
  const names = new Map(sources.map((r) => [r.id, r.name]));
  const page = (after: [string, number]) =>
    ctx.em.execute<{ id: string; text: string; source_id: string; ordinal: number }[]>(
      `select id, text, source_id, ordinal from knowledge_chunk
        where workspace_id = ? and source_id in (select id from knowledge_source where workspace_id = ? and status = 'ready' and collection_id in (${inList}))
          and (source_id, ordinal) > (?, ?)
        order by source_id, ordinal
        limit ?`,
      [ws, ws, ...collectionIds, after[0], after[1], CHUNK_PAGE],
    );
  // The next page is read while this one is indexed (a read left behind by a stop fails quietly).
  const read = (after: [string, number]) => {
    const p = page(after);
    p.catch(() => undefined);
    return p;
  };
  let pending = read(['', -1]);
  for (;;) {
    const rows = await pending;
    const last = rows[rows.length - 1];
    if (last && rows.length === CHUNK_PAGE) pending = read([last.source_id, Number(last.ordinal)]);
    await verifier.addPassages(rows.map((r) => ({ source: names.get(r.source_id) ?? r.source_id, content: r.text, sourceId: r.source_id, chunkId: r.id })));
    if (rows.length < CHUNK_PAGE) return;
  }
}

/**
 * A verifier over the collections' ready passages: the index kept by this process for the same
 * collections, language and sources (`CollectionIndexes`), or a new one built by `fresh` and kept.
 */
async function collectionVerifier(ctx: ServiceContext, fresh: Verifier, collectionIds: string[], checkpoint: () => void): Promise<Verifier> {
  for (const id of collectionIds) {
    if (!(await findCollection(ctx, id))) throw errors.validation('collectionIds', 'Collection not found', { collectionId: id });
  }
  const ws = ctx.caller.workspace.id;
  const ids = [...new Set(collectionIds)].sort();
  const [state] = await ctx.em.execute<{ sources: string | null }[]>(
    `select md5(string_agg(id || '@' || (extract(epoch from updated_at) * 1000000)::bigint::text, ',' order by id)) as sources
       from knowledge_source where workspace_id = ? and status = 'ready' and collection_id in (${ids.map(() => '?').join(', ')})`,
    [ws, ...ids],
  );
  const key = [ws, ids.join(','), fresh.language, state?.sources ?? 'none'].join('|');
  const index = await ctx.app.verify.collectionIndexes.get(key, async () => {
    // Built without the request's stop check: other requests may be waiting for this index.
    const built = fresh.share();
    await addCollections(ctx, built, ids);
    return built;
  });
  return index.share(checkpoint);
}

function countsOf(claims: ClaimResult[]) {
  const counts = { supported: 0, contradicted: 0, unverifiable: 0 };
  for (const c of claims) counts[c.verdict]++;
  return counts;
}

export function toReportDto(r: VerifyReport): ReportDto {
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    language: r.language,
    against: r.against as ReportDto['against'],
    collectionIds: r.collectionIds ?? null,
    text: r.text,
    claims: r.claims,
    counts: { supported: r.supported, contradicted: r.contradicted, unverifiable: r.unverifiable },
    certificateId: r.certificateId,
  };
}

/**
 * What a report's certificate signs as its answer: the canonical JSON of `{ id, claims, counts }`
 * (docs/verifier.md), built claim by claim with turns of the event loop between slices (a report of
 * thousands of claims is megabytes). Equal to `canonicalJson({ id, claims, counts })`: keys sort as
 * `claims`, `counts`, `id`.
 */
export async function signedAnswerOf(r: Pick<ReportDto, 'id' | 'claims' | 'counts'>): Promise<string> {
  const parts: string[] = [];
  let slice = performance.now();
  for (const claim of r.claims) {
    parts.push(claimCanonicalJson(claim));
    if (performance.now() - slice > 8) {
      await nextTurn();
      slice = performance.now();
    }
  }
  return `{"claims":[${parts.join(',')}],"counts":${canonicalJson(r.counts)},"id":${canonicalJson(r.id)}}`;
}

const CLAIM_KEYS = new Set(['end', 'evidence', 'rule', 'start', 'text', 'verdict']);
const EVIDENCE_KEYS = new Set(['chunkId', 'end', 'quote', 'score', 'source', 'sourceId', 'start']);
/** A string as RFC 8785 writes it (`JSON.stringify`'s form), or null when it has none (a lone surrogate). */
// In a `u` regular expression a surrogate pair is one code point: only a lone surrogate matches.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const str = (v: unknown): string | null => (typeof v === 'string' && !LONE_SURROGATE.test(v) ? JSON.stringify(v) : null);
const num = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? JSON.stringify(v) : null);

/**
 * `canonicalJson(claim)` written directly for a claim's known shape (keys in RFC 8785's order: `end`, `evidence`,
 * `rule`, `start`, `text`, `verdict`; an evidence's `chunkId`, `end`, `quote`, `score`, `source`, `sourceId`,
 * `start`), strings and numbers as `JSON.stringify` writes them, which is RFC 8785's form for well-formed strings
 * and finite numbers. Anything else (another key, another type, a lone surrogate) goes through `canonicalJson`.
 */
export function claimCanonicalJson(c: ClaimResult): string {
  const slow = unnamed(() => canonicalJson(c));
  let keys = 0;
  for (const k in c) {
    if (!CLAIM_KEYS.has(k)) return slow();
    keys++;
  }
  if (keys !== CLAIM_KEYS.size || !Array.isArray(c.evidence)) return slow();
  const evidence: string[] = [];
  for (const e of c.evidence as unknown[]) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return slow();
    const o = e as Record<string, unknown>;
    for (const k in o) if (!EVIDENCE_KEYS.has(k) || o[k] === undefined) return slow();
    const end = num(o.end);
    const quote = str(o.quote);
    const score = num(o.score);
    const source = str(o.source);
    const start = num(o.start);
    if (end === null || quote === null || score === null || source === null || start === null) return slow();
    let chunk = '';
    if ('chunkId' in o) {
      const v = str(o.chunkId);
      if (v === null) return slow();
      chunk = `"chunkId":${v},`;
    }
    let sourceId = '';
    if ('sourceId' in o) {
      const v = str(o.sourceId);
      if (v === null) return slow();
      sourceId = `,"sourceId":${v}`;
    }
    evidence.push(`{${chunk}"end":${end},"quote":${quote},"score":${score},"source":${source}${sourceId},"start":${start}}`);
  }
  const end = num(c.end);
  const rule = str(c.rule);
  const start = num(c.start);
  const text = str(c.text);
  const verdict = str(c.verdict);
  if (end === null || rule === null || start === null || text === null || verdict === null) return slow();
  return `{"end":${end},"evidence":[${evidence.join(',')}],"rule":${rule},"start":${start},"text":${text},"verdict":${verdict}}`;
}

/**
 * The certificate's `requestHash`: SHA-256 of the canonical JSON of `{ text, passages }` or
 * `{ text, collectionIds }`, hashed passage by passage with turns of the event loop (a body near 1 MB).
 * Keys sort as `collectionIds` / `passages`, then `text`. A string RFC 8785 cannot carry (a lone
 * surrogate) is a 400, as on the gateway.
 */
async function hashSignedRequest(input: ParsedVerifyInput): Promise<string> {
  const hash = createHash('sha256');
  try {
    if (input.passages) {
      hash.update('{"passages":[');
      let slice = performance.now();
      for (const [i, p] of input.passages.entries()) {
        hash.update(`${i > 0 ? ',' : ''}${canonicalJson(p)}`);
        if (performance.now() - slice > 8) {
          await nextTurn();
          slice = performance.now();
        }
      }
      hash.update(`],"text":${canonicalJson(input.text)}}`);
    } else {
      hash.update(canonicalJson({ text: input.text, collectionIds: input.collectionIds }));
    }
  } catch (err) {
    throw errors.validation(null, `The request body has no canonical JSON form (RFC 8785): ${(err as Error).message}`);
  }
  return hash.digest('hex');
}

/**
 * `POST /v1/verify`: checks each claim of the text against the passages or collections, stores the report,
 * issues its certificate in the workspace's proof chain and records one control. No model runs, no
 * question is consumed and `monthlyQuestionLimit` is not consulted (SPEC Limits > Controls).
 */
export async function verifyText(ctx: ServiceContext, input: unknown): Promise<ReportDto> {
  const data = parseVerifyInput(input);
  // A client that left, or a shutdown, stops the work between two claims (nothing is stored then).
  const checkpoint = () => {
    if (ctx.signal?.aborted) throw errors.turnAborted();
  };
  let verifier = new Verifier(data.text, checkpoint, ctx.app.verify.sentenceFacts);
  if (data.passages) await verifier.addPassages(data.passages);
  else verifier = await collectionVerifier(ctx, verifier, data.collectionIds, checkpoint);
  const claims = await verifier.verify(data.text);
  const counts = countsOf(claims);
  const id = newId('vrf');
  const proof = pendingProof(ctx, {
    route: VERIFY_ROUTE,
    modelAddress: 'verifier',
    model: VERIFIER_MODEL,
    requestHash: await hashSignedRequest(data),
    answer: await signedAnswerOf({ id, claims, counts }),
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  });
  const certificateId = proof.id;
  const workspaceId = ctx.caller.workspace.id;
  // The certificate, the report (its claims' JSON, hundreds of kB, a bound parameter) and the control: one statement,
  // one commit (report-writes.ts); the report and the control take the certificate's time.
  const { createdAt } = await ctx.app.reportWrites.submit(workspaceId, {
    proof,
    report: {
      id,
      workspaceId,
      keyId: ctx.caller.limits.meter,
      userId: ctx.caller.user.id,
      language: verifier.language,
      text: data.text,
      against: data.passages ? 'passages' : 'collections',
      collectionIds: data.collectionIds ? JSON.stringify(data.collectionIds) : null,
      passageCount: verifier.passageCount,
      claims: JSON.stringify(claims),
      supported: counts.supported,
      contradicted: counts.contradicted,
      unverifiable: counts.unverifiable,
      certificateId,
    },
    control: { workspaceId, keyId: ctx.caller.limits.meter, userId: ctx.caller.user.id, route: VERIFY_ROUTE },
  });
  return {
    id,
    createdAt: createdAt.toISOString(),
    language: verifier.language,
    against: data.passages ? 'passages' : 'collections',
    collectionIds: data.collectionIds ?? null,
    text: data.text,
    claims,
    counts,
    certificateId,
  };
}

/** `GET /v1/verify`: newest first, `limit` per page; the cursor keeps pages stable while new reports arrive. */
export async function listReports(ctx: ServiceContext, query: unknown = {}): Promise<{ reports: ReportDto[]; nextCursor: string | null }> {
  const { limit, cursor } = ReportListQuerySchema.parse(query ?? {});
  const before = cursor ? decodeSeqCursor(cursor) : null;
  const rows = await ctx.em.find(
    VerifyReport,
    { workspaceId: ctx.caller.workspace.id, ...(before ? { seq: { $lt: before } } : {}) },
    { orderBy: { seq: 'desc' }, limit: limit + 1 },
  );
  const page = rows.slice(0, limit);
  return { reports: page.map(toReportDto), nextCursor: rows.length > limit ? encodeSeqCursor(Number(page[page.length - 1]!.seq)) : null };
}

async function findReport(ctx: ServiceContext, id: string): Promise<VerifyReport> {
  const report = id.length > 64 || id.includes('\u0000') ? null : await ctx.em.findOne(VerifyReport, { id, workspaceId: ctx.caller.workspace.id });
  if (!report) throw errors.notFound('verifyReport', id);
  return report;
}

export async function getReport(ctx: ServiceContext, id: string): Promise<ReportDto> {
  return toReportDto(await findReport(ctx, id));
}

/** The report's certificate, signed and chained like a gateway certificate (verify it with `GET /v1/gateway/public-key`). */
export async function getReportCertificate(ctx: ServiceContext, id: string): Promise<Certificate> {
  const report = await findReport(ctx, id);
  const cert = await ctx.em.findOne(ProofCertificate, { id: report.certificateId, workspaceId: ctx.caller.workspace.id });
  if (!cert) throw errors.proofNotFound(report.certificateId);
  return toCertificateDto(cert);
}

/** A report with its certificate, for the export (PDF or JSON). */
export async function getReportExport(ctx: ServiceContext, id: string): Promise<{ report: ReportDto; certificate: Certificate }> {
  return { report: await getReport(ctx, id), certificate: await getReportCertificate(ctx, id) };
}
