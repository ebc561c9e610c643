import type { Deps } from '../core/deps.js';
import { createContext, type Caller, type ServiceContext } from '../core/context.js';
import type { AdmitTarget } from '../pipeline/operation.js';
import { admit, authenticate } from '../pipeline/pipeline.js';
import { RequestScope } from '../core/request-scope.js';
import { operationKind } from './operation-kind.js';
import { REQUEST_ID_HEADER, requestIdFrom } from '../lib/request-id.js';

export interface GraphQLContext {
  app: Deps;
  /**
   * The service context of the running code: inside a root field's resolver, the field's own (admitted
   * through the request pipeline by `root-fields.ts`); in nested fields and loaders, the operation's.
   * Authenticates once per operation, lazily, so GraphiQL and introspection work before a key is typed.
   */
  service(): Promise<ServiceContext>;
  /** The request pipeline for one root field: its limits and declared checks, and a request scope of its own. */
  admit(op: AdmitTarget): Promise<ServiceContext>;
  /** Ends the operation: disposes of its request scope and every root field's (unused question holds). */
  finish(): Promise<void>;
  signal?: AbortSignal;
  /** The origin the request reached (`proto://host`): links in mails point here when SVC_PUBLIC_URL is unset. */
  origin: string;
}

/** The GraphQL request's parameters, as yoga and graphql-sse hand them to the context. */
export interface OperationParams {
  query?: string;
  operationName?: string | null;
}

/** `address`: the client's address as express saw it (`req.ip`), when yoga runs inside express. */
export function buildGraphQLContext(app: Deps, request: Request, params: OperationParams = {}, address?: string): GraphQLContext {
  const scope = new RequestScope();
  let caller: Promise<Caller> | undefined;
  let shared: Promise<ServiceContext> | undefined;
  const origin = new URL(request.url).origin;
  // Set by the app's first middleware (rest/request-id.ts), which replaces the inbound header with the id.
  const requestId = requestIdFrom(request.headers.get(REQUEST_ID_HEADER));
  const log = app.log.child({ requestId });
  // GraphQL (the console's API) accepts the session cookie of a signed-in person besides API keys.
  const session = {
    cookie: request.headers.get('cookie'),
    method: request.method,
    origin: request.headers.get('origin'),
    referer: request.headers.get('referer'),
    requestOrigin: origin,
    // Only needed for a cookie request with neither Origin nor Referer: a query passes, nothing else.
    operation: () => operationKind(params),
  };
  const authenticated = () =>
    (caller ??= authenticate(app, {
      authorization: request.headers.get('authorization'),
      'x-api-key': request.headers.get('x-api-key'),
      session,
    }));
  return {
    app,
    origin,
    signal: request.signal,
    service() {
      shared ??= authenticated().then((c) => createContext(app, c, { signal: request.signal, scope, log, requestId, address }));
      return shared;
    },
    async admit(op) {
      return admit(app, await authenticated(), op, { signal: request.signal, scope: scope.child(), log, requestId, address });
    },
    finish: () => scope.dispose(),
  };
}
