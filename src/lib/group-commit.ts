import { currentStages, stageTimingOn, type StageTimes } from './stage-timing.js';

/**
 * Group commit: requests for the same key (a workspace, a counter bucket) that arrive while a write for
 * that key is in flight wait together and are written by the next write, in arrival order, in one round
 * trip or one transaction. Nothing waits on a timer: a request that finds its key idle is written at once
 * (no latency added at one client); under load, each write carries everything that queued behind the
 * previous one, so the writes per second stay bounded while the requests per second grow.
 *
 * `flush` receives the items in arrival order and returns one outcome per item, in the same order: a value
 * or an `Error` for that item alone. If `flush` throws, every item of the batch fails with that error.
 */
export type Outcome<R> = R | Error;

export interface GroupCommitOptions<T, R> {
  flush: (key: string, items: T[]) => Promise<Outcome<R>[]>;
  /** Largest batch written at once; the rest waits for the next write. */
  maxBatch?: number;
  /**
   * The stage a request's wait is timed as, with stage timing on (src/lib/stage-timing.ts): `<stage>.queued`
   * from its submit to the start of the write that carries it, `<stage>` for that write.
   */
  stage?: string;
}

interface Waiter<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (err: unknown) => void;
  /** The submitting request's stages and when it submitted (stage timing on). */
  timed?: { stages: StageTimes; at: number };
}

export class GroupCommit<T, R> {
  private readonly queues = new Map<string, Waiter<T, R>[]>();
  private readonly busy = new Set<string>();
  private readonly maxBatch: number;

  constructor(private readonly opts: GroupCommitOptions<T, R>) {
    this.maxBatch = opts.maxBatch ?? 256;
  }

  /** Queues `item` under `key`; settles when the write that carries it has committed. */
  submit(key: string, item: T): Promise<R> {
    return this.submitVia(key, item);
  }

  /**
   * As `submit`, except that when `key` is idle the item is written at once by `write` instead of `flush`
   * (a batch of that one item): for a caller that sends the write inside a statement of its own (the chat
   * turn's read carries its admission). `write` is called before this returns, or never: when a write for
   * `key` is in flight, the item queues for the next one as by `submit`. Items queued meanwhile go to `flush`.
   */
  submitVia(key: string, item: T, write?: (items: T[]) => Promise<Outcome<R>[]>): Promise<R> {
    const stages = currentStages();
    return new Promise<R>((resolve, reject) => {
      let queue = this.queues.get(key);
      if (!queue) this.queues.set(key, (queue = []));
      queue.push(stages && this.opts.stage ? { item, resolve, reject, timed: { stages, at: performance.now() } } : { item, resolve, reject });
      if (!this.busy.has(key)) void this.drain(key, write);
    });
  }

  /** Items waiting, over every key (for tests and metrics). */
  get pending(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  private async drain(key: string, first?: (items: T[]) => Promise<Outcome<R>[]>): Promise<void> {
    this.busy.add(key);
    let write = first;
    try {
      for (;;) {
        const queue = this.queues.get(key);
        if (!queue || queue.length === 0) {
          this.queues.delete(key);
          return;
        }
        const batch = queue.splice(0, this.maxBatch);
        const started = stageTimingOn ? performance.now() : 0;
        let outcomes: Outcome<R>[];
        try {
          const items = batch.map((w) => w.item);
          const flushing = write ? write(items) : this.opts.flush(key, items);
          write = undefined;
          outcomes = await flushing;
          if (outcomes.length !== batch.length) throw new Error(`group commit: ${outcomes.length} outcomes for ${batch.length} items`);
        } catch (err) {
          if (stageTimingOn) this.timeBatch(batch, started);
          for (const w of batch) w.reject(err);
          continue;
        }
        if (stageTimingOn) this.timeBatch(batch, started);
        batch.forEach((w, i) => {
          const outcome = outcomes[i];
          if (outcome instanceof Error) w.reject(outcome);
          else w.resolve(outcome as R);
        });
      }
    } finally {
      this.busy.delete(key);
    }
  }

  /** Each timed request of `batch`: its wait for the write (`<stage>.queued`), then the write (`<stage>`). */
  private timeBatch(batch: Waiter<T, R>[], started: number): void {
    const stage = this.opts.stage!;
    const ended = performance.now();
    for (const { timed } of batch) {
      if (!timed) continue;
      timed.stages.record(`${stage}.queued`, timed.at, started);
      timed.stages.record(stage, started, ended);
    }
  }
}
