import { randomBytes } from 'node:crypto';
import { ChangeSetType, type EventSubscriber } from '@mikro-orm/core';
import { hostname } from 'node:os';
import type { Deps } from '../../core/deps.js';
import { Notifier } from '../../lib/notifier.js';
import { FlowRun } from './flow.entity.js';
import type { AdmitStep } from './flow-caller.js';
import { sweepHookMessages } from './inbound.js';
import { advanceRun, claimRuns, expireApprovals, fireDueSchedules, nextWakeAt, releaseClaims, type Claim } from './engine.js';

/** Process state of the flows module, created once by the composition root. */
export interface FlowsRuntime {
  /** Notified after a commit that made a run claimable (a new run, a decision, a resume); the worker subscribes. */
  readonly wake: Notifier;
  /** Notified after a commit that appended run events: this process's run streams read them at once. */
  readonly events: Notifier;
  /** This process, as recorded on the steps it runs. */
  readonly workerId: string;
  /** How a step's service call is admitted: the request pipeline, behind a port (flow-caller.ts). */
  readonly admitStep: AdmitStep;
}

export function createFlowsRuntime(admitStep: AdmitStep): FlowsRuntime {
  return { wake: new Notifier(), events: new Notifier(), workerId: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`, admitStep };
}

declare module '../../core/deps.js' {
  interface Deps {
    readonly flows: FlowsRuntime;
  }
}

/** Runs advanced at once per process. */
const MAX_IN_FLIGHT = 8;

/**
 * The background worker of one process: woken after each commit that made a run claimable, by the
 * next due time it knows of (a schedule, a wait, an approval's expiry), and polling every
 * `SVC_FLOW_POLL_MS` as a safety net for what other processes wrote. Any number of processes can run
 * one each on one database.
 */
export class FlowWorker {
  readonly #app: Deps;
  readonly #stop = new AbortController();
  readonly #signal: AbortSignal;
  readonly #inFlight = new Map<Promise<void>, Claim>();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #again = false;
  /** When the next housekeeping is due, and the next due time known (schedule, wait, approval expiry); performance.now() units. */
  #housekeepAt = 0;
  #dueAt = Number.POSITIVE_INFINITY;

  constructor(app: Deps) {
    this.#app = app;
    this.#signal = AbortSignal.any([this.#stop.signal, app.shutdown.signal]);
  }

  get #claiming(): boolean {
    return !this.#signal.aborted && !this.#app.shutdown.draining;
  }

  start(): void {
    this.wake(true);
  }

  /**
   * Claims what is claimable now. `housekeeping` (the timer's wake-ups, at most every poll) also expires
   * approvals, fires due schedules and reads the next due time; a commit's wake-up only claims.
   */
  wake(housekeeping = false): void {
    if (!this.#claiming) return;
    if (housekeeping) this.#housekeepAt = 0;
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#ticking = true;
    void this.#tick().finally(() => {
      this.#ticking = false;
      if (this.#again) {
        this.#again = false;
        this.wake();
      }
    });
  }

  async #tick(): Promise<void> {
    const app = this.#app;
    const pollMs = app.config.flows.pollMs;
    let full = false;
    try {
      if (performance.now() >= this.#housekeepAt) {
        await expireApprovals(app);
        await fireDueSchedules(app);
        const at = await nextWakeAt(app);
        this.#dueAt = at ? performance.now() + Math.max(0, at.getTime() - app.clock.now().getTime() + 1) : Number.POSITIVE_INFINITY;
        this.#housekeepAt = performance.now() + pollMs;
      }
      const room = MAX_IN_FLIGHT - this.#inFlight.size;
      if (room > 0 && this.#claiming) {
        const claims = await claimRuns(app, room);
        for (const claim of claims) this.#track(claim);
        full = claims.length === room;
      }
    } catch (err) {
      if (this.#claiming) app.log.error({ err }, 'flow worker tick failed');
    }
    if (!this.#claiming) return;
    const next = Math.min(this.#housekeepAt, this.#dueAt);
    if (full) return void setImmediate(() => this.wake());
    this.#timer = setTimeout(() => this.wake(performance.now() >= this.#dueAt - 1), Math.max(0, next - performance.now()));
    this.#timer.unref();
  }

  #track(claim: Claim): void {
    const work = advanceRun(this.#app, claim, this.#signal)
      .catch((err: unknown) => this.#app.log.error({ err, runId: claim.id }, 'flow run failed unexpectedly'))
      .finally(() => {
        this.#inFlight.delete(work);
        this.wake();
      });
    this.#inFlight.set(work, claim);
  }

  /** The app is draining: claims nothing more and waits for the runs in hand to pause or end. */
  async drain(): Promise<void> {
    clearTimeout(this.#timer);
    await Promise.allSettled([...this.#inFlight.keys()]);
  }

  /** Stops: steps in flight are abandoned and their runs given back for another process to take over. */
  async stop(): Promise<void> {
    this.#stop.abort();
    clearTimeout(this.#timer);
    const tokens = [...new Set([...this.#inFlight.values()].map((c) => c.token))];
    await Promise.allSettled([...this.#inFlight.keys()]);
    await releaseClaims(this.#app, tokens).catch((err: unknown) => this.#app.log.warn({ err }, 'could not release flow runs'));
  }
}

/**
 * Starts the flows module in a running app: runs written inside another module's transaction (event
 * triggers) wake the worker once committed; with background jobs on, this process's worker.
 */
export function startFlows(app: Deps): void {
  app.orm.em.getEventManager().registerSubscriber(wakeAfterCommit(app));
  if (!app.config.backgroundJobs) return;
  const worker = new FlowWorker(app);
  const unsubscribe = app.flows.wake.subscribe(() => worker.wake());
  worker.start();
  // The ids of inbound hook deliveries that can no longer be replayed (inbound.ts).
  const sweep = setInterval(() => {
    sweepHookMessages(app).catch((err) => app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'flow hook id sweep failed'));
  }, 60_000);
  sweep.unref();
  app.shutdown.onDrain(() => worker.drain());
  app.onClose(async () => {
    clearInterval(sweep);
    unsubscribe();
    await worker.stop();
  });
}

/** After a flush that wrote new runs: wake the worker at once, or when the enclosing transaction commits. */
function wakeAfterCommit(app: Deps): EventSubscriber {
  const waitingForCommit = new WeakSet<object>();
  return {
    afterFlush({ em, uow }) {
      const wroteRuns = uow.getChangeSets().some((cs) => cs.type === ChangeSetType.CREATE && cs.entity instanceof FlowRun);
      if (!wroteRuns) return;
      const transaction = em.isInTransaction() ? em.getTransactionContext() : undefined;
      if (transaction) waitingForCommit.add(transaction);
      else app.flows.wake.notify();
    },
    afterTransactionCommit({ transaction }) {
      if (transaction && waitingForCommit.delete(transaction)) app.flows.wake.notify();
    },
  };
}
