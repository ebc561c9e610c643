import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'svc' }, timestamp: pino.stdTimeFunctions.isoTime });
}

/**
 * `parent.child(bindings)`, made on first use: the request's loggers (its id, its route) cost nothing on a
 * request that logs nothing at the configured level (issue 28: two pino children per gateway call were
 * about 2% of its CPU under load). Every property of the child is read through to it once made.
 */
export function lazyChild(parent: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const made = (): Logger => (child ??= parent.child(bindings));
  return new Proxy(parent, {
    get(_target, prop) {
      const log = made();
      const value: unknown = Reflect.get(log, prop, log);
      return typeof value === 'function' ? value.bind(log) : value;
    },
    set: (_target, prop, value) => Reflect.set(made(), prop, value),
    has: (_target, prop) => Reflect.has(made(), prop),
  });
}
