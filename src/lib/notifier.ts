/**
 * Wake-ups between a producer and whoever runs the work in this process: the producer calls `notify()`
 * (a commit wrote new work), a worker subscribes when it starts and unsubscribes when it stops. With no
 * subscriber (background jobs off) a wake-up reaches nobody.
 */
export class Notifier {
  readonly #listeners = new Set<() => void>();

  notify(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }
}
