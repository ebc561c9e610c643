import type { AppServices } from './app/services.js';
import type { Em } from './db/orm.js';
import type { Clock } from './lib/clock.js';
import type { Logger } from './lib/logger.js';
import type { ApiKey } from './modules/keys/api-key.entity.js';
import { RequestScope } from './pipeline/request-scope.js';
import type { User, Workspace } from './modules/workspaces/workspace.entity.js';

/** Who is calling: resolved once from the API key by the authentication step. */
export interface Caller {
  workspace: Workspace;
  user: User;
  key: ApiKey;
  scopes: readonly string[];
  /** Holds at least one capability scope. */
  restricted: boolean;
  readonly: boolean;
}

/** Everything a service use case needs: request-scoped EntityManager, caller, clock, logger, app services. */
export interface ServiceContext {
  em: Em;
  caller: Caller;
  clock: Clock;
  log: Logger;
  app: AppServices;
  /** Aborted when the client goes away (streams), or when a shutdown stops waiting for the request. */
  signal?: AbortSignal;
  /** What the request owns until it ends (the question hold); disposed of by the adapter that opened it. */
  scope: RequestScope;
}

export function createContext(
  app: AppServices,
  caller: Caller,
  extra: { log?: Logger; signal?: AbortSignal; scope?: RequestScope } = {},
): ServiceContext {
  return {
    em: app.orm.em.fork(),
    caller,
    clock: app.clock,
    log: extra.log ?? app.log,
    app,
    signal: extra.signal ? AbortSignal.any([extra.signal, app.shutdown.signal]) : app.shutdown.signal,
    scope: extra.scope ?? new RequestScope(),
  };
}
