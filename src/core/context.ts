import type { Em } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { Deps } from './deps.js';
import type { Caller, Principal } from './principal.js';
import { RequestScope } from './request-scope.js';
import { unnamed } from '../lib/unnamed.js';

export type { Caller, Principal } from './principal.js';

/** Everything a service use case needs: request-scoped EntityManager, caller, clock, logger, the app's dependencies. */
export interface ServiceContext<C extends Principal = Caller> {
  em: Em;
  /** Who is calling (src/core/principal.ts); a use case sees a caller acting in a workspace. */
  caller: C;
  clock: Clock;
  log: Logger;
  app: Deps;
  /** Aborted when the client goes away (streams), or when a shutdown stops waiting for the request. */
  signal?: AbortSignal;
  /** What the request owns until it ends (the question hold); disposed of by the adapter that opened it. */
  scope: RequestScope;
  /**
   * The id of the HTTP request this work belongs to (`x-request-id`), recorded with what the request
   * causes (webhook deliveries, flow runs, proof certificates, audit entries); null for work no request
   * caused (a schedule, a worker's own retry).
   */
  requestId: string | null;
  /** The client's address (`req.ip`: X-Forwarded-For behind a proxy, as `trust proxy` is on); absent outside a request. */
  address?: string;
}

export function createContext<C extends Principal>(
  app: Deps,
  caller: C,
  extra: { log?: Logger; signal?: AbortSignal; scope?: RequestScope; requestId?: string | null; address?: string } = {},
): ServiceContext<C> {
  const scope = extra.scope ?? new RequestScope();
  // Forked on first use: most gateway calls never read through the request's own unit of work (issue 28).
  let em: Em | undefined;
  return {
    get em(): Em {
      return (em ??= app.orm.em.fork());
    },
    set em(value: Em) {
      em = value;
    },
    caller,
    clock: app.clock,
    log: extra.log ?? app.log,
    app,
    signal: requestSignal(app, scope, extra.signal),
    scope,
    requestId: extra.requestId ?? null,
    ...(extra.address ? { address: extra.address } : {}),
  };
}

/**
 * The signal of one request (or stream): aborted when `own` aborts (the client left) or when a shutdown
 * stops waiting. Its link to the process-long shutdown is dropped when `scope` is disposed of or the
 * signal aborts, and its listener on `own` removed with it, so a finished request leaves nothing
 * reachable from anything long-lived (issue 25: `AbortSignal.any` with the shutdown signal kept one
 * set of signals, weak references and listeners per request on it).
 */
export function requestSignal(app: Deps, scope: RequestScope, own?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  if (own?.aborted) {
    controller.abort(own.reason);
    return controller.signal;
  }
  const abort = unnamed(() => controller.abort(own?.aborted ? own.reason : undefined));
  const unlink = app.shutdown.onGiveUp(abort);
  own?.addEventListener('abort', abort, { once: true });
  const release = unnamed(() => {
    unlink();
    own?.removeEventListener('abort', abort);
  });
  controller.signal.addEventListener('abort', release, { once: true });
  scope.defer(release);
  return controller.signal;
}

/**
 * The same context with an EntityManager of its own, forked from `ctx.em` on first use only: for work that runs
 * beside the request's own (a turn's admission beside its read). `{ ...ctx, em: ctx.em.fork() }` forked twice
 * on every call (the spread reads the request's lazy `em`), a cost per chat turn even when the work never
 * touches an entity (issue 28).
 */
export function forkedContext<C extends Principal>(ctx: ServiceContext<C>): ServiceContext<C> {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)) as ServiceContext<C>;
  let em: Em | undefined;
  Object.defineProperty(copy, 'em', {
    get: () => (em ??= ctx.em.fork()),
    set: (value: Em) => {
      em = value;
    },
    enumerable: true,
    configurable: true,
  });
  return copy;
}

/** What the operator's use cases (CLI, start-up bootstrap) run with: no caller, no request. */
export interface AdminContext {
  em: Em;
  clock: Clock;
}
