import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type { AppServices } from '../src/app/services.js';
import { createContext, type ServiceContext } from '../src/context.js';
import { authenticateSecret, secretFromHeaders } from '../src/modules/keys/keys.service.js';
import { releaseHold } from '../src/modules/usage/metering.service.js';
import type { CapabilityScope } from '../src/modules/keys/scopes.js';
import { enforceRequestRates } from '../src/modules/usage/rate-limit.service.js';
import { sendError, type Dialect } from './errors.js';

export type RouteRateName = 'gateway' | 'knowledgeQuery' | 'verify' | 'upload' | 'agentChat';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteDef {
  method: Method;
  /** Express path, e.g. `/v1/agents/:id`. */
  path: string;
  summary: string;
  tag: string;
  /** Capability scope of the family (documentation; the service enforces it). */
  scope: CapabilityScope | null;
  dialect?: Dialect;
  /** Route-level request ceiling (per minute) this route counts against; see SPEC Limits. */
  rateLimit?: RouteRateName;
  /** Request body schema: documented in /openapi.json (the service parses with the same schema). */
  body?: z.ZodType;
  /** Media type of `body`: JSON unless the route reads `multipart/form-data`. */
  bodyType?: 'json' | 'multipart';
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /** Streams or custom replies write to `res` themselves and return nothing. */
  handler: (ctx: ServiceContext, req: Request, res: Response) => Promise<Reply | void>;
}

export interface PublicRouteDef extends Omit<RouteDef, 'handler' | 'scope'> {
  scope: null;
  public: true;
  handler: (req: Request, res: Response) => Promise<Reply | void>;
}

export type AnyRoute = RouteDef | PublicRouteDef;

/** Everything mounted, for /openapi.json. */
export const routeRegistry: AnyRoute[] = [];

function send(res: Response, reply: Reply | void): void {
  if (!reply || res.headersSent) return;
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (reply.body === undefined) res.status(reply.status).end();
  else res.status(reply.status).json(reply.body);
}

function register(router: Router, def: AnyRoute, run: (req: Request, res: Response) => Promise<void>): void {
  if (!routeRegistry.some((r) => r.method === def.method && r.path === def.path)) routeRegistry.push(def);
  router[def.method](def.path, run);
}

/** Mounts a keyed route: authenticate the key, build the service context, run the handler, render errors. */
export function mount(router: Router, app: AppServices, def: RouteDef): void {
  const dialect = def.dialect ?? 'native';
  register(router, def, async (req, res) => {
    const log = app.log.child({ route: `${def.method.toUpperCase()} ${def.path}` });
    try {
      const caller = await authenticateSecret(app.orm.em.fork(), app.clock, secretFromHeaders(req.headers as never));
      // Request limits (the key's, then the route's) before anything runs; their 429s keep the native
      // renderer on every dialect (key-level: auth stage; route-level: its own body, per SPEC).
      try {
        await enforceRequestRates(app, caller, { route: `${def.method.toUpperCase()} ${def.path}`, rateLimit: def.rateLimit });
      } catch (err) {
        return sendError(res, err, 'native', log);
      }
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const ctx = createContext(app, caller, { log, signal: abort.signal });
      try {
        send(res, await def.handler(ctx, req, res));
      } finally {
        await releaseHold(app, caller);
      }
    } catch (err) {
      sendError(res, err, dialect, log);
    }
  });
}

/** Mounts a route that needs no key (health, openapi). */
export function mountPublic(router: Router, app: AppServices, def: PublicRouteDef): void {
  register(router, def, async (req, res) => {
    try {
      send(res, await def.handler(req, res));
    } catch (err) {
      sendError(res, err, def.dialect ?? 'native', app.log);
    }
  });
}

/** Express route params are strings in practice; this keeps the handlers typed. */
export const param = (req: Request, name: string): string => String(req.params[name] ?? '');
