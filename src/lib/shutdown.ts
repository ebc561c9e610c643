import { unnamed } from './unnamed.js';

/**
 * The process shutting down, as the app's parts see it (src/app/shutdown.ts drives it):
 *
 * 1. `draining` from the moment the signal arrives: `/health` answers 503, workers claim nothing new,
 *    and every drainer registered with `onDrain` winds down (work in hand goes on);
 * 2. `signal` aborts when the server stops waiting: open streams end with the `server_restarting` error
 *    event, requests still running are aborted, workers give back (release) the claims they still hold.
 */
export class Shutdown {
  #draining = false;
  #drained: Promise<void> | undefined;
  readonly #giveUp = new AbortController();
  readonly #drainers: (() => Promise<void> | void)[] = [];
  /** Requests to abort at give-up; each entry leaves the set when its request ends (`onGiveUp`'s remover). */
  readonly #requests = new Set<() => void>();

  get draining(): boolean {
    return this.#draining;
  }

  /** Aborted when the drain time is over (or the app closes without a drain). */
  get signal(): AbortSignal {
    return this.#giveUp.signal;
  }

  /**
   * Calls `abort` when the server stops waiting (at once if it already has); returns the function that
   * takes it back. For what lives as long as one request: a set entry removed when the request ends, so
   * nothing of it stays reachable from this process-long object (an `AbortSignal.any` or an
   * `addEventListener` on `signal` per request left listeners and weak references behind: issue 25).
   */
  onGiveUp(abort: () => void): () => void {
    if (this.#giveUp.signal.aborted) {
      abort();
      return () => {};
    }
    this.#requests.add(abort);
    return () => void this.#requests.delete(abort);
  }

  /** How many requests are linked to the give-up right now (tests check that none is left behind). */
  get linkedRequests(): number {
    return this.#requests.size;
  }

  /** Registers a drainer: stop taking new work, resolve once the work in hand is done or given back. */
  onDrain(fn: () => Promise<void> | void): void {
    this.#drainers.push(fn);
  }

  /** Starts draining (idempotent); resolves when every drainer has finished. */
  drain(): Promise<void> {
    this.#draining = true;
    this.#drained ??= Promise.allSettled(this.#drainers.map(async (fn) => fn())).then(() => undefined);
    return this.#drained;
  }

  /** The drain time is over: streams end and in-flight work is released now. */
  giveUp(): void {
    this.#draining = true;
    this.#giveUp.abort();
    const requests = [...this.#requests];
    this.#requests.clear();
    for (const abort of requests) abort();
  }
}

/**
 * Runs `work` until it settles or `signal` aborts, whichever comes first: `{ done }` or `'aborted'`.
 * A rejection of `work` after the abort is swallowed (the caller has moved on).
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<{ done: T } | 'aborted'> {
  // One promise and one listener, settled by whichever comes first (no race of three promises: issue 28,
  // a streamed gateway call's garbage).
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      work.catch(() => {});
      resolve('aborted');
      return;
    }
    const onAbort = unnamed(() => resolve('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (done) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ done });
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
