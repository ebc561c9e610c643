import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type { Deps } from '../src/core/deps.js';
import type { ServiceContext } from '../src/core/context.js';
import type { CapabilityScope } from '../src/core/scopes.js';
import type { Operation } from '../src/core/operation.js';
import { targetOf, type AdmitTarget, type CeilingName, type Needs } from '../src/pipeline/operation.js';
import { createContext } from '../src/core/context.js';
import type { AnonymousCaller, Caller, Principal } from '../src/core/principal.js';
import { lazyChild, type Logger } from '../src/lib/logger.js';
import { admit, authenticate, openPublicRequest, settleRequestRates, type Credentials } from '../src/pipeline/pipeline.js';
import { errors, isAborted, toDomainError, unknownFieldError } from '../src/errors/index.js';
import { firstUnknownField } from '../src/lib/unknown-fields.js';
import { withStages } from '../src/lib/stage-timing.js';
import { sendError, type Dialect } from './errors.js';
import { StaleCaller } from '../src/core/stale-caller.js';

export type RouteRateName = CeilingName;

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A keyed route declares what it needs (`scope`, `write`, `rateLimit`) like a GraphQL root field does. */
export interface RouteDef extends Needs {
  method: Method;
  /** Express path, e.g. `/v1/agents/:id`. */
  path: string;
  summary: string;
  tag: string;
  /** Capability scope of the family: checked by the request pipeline, and again by the service. */
  scope: CapabilityScope | null;
  /** Whether the route writes (read-only keys are refused); default: every method but GET. */
  write?: boolean;
  dialect?: Dialect;
  /** Route-level request ceiling (per minute) this route counts against; see SPEC Limits. */
  rateLimit?: RouteRateName;
  /**
   * The route admits a metered answer (a model runs on the workspace's allowance): its 402s (the key's
   * budget, the allowance, the plan) are documented by construction. Default: the routes under the
   * model-answering ceilings (`METERED_CEILINGS`).
   */
  meters?: boolean;
  /** Request body schema: documented in /openapi.json (the service parses with the same schema). */
  body?: z.ZodType;
  /** The route may answer its 200 as a `text/event-stream` (documented beside the JSON body). */
  streams?: boolean;
  /** Media type of the 200 body when it is not JSON (e.g. the Prometheus text format of /metrics). */
  produces?: string;
  /** Query parameters the route reads (a zod object): documented as `in: query` parameters, with their 400. */
  query?: z.ZodObject;
  /** Media type of `body`: JSON unless the route reads `multipart/form-data`. */
  bodyType?: 'json' | 'multipart';
  /**
   * A JSON `body` is strict by default: a field its schema does not declare, at any depth, is a 400
   * naming it before the handler runs (docs/security.md, "Unknown fields"), and /openapi.json says
   * `additionalProperties: false`. `'ignored'`: the family documents that unknown fields are accepted and
   * ignored (the gateway dialects, as their SDKs send fields of newer API versions: docs/gateway.md).
   */
  unknownFields?: 'refused' | 'ignored';
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /**
   * Signed-in people may call it with their session cookie besides API keys (the engine family:
   * approvals stay with people; docs/people.md, "Where the cookie works").
   */
  people?: boolean;
  /**
   * A widget's public endpoint: the caller is the widget named by the path's `:publicId`, from the page's
   * `Origin`, for an anonymous visitor (src/modules/widgets/widget-caller.ts); no key is read. Documented
   * without a key (`security: []`).
   */
  widget?: boolean;
  /**
   * Runs once the caller is known, before its limits: the widget endpoints let the page read the answer
   * (CORS for the allowed origin), refusals included.
   */
  authenticated?: (caller: Caller, res: Response) => void;
  /**
   * The pipeline only authenticates (401 before the handler runs); the operations behind the route admit
   * themselves one by one with their own needs, as GraphQL root fields do (the MCP endpoint's tools). The
   * handler's context is the caller's, with nothing admitted.
   */
  admitsItself?: boolean;
  /**
   * The declared operation the route exposes (`mountOperation`): its method, path and needs come from it.
   * Absent only on the pipeline's own routes (the MCP endpoint, whose tools are operations).
   */
  operation?: Operation;
  /** Streams or custom replies write to `res` themselves and return nothing. */
  handler: (ctx: ServiceContext, req: Request, res: Response) => Promise<Reply | void>;
}

/** How a route exposes its operation: the input `run` takes from the request, and the reply made of its result. */
type OperationRoute<I, O> = Omit<RouteDef, 'method' | 'path' | 'scope' | 'write' | 'rateLimit' | 'person' | 'role' | 'operation' | 'handler'> &
  (
    | { input: (req: Request) => I; reply: (out: O, req: Request) => Reply; handler?: never }
    | {
        /** Streams and custom replies: the handler calls `run` (the operation's, bound to the admitted context). */
        handler: (ctx: ServiceContext, req: Request, res: Response, run: (input: I) => Promise<O>) => Promise<Reply | void>;
        input?: never;
        reply?: never;
      }
  );

/**
 * A route without a key: its caller is the client's address (an anonymous principal), and its
 * `rateLimit` ceiling counts per address. Whatever else authenticates the request (a signature, a
 * password, a device code) is the handler's.
 */
export interface PublicRouteDef extends Omit<RouteDef, 'handler' | 'scope' | 'people' | 'widget' | 'authenticated' | 'admitsItself'> {
  scope: null;
  public: true;
  handler: (ctx: ServiceContext<AnonymousCaller>, req: Request, res: Response) => Promise<Reply | void>;
}

export type AnyRoute = RouteDef | PublicRouteDef;

/** Ceilings that only model-answering routes count against: a route under one meters unless it says otherwise. */
const METERED_CEILINGS = new Set<RouteRateName>(['gateway', 'agentChat']);

/** Whether a route meters answers (its declared `meters`, else derived from its ceiling). */
export const isMetered = (def: AnyRoute): boolean =>
  !('public' in def) && !def.widget && (def.meters ?? (def.rateLimit !== undefined && METERED_CEILINGS.has(def.rateLimit)));

/** Whether the route refuses fields its JSON body does not declare (the default). */
export const refusesUnknownFields = (def: AnyRoute): boolean =>
  def.body !== undefined && (def.bodyType ?? 'json') === 'json' && (def.unknownFields ?? 'refused') === 'refused';

/** Everything mounted, for /openapi.json. */
export const routeRegistry: AnyRoute[] = [];

/**
 * The dialect a request's body errors are answered in, read before routing (rest/index.ts): the one its
 * route declares (the gateway's OpenAI and Anthropic paths, the MCP endpoint's JSON-RPC), else native.
 * Only read on a refusal; the routes that declare a dialect and read a body have no path parameter.
 */
export function bodyDialectOf(req: Request): Dialect {
  const method = req.method.toLowerCase();
  const path = req.path.length > 1 ? req.path.replace(/\/$/, '') : req.path;
  return routeRegistry.find((r) => r.method === method && r.path === path && r.dialect !== undefined)?.dialect ?? 'native';
}

/**
 * A JSON reply as express's `res.json` writes it (the same status, header names, values and bytes: the app sets
 * no JSON replacer, spacing, escaping or ETag), without its content-type lookup, charset parsing and freshness
 * check (issue 28: part of express's share of a gateway answer's CPU). Only where those change nothing: a
 * request express never answers 304 (its freshness check reads GET and HEAD only) nor without a body (HEAD),
 * a status with a body (not 204 or 304), no content-type set yet; anything else goes through `res.json`.
 */
export function sendJson(res: Response, status: number, body: unknown): boolean {
  const method = res.req.method;
  if (method === 'GET' || method === 'HEAD' || status === 204 || status === 304 || res.hasHeader('content-type')) return false;
  const text = JSON.stringify(body) as string | undefined;
  if (typeof text !== 'string') return false;
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  res.end(text);
  return true;
}

function send(res: Response, reply: Reply | void): void {
  if (!reply || res.headersSent) return;
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (reply.body === undefined) res.status(reply.status).end();
  else if (!sendJson(res, reply.status, reply.body)) res.status(reply.status).json(reply.body);
}

/** A route's express handler, and the express route it is mounted on (what `req.route` is while it runs). */
export interface MountedRoute {
  route: { path: string };
  handle: (req: Request, res: Response) => Promise<void>;
}

/** A route as `register` mounted it: its method (upper case), its express path, and what runs it. */
export interface RecordedRoute extends MountedRoute {
  method: string;
  path: string;
}

/** The routes mounted on each router by `register`, in their mounting order (`routesOf`). */
const recorded = new WeakMap<Router, RecordedRoute[]>();

/**
 * The routes `register` mounted on `router`, in the order express walks them: what a dispatcher can run
 * without walking express's layers (rest/index.ts, `directRoutes`).
 */
export const routesOf = (router: Router): readonly RecordedRoute[] => recorded.get(router) ?? [];

function register(router: Router, def: AnyRoute, run: (req: Request, res: Response) => Promise<void>): void {
  if (!routeRegistry.some((r) => r.method === def.method && r.path === def.path)) routeRegistry.push(def);
  // With stage timing on, what the request awaits records into its stages (src/lib/stage-timing.ts).
  const handle = (req: Request, res: Response) => withStages(req.stages, () => run(req, res));
  // `router[method](path, fn)` is `router.route(path)[method](fn)`; the route is kept for `routesOf`.
  const route = router.route(def.path);
  route[def.method](handle);
  const routes = recorded.get(router) ?? [];
  recorded.set(router, routes);
  routes.push({ method: def.method.toUpperCase(), path: def.path, route, handle });
}

/** The pipeline's view of a route: its bucket name and what it declared (its operation's needs). */
export function operationOf(def: RouteDef): AdmitTarget {
  if (def.operation) return targetOf(def.operation);
  return {
    name: `${def.method.toUpperCase()} ${def.path}`,
    needs: { scope: def.scope, write: def.write ?? def.method !== 'get', rateLimit: def.rateLimit, person: def.person, role: def.role },
  };
}

export const credentialsOf = (req: Request): Credentials => ({
  authorization: req.headers.authorization,
  'x-api-key': typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined,
});

/** The client's address as the server sees it (behind a proxy: `trust proxy`). */
export const addressOf = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** A widget's public endpoint: the widget of the path, the page's origin, the visitor's address. */
const widgetCredentialsOf = (req: Request): Credentials => ({
  widget: { publicId: param(req, 'publicId'), origin: typeof req.headers.origin === 'string' ? req.headers.origin : null, ip: addressOf(req) },
});

/** The key, or the session cookie of a signed-in person with what the CSRF check reads (routes with `people`). */
export const credentialsWithSessionOf = (req: Request): Credentials => ({
  ...credentialsOf(req),
  session: {
    cookie: req.headers.cookie,
    method: req.method,
    origin: req.headers.origin,
    referer: req.headers.referer,
    requestOrigin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
  },
});

const credentialsFor = (def: RouteDef, req: Request): Credentials =>
  def.widget ? widgetCredentialsOf(req) : def.people ? credentialsWithSessionOf(req) : credentialsOf(req);

/**
 * Mounts a route with a caller (a key; a signed-in person where `people`; a widget visitor where
 * `widget`): the request pipeline (authenticate, limits, scope and read-only; auth-stage refusals in the
 * native shape on every dialect), the handler, then the request scope is disposed of (a question hold
 * the request did not record is given back) before the answer is sent.
 */
export function mount(router: Router, app: Deps, def: RouteDef): void {
  const op = operationOf(def);
  // An admitted caller may be made from the process's memory of the key's last lookup (no statement): the
  // pipeline confirms it in the statement that counts its rates (`svc_rate_take`), or in its admission's (the
  // gateway's answers), before anything else. When the key changed since (`StaleCaller`, before anything was
  // counted or sent), the request starts again once with a lookup, which decides it.
  const fromMemory = !def.admitsItself;
  register(router, def, async (req, res) => {
    const log = lazyChild(req.log, { route: op.name });
    const requestId = req.requestId;
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    if (def.widget) res.setHeader('Vary', 'Origin');
    for (let remembered = fromMemory; ; remembered = false) {
      let ctx: ServiceContext;
      try {
        const caller = await authenticate(app, credentialsFor(def, req), { remembered });
        def.authenticated?.(caller, res);
        ctx = def.admitsItself
          ? createContext(app, caller, { log, signal: abort.signal, requestId, address: req.ip })
          : await admit(app, caller, op, { log, signal: abort.signal, requestId, address: req.ip });
      } catch (err) {
        if (remembered && err instanceof StaleCaller) continue;
        return sendError(res, err, 'native', log);
      }
      if ((await runHandler(app, def, ctx, req, res, abort, log, remembered)) !== 'stale caller') return;
    }
  });
}

/**
 * Mounts a declared operation (src/core/operation.ts) at its REST route (`op.route`, `METHOD /path`):
 * the pipeline admits the caller with the operation's needs, then `run` gets the input the route reads.
 */
export function mountOperation<I, O>(router: Router, app: Deps, op: Operation<I, O>, route: OperationRoute<I, O>): void {
  const [method, path] = (op.route ?? '').split(' ') as [string, string | undefined];
  if (!path || !['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) throw new Error(`operation ${op.name} has no REST route`);
  const { input, reply, handler, ...doc } = route;
  mount(router, app, {
    ...doc,
    method: method.toLowerCase() as Method,
    path,
    scope: op.needs.scope,
    write: op.needs.write ?? false,
    rateLimit: op.needs.rateLimit,
    person: op.needs.person,
    role: op.needs.role,
    operation: op as Operation,
    handler: handler
      ? (ctx, req, res) => handler(ctx, req, res, (i) => op.run(ctx, i))
      : async (ctx, req) => reply!(await op.run(ctx, input!(req)), req),
  });
}

/**
 * The handler of an admitted request, the scope disposed of before the answer is sent, the answer or the
 * error; or, for a caller made from memory (`remembered`) found changed before anything was sent, nothing
 * sent and `'stale caller'` (the request starts again with a lookup).
 */
async function runHandler<C extends Principal>(
  app: Deps,
  def: AnyRoute & { handler: (ctx: ServiceContext<C>, req: Request, res: Response) => Promise<Reply | void> },
  ctx: ServiceContext<C>,
  req: Request,
  res: Response,
  abort: AbortController,
  log: Logger,
  remembered = false,
): Promise<void | 'stale caller'> {
  const dialect = def.dialect ?? 'native';
  let outcome: { ok: true; value: Reply | void } | { ok: false; err: unknown };
  try {
    const unknown = refusesUnknownFields(def) ? firstUnknownField(def.body!, req.body) : undefined;
    if (unknown) throw unknownFieldError(unknown.path, [unknown.key]);
    outcome = { ok: true, value: await def.handler(ctx, req, res) };
  } catch (err) {
    // Rates counted with the admission (`Needs.ratesWithAdmission`) and not counted yet: a 429 comes first.
    outcome = { ok: false, err: await settleRequestRates(ctx).then(() => err, (rateErr: unknown) => rateErr) };
  } finally {
    // Disposed of before the answer leaves: a client's next request never meets a hold of this one.
    await ctx.scope.dispose();
  }
  if (outcome.ok) return send(res, outcome.value);
  if (remembered && outcome.err instanceof StaleCaller && !res.headersSent) return 'stale caller';
  // An aborted request: the client left (nobody to answer), or a shutdown gave up on it while the
  // client still waits (told to retry elsewhere).
  const aborted = isAborted(toDomainError(outcome.err).error);
  if (aborted && abort.signal.aborted) return void res.end();
  sendError(res, aborted && app.shutdown.signal.aborted ? errors.serverRestarting() : outcome.err, dialect, log);
}

/**
 * Mounts a route that needs no key (health, openapi, `/auth/*`, device pairing, flow hooks): the request
 * pipeline with the client's address as the principal (its `rateLimit` ceiling counted per address,
 * 429 in the native shape), the handler, then the request scope is disposed of.
 */
export function mountPublic(router: Router, app: Deps, def: PublicRouteDef): void {
  const op: AdmitTarget = { name: `${def.method.toUpperCase()} ${def.path}`, needs: { rateLimit: def.rateLimit } };
  register(router, def, async (req, res) => {
    const log = lazyChild(req.log, { route: op.name });
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    let ctx: ServiceContext<AnonymousCaller>;
    try {
      ctx = await openPublicRequest(app, addressOf(req), op, { log, signal: abort.signal, requestId: req.requestId });
    } catch (err) {
      return sendError(res, err, 'native', log);
    }
    await runHandler(app, def, ctx, req, res, abort, log);
  });
}

/** Express route params are strings in practice; this keeps the handlers typed. */
export const param = (req: Request, name: string): string => String(req.params[name] ?? '');
