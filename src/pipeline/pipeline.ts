import type { Deps } from '../core/deps.js';
import { createContext, type ServiceContext } from '../core/context.js';
import { anonymousCaller, type AnonymousCaller, type Caller, type Principal } from '../core/principal.js';
import { errors } from '../errors/index.js';
import type { Logger } from '../lib/logger.js';
import { authorize } from '../core/access.js';
import { withSpan } from '../lib/tracing.js';
import { AuthMessages, authenticateSecret, confirmRememberedKey, secretFromHeaders } from '../modules/keys/index.js';
import { authenticateSession, hasSessionCookie, type SessionCredentials } from '../modules/people/index.js';
import { deferRequestRates, enforceRequestRates, type KeyCheck, settleRequestRates } from '../modules/usage/index.js';
import { authenticateWidget, type WidgetCredentials } from '../modules/widgets/index.js';
import type { AdmitTarget } from './operation.js';
import { RequestScope } from '../core/request-scope.js';
import { unnamed } from '../lib/unnamed.js';

/**
 * The one request pipeline of every way in (REST routes, the gateway, GraphQL root fields and
 * subscriptions, the keyed 404 fallback, MCP messages, widget visitors, flow hooks and flow steps, the
 * public routes):
 *
 *   1. the principal (src/core/principal.ts): the key, or the session cookie where the adapter accepts
 *      one, or the widget of a widget's public endpoint (401, 403 client_suspended, 403 csrf_rejected,
 *      403 origin_not_allowed); the client's address on a public route (`openPublicRequest`); the
 *      system for a flow's work (made by the flows module, admitted with `admit`);
 *   2. the rates that fit the principal (`limits.rates`: a key's `ratePerMinute`, a widget visitor's
 *      per-address rate, a flow's own rate), then the operation's route-level ceiling, counted per
 *      caller or per workspace (429);
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

export interface AuthenticateOptions {
  /**
   * A key this process looked up before may make the caller from that lookup, without a statement
   * (`authenticateSecret`'s `remembered`), for a caller that `admit` then confirms before anything counts or
   * runs: in its admission's statement (`Needs.ratesWithAdmission`), else in the statement that counts its
   * rates (`svc_rate_take`), else by a lookup. Never for a caller that is not admitted (`admitsItself`).
   */
  remembered?: boolean;
}

/**
 * Step 1: the caller behind the presented key; without a key, the signed-in person behind the session
 * cookie where the adapter accepts one (401, 403 csrf_rejected: src/modules/people/sessions.ts); on a
 * widget's public endpoints, the widget acting for its workspace (404, 403 origin_not_allowed).
 */
export function authenticate(app: Deps, credentials: Credentials, opts: AuthenticateOptions = {}): Promise<Caller> {
  return withSpan('pipeline.authenticate', {}, async (span) => {
    const caller = await principalOf(app, credentials, opts);
    span.set({ 'svc.principal': caller.kind, 'svc.workspace_id': caller.workspace.id });
    return caller;
  });
}

function principalOf(app: Deps, credentials: Credentials, opts: AuthenticateOptions): Promise<Caller> {
  if (credentials.widget) return authenticateWidget(app, credentials.widget);
  const secret = secretFromHeaders(credentials);
  if (!secret && credentials.session && hasSessionCookie(credentials.session)) return authenticateSession(app, credentials.session);
  // Calls with the same key that arrive together share one lookup (src/modules/keys/runtime.ts).
  return authenticateSecret(
    app.orm.em,
    app.clock,
    secret,
    (hash) => app.keys.lookups.submit(hash, hash),
    opts.remembered ? (hash) => app.keys.records.remembered(hash) : undefined,
  );
}

/** The check of a caller made from memory (`AuthenticateOptions.remembered`): its rates' or its admission's statement, or a lookup. */
function keyCheckOf(app: Deps, caller: Principal): KeyCheck | undefined {
  const remembered = caller.kind === 'key' ? caller.remembered : undefined;
  return remembered && { ...remembered, confirm: unnamed(() => confirmRememberedKey(app.keys, remembered)) };
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
 * Steps 2 and 3 for one operation of a principal. Returns the operation's service context, whose
 * `scope` the adapter disposes of once the operation (or its stream) has ended. An anonymous caller
 * may only perform operations that declare no scope, person or role (401 otherwise).
 */
export async function admit<C extends Principal>(app: Deps, caller: C, op: AdmitTarget, opts: AdmitOptions = {}): Promise<ServiceContext<C>> {
  const { write, person, role, rateLimit, anyCaller } = op.needs;
  const scope = op.needs.scopeOf && caller.kind !== 'anonymous' ? op.needs.scopeOf(caller) : op.needs.scope;
  const checks = !anyCaller && (scope !== undefined || person || role);
  if (caller.kind === 'anonymous' && (checks || anyCaller)) throw errors.unauthorized(AuthMessages.missing);
  // Rates counted with the admission (the gateway's answers, plain chat turns) are only decided here
  // (`deferRequestRates`), and a caller made from memory is confirmed with them (by the admission's statement,
  // or by a lookup before a refusal that comes first); made from memory for another operation, it is confirmed
  // now, before anything else, in the statement that counts its rates (`svc_rate_take`), or by a lookup.
  const deferRates = op.needs.ratesWithAdmission === true;
  const keyCheck = keyCheckOf(app, caller);
  if (!deferRates) await withSpan('pipeline.rate_limits', { 'svc.operation': op.name }, () => enforceRequestRates(app, caller, { route: op.name, rateLimit, keyCheck }));
  const ctx = createContext(app, caller, {
    log: opts.log,
    signal: opts.signal,
    scope: opts.scope ?? new RequestScope(),
    requestId: opts.requestId,
    address: opts.address,
  });
  if (deferRates) deferRequestRates(ctx, { route: op.name, rateLimit, keyCheck });
  if (checks && caller.kind !== 'anonymous') {
    try {
      await withSpan('pipeline.authorize', { 'svc.operation': op.name }, async () => authorize({ caller }, { scope: scope ?? null, write, person, role }));
    } catch (err) {
      // A deferred rate that refuses answers first (429 before 403), as when it is counted at step 2.
      const refusal = await settleRequestRates(ctx).then(
        () => err,
        (rateErr: unknown) => rateErr,
      );
      await ctx.scope.dispose();
      throw refusal;
    }
  }
  return ctx;
}

/** Counts a request's rates deferred to its admission, when a refusal comes first (adapters call it on any error). */
export { settleRequestRates };

/** The whole pipeline for a public route: the client's address is the principal (its ceilings count per address). */
export function openPublicRequest(app: Deps, address: string, op: AdmitTarget, opts: AdmitOptions = {}): Promise<ServiceContext<AnonymousCaller>> {
  return admit(app, anonymousCaller(address), op, opts);
}

/** The whole pipeline for a request that is one operation (a REST route, the gateway, the fallback). */
export async function openRequest(app: Deps, credentials: Credentials, op: AdmitTarget, opts: AdmitOptions = {}): Promise<ServiceContext> {
  return admit(app, await authenticate(app, credentials), op, opts);
}
