import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Opt-in per-stage timing of each request (docs/operations.md, "Stage timing"; issue 28: where the slowest
 * gateway calls wait). With `SVC_STAGE_TIMING=on`, a request carries a `StageTimes` from its arrival: the
 * pipeline's spans (`withSpan`: authentication, rate limits, admission, the model call) and every group
 * commit it queues on (the key lookup, the rate count and admission, the answer's write) record how long
 * they took and when they ended; a group commit also records how long the request waited for the batch in
 * flight before its own (`<stage>.queued`). The request's `request finished` line carries them and
 * `svc_request_stage_seconds` counts them. Off (the default), every hook is one boolean check.
 *
 * Read once from the environment, like tracing (src/lib/tracing.ts): the group commits are built before a
 * request exists and consult it per submit.
 */
export const stageTimingOn = process.env.SVC_STAGE_TIMING?.trim().toLowerCase() === 'on';

const round = (ms: number): number => Math.round(ms * 100) / 100;

/** One request's stages: milliseconds spent in each, and milliseconds from arrival to the end of each. */
export class StageTimes {
  private readonly spentMs: Record<string, number> = {};
  private readonly endedMs: Record<string, number> = {};

  constructor(readonly arrival = performance.now()) {}

  /** `stage` ran from `from` to `to` (`performance.now()` times); a stage that runs twice adds up. */
  record(stage: string, from: number, to = performance.now()): void {
    this.spentMs[stage] = (this.spentMs[stage] ?? 0) + (to - from);
    this.endedMs[stage] = to - this.arrival;
  }

  /** Each stage's time spent (`spent`) and its end since arrival (`at`), in ms rounded to 0.01. */
  summary(): { spent: Record<string, number>; at: Record<string, number> } {
    const spent: Record<string, number> = {};
    const at: Record<string, number> = {};
    for (const [stage, ms] of Object.entries(this.spentMs)) spent[stage] = round(ms);
    for (const [stage, ms] of Object.entries(this.endedMs)) at[stage] = round(ms);
    return { spent, at };
  }

  /** Seconds spent in each stage, for the histogram. */
  seconds(): [string, number][] {
    return Object.entries(this.spentMs).map(([stage, ms]) => [stage, ms / 1000]);
  }
}

const current = new AsyncLocalStorage<StageTimes>();

/** The stages of the request being served, when stage timing is on. */
export const currentStages = (): StageTimes | undefined => (stageTimingOn ? current.getStore() : undefined);

/**
 * Runs `fn` as the request whose stages are `stages` (what it awaits records into them); without stages,
 * `fn()`. The event loop's delay as this request met it is recorded as `loop`: the time from here to the
 * loop's next check phase (every callback already due runs before it).
 */
export function withStages<T>(stages: StageTimes | undefined, fn: () => T): T {
  if (!stages) return fn();
  const from = performance.now();
  setImmediate(() => stages.record('loop', from));
  return current.run(stages, fn);
}

/** `fn` timed as `stage` of the current request (when stage timing is on). */
export async function timeStage<T>(stage: string, fn: () => Promise<T>): Promise<T> {
  const stages = currentStages();
  if (!stages) return fn();
  const from = performance.now();
  try {
    return await fn();
  } finally {
    stages.record(stage, from);
  }
}
