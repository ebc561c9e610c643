import type { Kernel } from '../../core/deps.js';
import { GroupCommit, type Outcome } from '../../lib/group-commit.js';
import { appendBatch, type ChainHeads, type GatewaySigning, type LinkedProof, type PendingProof } from '../proofs/index.js';
import { controlsInsert, controlsRecorded, type PendingControl } from '../usage/index.js';

/** A verifier report's row of `verify_report`, but its time (its certificate's). */
export interface PendingReportRow {
  id: string;
  workspaceId: string;
  keyId: string;
  userId: string;
  language: string;
  text: string;
  against: 'passages' | 'collections';
  collectionIds: string | null;
  passageCount: number;
  /** The claims' JSON, as stored. */
  claims: string;
  supported: number;
  contradicted: number;
  unverifiable: number;
  certificateId: string;
}

/** A verifier report's three writes: its certificate, the report and its control in the ledger. */
export interface PendingReport {
  proof: PendingProof;
  report: PendingReportRow;
  control: PendingControl;
}

/**
 * The verifier's reports, one group commit per workspace (docs/performance.md, "Verifier speed, eleventh pass"): a
 * batch's certificates are linked and signed as the proof chain does (chain.ts), and sent with the batch's reports and
 * controls in one statement, `with chain as (insert into proof_certificate …), reports as (insert into verify_report …)
 * insert into usage_ledger …`: one round trip and one commit where the certificate, a read of its time, then the report
 * and control's transaction took six round trips and two commits. Each report and control takes its certificate's time.
 * A unique violation on (workspace, seq) (another process appended first) rolls all three back; the retry re-reads
 * the chain's head and sends them again. So the report is durable with its certificate, before the answer, as before.
 */
export type ReportWrites = GroupCommit<PendingReport, { createdAt: Date }>;

const REPORT_COLUMNS = 15;

export function reportsStatement(items: readonly PendingReport[], rows: readonly LinkedProof[]): { select: string; params: unknown[] } {
  const params: unknown[] = [];
  const values = items.map(({ report: r }, i) => {
    const at = rows[i]!.createdAt;
    const first = params.length;
    params.push(r.id, r.workspaceId, r.keyId, r.userId, r.language, r.text, r.against, r.collectionIds, r.passageCount, r.claims);
    params.push(r.supported, r.contradicted, r.unverifiable, r.certificateId, at);
    const $ = (n: number) => `$${first + n}`;
    return `(${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, ${$(7)}, ${$(8)}::jsonb, ${$(9)}::int, ${$(10)}::jsonb, ${$(11)}::int, ${$(12)}::int, ${$(13)}::int, ${$(14)}, ${$(15)}::timestamptz)`;
  });
  if (params.length !== items.length * REPORT_COLUMNS) throw new Error('verify_report: a row of the wrong width');
  const controls = controlsInsert(
    items.map((i) => i.control),
    rows.map((r) => r.createdAt),
    params.length,
  );
  return {
    select: `with reports as (
      insert into verify_report (id, workspace_id, key_id, user_id, language, text, against, collection_ids, passage_count, claims,
                                 supported, contradicted, unverifiable, certificate_id, created_at)
      values ${values.join(', ')})
    ${controls.text}`,
    params: [...params, ...controls.params],
  };
}

export function createReportWrites(kernel: Kernel, signing: GatewaySigning, heads: ChainHeads): ReportWrites {
  return new GroupCommit({
    stage: 'report_write',
    flush: async (workspaceId, items): Promise<Outcome<{ createdAt: Date }>[]> => {
      const appended = await appendBatch(
        kernel,
        signing,
        heads,
        workspaceId,
        items.map((i) => i.proof),
        (rows) => reportsStatement(items, rows),
      );
      controlsRecorded(items.length);
      return appended.map((a) => (a instanceof Error ? a : { createdAt: a.createdAt }));
    },
  });
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The verifier reports' certificate, report and control, one statement per workspace batch. */
    readonly reportWrites: ReportWrites;
  }
}
