import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'svc' }, timestamp: pino.stdTimeFunctions.isoTime });
}

/**
 * The proxy's traps, as methods of one class rather than closures made per call: under tsx (`keepNames`)
 * every closure made per request also costs a `__name` definition of its `name`.
 */
class LazyChild implements ProxyHandler<Logger> {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Record<string, unknown>,
  ) {}

  #made(): Logger {
    return (this.#child ??= this.parent.child(this.bindings));
  }

  get(_target: Logger, prop: string | symbol): unknown {
    const log = this.#made();
    const value: unknown = Reflect.get(log, prop, log);
    return typeof value === 'function' ? value.bind(log) : value;
  }

  set(_target: Logger, prop: string | symbol, value: unknown): boolean {
    return Reflect.set(this.#made(), prop, value);
  }

  has(_target: Logger, prop: string | symbol): boolean {
    return Reflect.has(this.#made(), prop);
  }
}

/**
 * `parent.child(bindings)`, made on first use: the request's loggers (its id, its route) cost nothing on a
 * request that logs nothing at the configured level (issue 28: two pino children per gateway call were
 * about 2% of its CPU under load). Every property of the child is read through to it once made.
 */
export function lazyChild(parent: Logger, bindings: Record<string, unknown>): Logger {
  return new Proxy(parent, new LazyChild(parent, bindings));
}
