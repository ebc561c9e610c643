/**
 * What one request owns and must give back when it ends: a question hold, the scopes of the root
 * fields of a GraphQL operation... The adapter that opened the scope disposes of it exactly once when
 * the request (or the stream) is over; a use case that finishes with a resource earlier takes it back.
 */
export class RequestScope {
  private readonly owned = new Map<string, { value: unknown; release: (value: unknown) => Promise<void> }>();
  private readonly children: RequestScope[] = [];
  private readonly deferred: (() => void)[] = [];
  private disposal?: Promise<void>;

  get disposed(): boolean {
    return this.disposal !== undefined;
  }

  /** Owns `value` under `name` until the scope ends; a scope already disposed of releases it at once. */
  own<T>(name: string, value: T, release: (value: T) => Promise<void>): void {
    if (this.disposal) {
      void release(value);
      return;
    }
    this.owned.set(name, { value, release: release as (value: unknown) => Promise<void> });
  }

  has(name: string): boolean {
    return this.owned.has(name);
  }

  /** The resource owned under `name`, still owned by the scope. */
  get<T>(name: string): T | undefined {
    return this.owned.get(name)?.value as T | undefined;
  }

  /** Hands the resource over to the caller, who ends it itself: the scope will not release it. */
  take<T>(name: string): T | undefined {
    const entry = this.owned.get(name);
    this.owned.delete(name);
    return entry?.value as T | undefined;
  }

  /** Runs `fn` when the scope is disposed of (at once when it already is): links to drop, listeners to remove. */
  defer(fn: () => void): void {
    if (this.disposal) fn();
    else this.deferred.push(fn);
  }

  /** A scope ending with this one at the latest (one per root field of a GraphQL operation). */
  child(): RequestScope {
    const scope = new RequestScope();
    if (this.disposal) void scope.dispose();
    else this.children.push(scope);
    return scope;
  }

  /** Releases everything owned, children first; once: later calls wait for the first disposal. */
  dispose(): Promise<void> {
    this.disposal ??= (async () => {
      await Promise.all(this.children.map((c) => c.dispose()));
      const entries = [...this.owned.values()];
      this.owned.clear();
      for (const fn of this.deferred.splice(0)) fn();
      // A release logs its own failures (a hold expires by itself); one failing never keeps the others.
      await Promise.allSettled(entries.map((e) => e.release(e.value)));
    })();
    return this.disposal;
  }
}
