import type { EventSink, TurnStage } from './chat-events.js';

/**
 * Runs the named stages of a turn and reports them as `stage` events (start, then end with its
 * duration). A failing stage reports no end: the `error` event follows instead. Durations are
 * measured on the monotonic timer: they describe the run, they are not business time.
 */
export class Stages {
  /** The stages that ended, in order, with their durations (stored with the answer for the history). */
  readonly done: { name: TurnStage; ms: number }[] = [];
  private readonly running = new Map<TurnStage, number>();

  constructor(private readonly sink: EventSink | undefined) {}

  async run<T>(name: TurnStage, fn: () => Promise<T>): Promise<T> {
    this.sink?.({ type: 'stage', data: { name, phase: 'start' } });
    const started = performance.now();
    this.running.set(name, started);
    try {
      const out = await fn();
      const ms = Math.round(performance.now() - started);
      this.done.push({ name, ms });
      this.sink?.({ type: 'stage', data: { name, phase: 'end', ms } });
      return out;
    } finally {
      this.running.delete(name);
    }
  }

  /**
   * The stages that ended, then those still running with their time so far: what an answer written from
   * within a stage (the save) stores, since its own statement cannot wait for its stage to end.
   */
  soFar(): { name: TurnStage; ms: number }[] {
    const now = performance.now();
    return [...this.done, ...[...this.running].map(([name, started]) => ({ name, ms: Math.round(now - started) }))];
  }
}
