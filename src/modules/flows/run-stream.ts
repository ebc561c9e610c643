import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { FlowRun } from './flow.entity.js';
import type { RunEvent, RunEventType } from './runs.js';

/** How often a stream reads the run's log when no wake-up came (events written by other processes). */
const POLL_MS = 250;

export interface StreamedRunEvent extends RunEvent {
  seq: number;
}

/**
 * The run's events from its start, then as they happen, until `run_finished` (or the signal aborts):
 * one generator feeds the REST SSE route and the GraphQL subscription. Events are read from the run's
 * log (`flow_run_event`), so a stream shows what any process did; this process's commits wake it at once.
 */
export async function openRunStream(ctx: ServiceContext, runId: string): Promise<AsyncGenerator<StreamedRunEvent>> {
  const run = runId.includes('\u0000') || runId.length > 64 ? null : await ctx.em.findOne(FlowRun, { id: runId, workspaceId: ctx.caller.workspace.id });
  if (!run) throw errors.notFound('flowRun', runId);
  return follow(ctx, run.id);
}

async function* follow(ctx: ServiceContext, runId: string): AsyncGenerator<StreamedRunEvent> {
  let last = 0;
  let wake: (() => void) | undefined;
  const unsubscribe = ctx.app.flows.events.subscribe(() => wake?.());
  try {
    for (;;) {
      const rows = await ctx.em
        .fork()
        .execute<{ seq: string | number; type: RunEventType; data: Record<string, unknown> | string }[]>(
          `select seq, type, data from flow_run_event where run_id = ? and seq > ? order by seq limit 500`,
          [runId, last],
        );
      for (const row of rows) {
        last = Number(row.seq);
        const event: StreamedRunEvent = { seq: last, type: row.type, data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data };
        yield event;
        if (event.type === 'run_finished') return;
      }
      if (rows.length === 500) continue;
      if (ctx.signal?.aborted) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, POLL_MS);
        const onAbort = () => done();
        ctx.signal?.addEventListener('abort', onAbort, { once: true });
        function done() {
          clearTimeout(timer);
          ctx.signal?.removeEventListener('abort', onAbort);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
      if (ctx.signal?.aborted) return;
    }
  } finally {
    unsubscribe();
  }
}
