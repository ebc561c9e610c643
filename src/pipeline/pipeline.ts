import type { Deps } from '../core/deps.js';
import { createContext, type Caller, type ServiceContext } from '../core/context.js';
import type { Logger } from '../lib/logger.js';
import { authorize } from '../modules/keys/access.js';
import { authenticateSecret, secretFromHeaders } from '../modules/keys/keys.service.js';
import { authenticateSession, hasSessionCookie, type SessionCredentials } from '../modules/people/sessions.js';
import { enforceRequestRates } from '../modules/usage/rate-limit.service.js';
import { authenticateWidget, type WidgetCredentials } from '../modules/widgets/widget-caller.js';
import type { Operation } from './operation.js';
import { RequestScope } from '../core/request-scope.js';

/**
 * The one request pipeline of every way in (REST routes, the gateway, GraphQL root fields and
 * subscriptions, the keyed 404 fallback):
 *
 *   1. authenticate the key, or the session cookie where the adapter accepts one (GraphQL), or the
 *      widget of a widget's public endpoint: 401, 403 client_suspended, 403 csrf_rejected, 403
 *      origin_not_allowed;
 *   2. the key's `ratePerMinute`, a widget visitor's per-IP rate, then the operation's route-level
 *      ceiling (429);
 *   3. the declared person and role (403 person_required, 403 admin_required), then the declared scope,
 *      then read-only (403 scope_denied, 403 read_only_key);
 *   4. admission: the use case admits the answer (plan, key budget, allowance) and its question hold
 *      is owned by the request scope opened here, released when the adapter disposes of it.
 *
 * Every refusal of steps 1 to 3 is an auth-stage error: adapters render it in the native shape.
 */

export type Credentials = Parameters<typeof secretFromHeaders>[0] & {
  /**
   * The session cookie and what the CSRF check reads, from the adapters that accept signed-in people
   * (GraphQL); REST routes leave it out, so a cookie never authenticates them.
   */
  session?: SessionCredentials;
  /**
   * A widget's public endpoint: the widget named by the page's script tag, the page's origin and the
   * visitor's address, instead of a key (src/modules/widgets/widget-caller.ts).
   */
  widget?: WidgetCredentials;
};

/**
 * Step 1: the caller behind the presented key; without a key, the signed-in person behind the session
 * cookie where the adapter accepts one (401, 403 csrf_rejected: src/modules/people/sessions.ts); on a
 * widget's public endpoints, the widget acting for its workspace (404, 403 origin_not_allowed).
 */
export function authenticate(app: Deps, credentials: Credentials): Promise<Caller> {
  if (credentials.widget) return authenticateWidget(app, credentials.widget);
  const secret = secretFromHeaders(credentials);
  if (!secret && credentials.session && hasSessionCookie(credentials.session)) return authenticateSession(app, credentials.session);
  // Calls with the same key that arrive together share one lookup (src/modules/keys/runtime.ts).
  return authenticateSecret(app.orm.em.fork(), app.clock, secret, (hash) => app.keys.lookups.submit(hash, hash));
}

export interface AdmitOptions {
  log?: Logger;
  /** The HTTP request's id (`x-request-id`), carried by the context. */
  requestId?: string | null;
  signal?: AbortSignal;
  /** The scope the operation's resources belong to; a new one when absent. */
  scope?: RequestScope;
  /** The client's address, carried by the context (audit entries record it). */
  address?: string;
}

/**
 * Steps 2 and 3 for one operation of an authenticated caller. Returns the operation's service context,
 * whose `scope` the adapter disposes of once the operation (or its stream) has ended.
 */
export async function admit(app: Deps, caller: Caller, op: Operation, opts: AdmitOptions = {}): Promise<ServiceContext> {
  await enforceRequestRates(app, caller, { route: op.name, rateLimit: op.needs.rateLimit });
  const ctx = createContext(app, caller, {
    log: opts.log,
    signal: opts.signal,
    scope: opts.scope ?? new RequestScope(),
    requestId: opts.requestId,
    address: opts.address,
  });
  const { scope, write, person, role } = op.needs;
  if (scope !== undefined || person || role) {
    try {
      authorize(ctx, { scope: scope ?? null, write, person, role });
    } catch (err) {
      await ctx.scope.dispose();
      throw err;
    }
  }
  return ctx;
}

/** The whole pipeline for a request that is one operation (a REST route, the gateway, the fallback). */
export async function openRequest(app: Deps, credentials: Credentials, op: Operation, opts: AdmitOptions = {}): Promise<ServiceContext> {
  return admit(app, await authenticate(app, credentials), op, opts);
}
