import type { Kernel } from '../../core/deps.js';
import { GroupCommit, type Outcome } from '../../lib/group-commit.js';
import { appendBatch, type ChainHeads, type GatewaySigning, type PendingProof } from '../proofs/index.js';
import { recordStatement, type PendingConsumption, type RecordedConsumption } from '../usage/index.js';

/** A gateway answer's two writes: its certificate and its ledger entry. */
export interface PendingAnswer {
  proof: PendingProof;
  consumption: PendingConsumption;
}

/**
 * The gateway's answers, one group commit per workspace (docs/performance.md, "fifth pass"): a batch's
 * certificates are linked and signed as the proof chain does (chain.ts), and sent with the batch's ledger
 * entries in one statement, `with chain as (insert into proof_certificate …) select svc_record(…)`. A unique
 * violation on (workspace, seq) (another process appended first) rolls both back; the retry re-reads the
 * chain's head and sends both again. So the chain's invariants (one line across processes, nothing lost
 * on kill -9) hold as for the chain alone, and an answer's two writes are one round trip.
 *
 * With `SVC_ANSWER_COMMIT=committed` the statement commits without waiting for the WAL flush (`synchronous_commit`
 * off for its transaction only, as the admission's): the answer leaves once its certificate and ledger entry are
 * committed, not once they are on disk (docs/decisions.md, "When a gateway answer leaves").
 */
export type AnswerWrites = GroupCommit<PendingAnswer, RecordedConsumption>;

export function createAnswerWrites(kernel: Kernel, signing: GatewaySigning, heads: ChainHeads): AnswerWrites {
  const flushed = kernel.config.answerCommit === 'flushed';
  return new GroupCommit({
    stage: 'answer_write',
    flush: async (workspaceId, items): Promise<Outcome<RecordedConsumption>[]> => {
      const record = recordStatement(
        kernel,
        workspaceId,
        items.map((i) => i.consumption),
      );
      const appended = await appendBatch(
        kernel,
        signing,
        heads,
        workspaceId,
        items.map((i) => i.proof),
        flushed ? record : { select: `${record.select} from (select set_config('synchronous_commit', 'off', true)) as async_commit`, params: record.params },
      );
      const recorded = await record.outcomes(kernel.orm.em.fork());
      return recorded.map((r, i) => (appended[i] instanceof Error ? appended[i] : r));
    },
  });
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The gateway answers' certificate and ledger entry, one statement per workspace batch. */
    readonly answerWrites: AnswerWrites;
  }
}
