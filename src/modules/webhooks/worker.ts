import type { Deps } from '../../core/deps.js';
import { attemptDelivery, claimDue, renewLeases, trimSoon, type ClaimedDelivery } from './dispatcher.js';

export interface WorkerOptions {
  /** Safety-net polling: picks up rows written by other processes and anything a wake-up missed. */
  pollMs: number;
  /** Attempts in flight at once in this process. */
  maxInFlight: number;
}

/**
 * The in-process worker for attempts 1 to 3. Woken right after a commit that wrote deliveries (first
 * attempt at once), it also wakes when a 1 s / 5 s retry falls due and polls as a safety net. Several
 * processes can run one each: claims never hand the same attempt to two of them.
 */
export class WebhookWorker {
  readonly #app: Deps;
  readonly #opts: WorkerOptions;
  readonly #inFlight = new Map<Promise<void>, ClaimedDelivery>();
  /** Log trims run after the attempt has freed its slot. */
  readonly #trims = new Set<Promise<void>>();
  readonly #shutdown = new AbortController();
  /** Attempts in flight are aborted (and released) when the worker stops or the app's drain time is over. */
  readonly #abort: AbortSignal;
  readonly #stopRenewing: () => void;
  /** The claim statement in progress, if any (a drain waits for what it returns). */
  #claiming_: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  /** Due times (performance.now()) of the retries this process scheduled and has not claimed yet. */
  #retriesDue: number[] = [];
  #running = false;
  #rerun = false;
  /** The last claim filled every free slot: more may be due, claimed once `#refill` slots are free again. */
  #waitingForRoom = false;
  /** Free slots that make a claim worth its round trip when the worker is saturated (a quarter of them). */
  readonly #refill: number;

  constructor(app: Deps, opts: WorkerOptions) {
    this.#app = app;
    this.#opts = opts;
    this.#abort = AbortSignal.any([this.#shutdown.signal, app.shutdown.signal]);
    this.#refill = Math.max(1, Math.floor(opts.maxInFlight / 4));
    this.#stopRenewing = renewLeases(app, () => this.#inFlight.values());
  }

  start(): void {
    this.#wakeIn(0);
  }

  notify(): void {
    this.#wakeIn(0);
  }

  /**
   * The app is draining: claims nothing more and resolves once the attempts in flight have finished
   * (or been released, when the drain time runs out).
   */
  async drain(): Promise<void> {
    clearTimeout(this.#timer);
    await this.#claiming_.catch(() => {});
    await Promise.allSettled([...this.#inFlight.keys()]);
    await Promise.allSettled([...this.#trims]);
  }

  /** Stops claiming; attempts in flight are aborted and released for the next process to make. */
  async stop(): Promise<void> {
    this.#shutdown.abort();
    clearTimeout(this.#timer);
    await this.#claiming_.catch(() => {});
    await Promise.allSettled([...this.#inFlight.keys()]);
    await Promise.allSettled([...this.#trims]);
    this.#stopRenewing();
  }

  get #claiming(): boolean {
    return !this.#abort.aborted && !this.#app.shutdown.draining;
  }

  #wakeIn(delayMs: number): void {
    if (!this.#claiming) return;
    // A delay counted in whole milliseconds of the clock: one more, so that the clock has reached it.
    const delay = delayMs > 0 ? Math.min(delayMs + 1, this.#opts.pollMs) : 0;
    const at = performance.now() + delay;
    if (this.#timer && at >= this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    // A timer may fire early (it counts from the event loop's cached time, taken before this turn's
    // work): a retry claimed before it is due would find nothing and wait for the next poll.
    const fire = () => {
      const left = at - performance.now();
      if (left > 0) {
        this.#timer = setTimeout(fire, Math.ceil(left));
        return;
      }
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      void this.#tick();
    };
    this.#timer = setTimeout(fire, delay);
  }

  async #tick(): Promise<void> {
    if (this.#running) {
      this.#rerun = true;
      return;
    }
    this.#running = true;
    this.#rerun = false;
    const startedAt = performance.now();
    let full = false;
    try {
      if (!this.#claiming) return;
      const room = this.#opts.maxInFlight - this.#inFlight.size;
      if (room > 0) {
        const claiming = claimDue(this.#app, this.#app.clock.now(), 'immediate', room);
        this.#claiming_ = claiming;
        const claimed = await claiming;
        for (const delivery of claimed) this.#track(delivery);
        full = claimed.length === room;
      } else {
        full = true;
      }
    } catch (err) {
      if (this.#claiming) this.#app.log.error({ err }, 'webhook worker could not claim deliveries');
    } finally {
      this.#running = false;
    }
    // Saturated: the next claim waits for a quarter of the slots (one round trip claims many), the poll
    // stays as a safety net.
    this.#waitingForRoom = full;
    if (full && this.#opts.maxInFlight - this.#inFlight.size >= this.#refill) this.#wakeIn(0);
    else this.#wakeIn(this.#rerun ? 0 : this.#nextWait(startedAt));
  }

  /**
   * How long to sleep after a claim: until the earliest retry this process scheduled that the claim
   * could not yet take, or the poll. Without it a retry due between two polls waited for the poll timer
   * armed before it was known (attempt 2 came 2 s after attempt 1 instead of 1 s: issue 25).
   */
  #nextWait(claimedAt: number): number {
    this.#retriesDue = this.#retriesDue.filter((at) => at > claimedAt);
    const earliest = Math.min(...this.#retriesDue);
    return Math.max(0, Math.min(this.#opts.pollMs, Math.ceil(earliest - performance.now())));
  }

  #track(delivery: ClaimedDelivery): void {
    const signal = this.#abort;
    const work = attemptDelivery(this.#app, delivery, 'automatic', signal)
      .then((result) => {
        if (result.nextAttemptAt) {
          const inMs = result.nextAttemptAt.getTime() - this.#app.clock.now().getTime();
          this.#retriesDue.push(performance.now() + inMs);
          this.#wakeIn(inMs);
        }
        if (!signal.aborted) this.#trim(delivery.endpointId);
      })
      .catch((err: unknown) => {
        if (!signal.aborted) this.#app.log.error({ err, deliveryId: delivery.id }, 'webhook attempt could not be recorded');
      })
      .finally(() => {
        this.#inFlight.delete(work);
        if (this.#waitingForRoom && this.#opts.maxInFlight - this.#inFlight.size >= this.#refill) {
          this.#waitingForRoom = false;
          this.#wakeIn(0);
        }
      });
    this.#inFlight.set(work, delivery);
  }

  #trim(endpointId: string): void {
    const work = trimSoon(this.#app, endpointId)
      .catch((err: unknown) => this.#app.log.warn({ err, endpointId }, 'webhook log trim failed'))
      .finally(() => this.#trims.delete(work));
    this.#trims.add(work);
  }
}
