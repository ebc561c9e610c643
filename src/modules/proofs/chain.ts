import { createHash, sign } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Kernel } from '../../core/deps.js';
import { pgArrayLiteral, preparedSql, sql } from '../../db/sql.js';
import { GroupCommit, type Outcome } from '../../lib/group-commit.js';
import type { TokenUsage } from '../models/index.js';
import { certificateJson } from './canonical.js';
import type { CallOutcome, CertificateBody } from './proofs.schemas.js';
import type { GatewaySigning } from './signing-key.js';
import { unnamed } from '../../lib/unnamed.js';

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
  /** The API key the certificate is issued for (not signed; the register filters by it); null for a person. */
  apiKeyId: string | null;
  /** The HTTP request of the call (`x-request-id`): stored beside the certificate, not signed. */
  requestId: string | null;
}

/**
 * The proof chains of this process: one appender per workspace (group commit). Certificates issued while
 * an append of their workspace is in flight are appended together by the next one, in arrival order, in
 * one statement: a call waits for its batch, not for every call before it.
 *
 * The append is optimistic: the process remembers the last link it saw for each workspace and inserts the
 * batch after it (positions `seq + 1…`, `prevHash` the last hash). A link never changes once written, so
 * the remembered one is always a true link; the unique (workspace, seq) index refuses the batch when
 * another process appended in between, and the batch is then re-linked after the chain's real head and
 * retried. So the chain stays one unbroken line across processes, and a process alone appends in one
 * round trip.
 */
export class ProofChain extends GroupCommit<PendingProof, { id: string }> {
  constructor(
    private readonly kernel: Kernel,
    private readonly signing: GatewaySigning,
    private readonly heads: ChainHeads,
  ) {
    super({ stage: 'proof_write', flush: (workspaceId, items) => appendBatch(kernel, signing, heads, workspaceId, items) });
  }

  /**
   * As `submit`, and when the workspace's chain is idle the certificate's insert carries `alongside` in its
   * statement (one commit for both; a streamed chat turn's exchange, issue 28): then `carried` settles with that
   * statement's rows once both have committed. When an append of the workspace is in flight the certificate
   * queues for the next one as by `submit`, `carried` is undefined and the caller sends `alongside` itself.
   * `alongside` must be safe to send again after a rollback (`appendBatch`).
   */
  submitWith(workspaceId: string, item: PendingProof, alongside: AlongsideStatement): { appended: Promise<{ id: string }>; carried?: Promise<Record<string, unknown>[]> } {
    let answer!: (rows: Record<string, unknown>[]) => void;
    let fail!: (err: unknown) => void;
    let carried: Promise<Record<string, unknown>[]> | undefined;
    const appended = this.submitVia(workspaceId, item, (items) => {
      carried = new Promise((resolve, reject) => ((answer = resolve), (fail = reject)));
      return appendBatch(this.kernel, this.signing, this.heads, workspaceId, items, { ...alongside, answered: (rows) => answer(rows) }).catch((err: unknown) => {
        fail(err);
        throw err;
      });
    });
    // Both settle together; a failure is the caller's through either, so the other is not left unhandled.
    carried?.catch(() => {});
    return carried ? { appended, carried } : { appended };
  }
}

interface Head {
  seq: number;
  hash: string | null;
}

/** The last link this process saw per workspace: shared by every appender of the process (`ProofChain`, the gateway's answer writes). */
export type ChainHeads = Map<string, Head>;

/** A statement sent with a batch's append, in the same statement (`with chain as (insert …) <select>`): parameters `$1…` are its own. */
export interface AlongsideStatement {
  /** A select list, or a statement of its own CTEs (`with a as (…) select …`), joined to the insert's at the top level. */
  select: string;
  params: readonly unknown[];
  /** Called with the statement's rows once it has committed. */
  answered?: (rows: Record<string, unknown>[]) => void;
}

/** A certificate as linked and signed for its batch's insert (`appendBatch`'s statement sent alongside may be built from them). */
export type LinkedProof = ReturnType<typeof linkBatch>[number];

/** Retries of a batch that other processes keep overtaking (each retry reads the head again). */
const MAX_RELINKS = 100;

export function createProofChain(kernel: Kernel, signing: GatewaySigning, heads: ChainHeads = new Map()): ProofChain {
  return new ProofChain(kernel, signing, heads);
}

async function readHead(kernel: Kernel, workspaceId: string): Promise<Head> {
  const [last] = await sql<{ seq: number; hash: string }>(
    kernel.orm.em,
    'select seq, hash from proof_certificate where workspace_id = $1 order by seq desc limit 1',
    [workspaceId],
  );
  return { seq: last?.seq ?? 0, hash: last?.hash ?? null };
}

/**
 * Another process appended first: a unique violation of the chain's (workspace, seq) index. A unique violation
 * of anything else (the statement sent alongside, a certificate id) is a failure, not a reason to re-link.
 */
const isChainConflict = (err: unknown): boolean => {
  if (!(err instanceof UniqueConstraintViolationException) && (err as { code?: string } | null)?.code !== '23505') return false;
  const constraint = (err as { constraint?: string }).constraint;
  return constraint === undefined || constraint === 'proof_certificate_chain_idx';
};

/**
 * Links, signs and inserts a workspace's batch after its head, re-linking after the real head when another
 * process appended in between. With `alongside`, that statement is sent in the same statement as the insert
 * (one implicit transaction): a unique violation on (workspace, seq) rolls both back, and the retry sends
 * both again after the head read anew; `alongside` must therefore be safe to send again after a rollback.
 * Given as a function, it is built from each attempt's linked certificates (their `createdAt`, `seq`).
 * Returns each certificate's id and time.
 */
export async function appendBatch(
  kernel: Kernel,
  signing: GatewaySigning,
  heads: ChainHeads,
  workspaceId: string,
  items: PendingProof[],
  alongside?: AlongsideStatement | ((rows: LinkedProof[]) => AlongsideStatement),
): Promise<Outcome<{ id: string; createdAt: Date }>[]> {
  let head = heads.get(workspaceId) ?? (await readHead(kernel, workspaceId));
  for (let attempt = 0; ; attempt++) {
    const rows = linkBatch(kernel, signing, workspaceId, head, items);
    let answer: Record<string, unknown>[];
    let along: AlongsideStatement | undefined;
    try {
      along = typeof alongside === 'function' ? alongside(rows) : alongside;
      answer = await insertLinks(kernel, rows, along);
    } catch (err) {
      heads.delete(workspaceId);
      if (!isChainConflict(err) || attempt >= MAX_RELINKS) throw err;
      head = await readHead(kernel, workspaceId);
      continue;
    }
    const last = rows[rows.length - 1];
    heads.set(workspaceId, { seq: last.seq, hash: last.hash });
    along?.answered?.(answer);
    return rows.map((r) => ({ id: r.id, createdAt: r.createdAt }));
  }
}

/**
 * The batch's insert, its text the same for every batch (the rows' varying columns as arrays, `unnest`), so it
 * is a prepared statement planned once per connection (`preparedSql`); `offset` is the number of parameters
 * of the statement sent with it (`alongside`), which come first.
 */
const insertText = (offset: number): string => {
  const $ = (n: number) => `$${offset + n}`;
  return `insert into proof_certificate (id, workspace_id, seq, route, model_address, model, conversation_id, request_hash, answer_hash,
      prompt_tokens, completion_tokens, total_tokens, prev_hash, hash, signature, key_id, outcome, api_key_id, request_id, created_at)
    select l.id, ${$(1)}, l.seq, l.route, l.model_address, l.model, l.conversation_id, l.request_hash, l.answer_hash,
           l.prompt_tokens, l.completion_tokens, l.total_tokens, l.prev_hash, l.hash, l.signature, ${$(2)}, l.outcome, l.api_key_id, l.request_id, ${$(3)}
      from unnest(${$(4)}::text[], ${$(5)}::int[], ${$(6)}::text[], ${$(7)}::text[], ${$(8)}::text[], ${$(9)}::text[], ${$(10)}::text[],
                  ${$(11)}::text[], ${$(12)}::int[], ${$(13)}::int[], ${$(14)}::int[], ${$(15)}::text[], ${$(16)}::text[], ${$(17)}::text[],
                  ${$(18)}::text[], ${$(19)}::text[], ${$(20)}::text[])
           as l(id, seq, route, model_address, model, conversation_id, request_hash, answer_hash,
                prompt_tokens, completion_tokens, total_tokens, prev_hash, hash, signature, outcome, api_key_id, request_id)`;
};
const statements = new Map<string, string>();

/**
 * The batch in one statement (after `alongside`'s own, in the same statement, when given): `alongside`'s rows.
 * A statement of CTEs of its own (`with …`) has them joined to the insert's at the top level (a data-modifying
 * CTE cannot sit in a subquery).
 */
async function insertLinks(kernel: Kernel, rows: ReturnType<typeof linkBatch>, alongside?: AlongsideStatement): Promise<Record<string, unknown>[]> {
  const [first] = rows;
  const column = unnamed(<K extends keyof (typeof rows)[number]>(k: K) => pgArrayLiteral(rows.map((r) => r[k] as string | number | null)));
  const params = [
    first.workspaceId, first.keyId, first.createdAt,
    column('id'), column('seq'), column('route'), column('modelAddress'), column('model'), column('conversationId'), column('requestHash'),
    column('answerHash'), column('promptTokens'), column('completionTokens'), column('totalTokens'), column('prevHash'), column('hash'),
    column('signature'), column('outcome'), column('apiKeyId'), column('requestId'),
  ];
  const key = alongside?.select ?? '';
  let text = statements.get(key);
  if (text === undefined) {
    const insert = insertText(alongside?.params.length ?? 0);
    const own = alongside ? /^\s*with\s+/i.exec(alongside.select) : null;
    text = !alongside ? insert : own ? `with chain as (${insert}), ${alongside.select.slice(own[0].length)}` : `with chain as (${insert}) ${alongside.select}`;
    statements.set(key, text);
  }
  return preparedSql(kernel.orm.em, text, alongside ? [...alongside.params, ...params] : params);
}

/** The batch's certificates placed after `head`, in order, each signed. */
function linkBatch(kernel: Kernel, signing: GatewaySigning, workspaceId: string, head: Head, items: PendingProof[]) {
  const key = signing.key;
  const createdAt = kernel.clock.now();
  let seq = head.seq;
  let prevHash = head.hash;
  return items.map((item) => {
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
    const payload = Buffer.from(certificateJson(body), 'utf8');
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
      apiKeyId: item.apiKeyId,
      requestId: item.requestId,
      createdAt,
    };
  });
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The proof chains' appenders of this process (group commit per workspace). */
    readonly proofChain: ProofChain;
  }
}
