import type { ErrorRequestHandler, RequestHandler, Router } from 'express';
import { routesOf, type MountedRoute, type RecordedRoute } from './route.js';
import { unnamed } from '../src/lib/unnamed.js';

/** A route of the table: whether the dispatcher answers it (else the request walks the layers to it). */
export interface TableRoute extends RecordedRoute {
  answered: boolean;
}

/** The route a request meets first, with its path parameters, when the dispatcher answers it. */
export interface DirectMatch {
  mounted: MountedRoute;
  params: Record<string, string>;
}

/** `METHOD /path` → the route to answer (or undefined: the request walks the layers). */
export type DirectTable = (method: string, path: string) => DirectMatch | undefined;

/** One segment of a route's path: a literal (lower case, as express matches it) or a parameter's name. */
type Segment = { literal: string } | { param: string };

const PARAM = /^:([A-Za-z_$][\w$]*)$/;
const LITERAL = /^[A-Za-z0-9._~-]+$/;

/** The segments of an express path, or null for one using more of path-to-regexp than literals and `:name`. */
function segmentsOf(path: string): Segment[] | null {
  const segments: Segment[] = [];
  for (const part of path.split('/').slice(1)) {
    const param = PARAM.exec(part);
    if (param) segments.push({ param: param[1]! });
    else if (LITERAL.test(part)) segments.push({ literal: part.toLowerCase() });
    else return null;
  }
  return segments;
}

/**
 * The dispatch table of `routes` (in the order express walks them): a request is answered directly when the first
 * route the walk would reach for it is an `answered` one and the request spells its path as the route does.
 * Matching is express's for the paths it handles here (literal segments without regard to case, a parameter any
 * non-empty segment); the walk is left everything else: another route first (an unanswered one, or a path this
 * matcher cannot read, which may match anything), another spelling of a literal (upper case), a trailing slash,
 * an encoded character (express decodes parameters and refuses some encodings), HEAD and OPTIONS (express answers
 * them from GET routes and by itself).
 */
export function directTable(routes: readonly TableRoute[]): DirectTable {
  const byMethod = new Map<string, { route: TableRoute; segments: Segment[] | null; parts: string[] }[]>();
  for (const route of routes) {
    const list = byMethod.get(route.method) ?? [];
    byMethod.set(route.method, list);
    list.push({ route, segments: segmentsOf(route.path), parts: route.path.split('/').slice(1) });
  }
  const walkOrder = (method: string, path: string): DirectMatch | undefined => {
    if (path.length > 1 && path.endsWith('/')) return undefined;
    if (path.includes('%')) return undefined;
    const given = path.split('/').slice(1);
    for (const { route, segments, parts } of byMethod.get(method) ?? []) {
      if (!segments) return undefined;
      if (segments.length !== given.length) continue;
      const params: Record<string, string> = {};
      let matches = true;
      let sameSpelling = true;
      for (let i = 0; i < segments.length && matches; i++) {
        const segment = segments[i]!;
        const part = given[i]!;
        if ('param' in segment) {
          if (part.length === 0) matches = false;
          else params[segment.param] = part;
        } else if (part.toLowerCase() !== segment.literal) matches = false;
        else if (part !== parts[i]) sameSpelling = false;
      }
      if (!matches) continue;
      return route.answered && sameSpelling ? { mounted: route, params } : undefined;
    }
    return undefined;
  };
  // The paths without parameters are looked up once: the gateway's calls find theirs in a map.
  const exact = new Map<string, DirectMatch | undefined>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (!exact.has(key) && !route.path.includes(':')) exact.set(key, walkOrder(route.method, route.path));
  }
  return (method, path) => {
    const key = `${method} ${path}`;
    return exact.has(key) ? exact.get(key) : walkOrder(method, path);
  };
}

/**
 * The table of the routes `register` mounted on `walked` (the routers in the order the app mounts them, from the
 * first after the dispatch), answering those of `answered`. The routers walked before an answered one are its
 * table's too, so that a path one of them would answer first is never answered directly.
 */
export function directTableOf(walked: readonly Router[], answered: readonly Router[]): DirectTable {
  return directTable(walked.flatMap((router) => routesOf(router).map((route) => ({ ...route, answered: answered.includes(router) }))));
}

/**
 * Routes answered as soon as their `METHOD /path` is read (`table`: the gateway's, the agent chat's): the body
 * layers (`body`: the JSON reader, its errors, the object check) then the route's handler, with `req.route` and
 * `req.params` as express sets them, the very functions the request would meet walking the app's layers, without
 * the walk (express's router matching each layer's path, the raw-body routers before the JSON reader, the routers
 * before the route's and their routes). Only for routes no layer between the dispatch and their router answers a
 * path of other than the table's routers' (the raw-body routers match /engine/hooks and /partner/stripe/webhook);
 * anything else goes on through the layers and meets the same routes there.
 */
export function directRoutes(table: DirectTable, body: [RequestHandler, ErrorRequestHandler, RequestHandler]): RequestHandler {
  const [read, errorsOfBody, object] = body;
  return (req, res, next) => {
    const match = table(req.method, req.path);
    if (!match) return next();
    const afterBody = unnamed((err?: unknown) => {
      if (err) return errorsOfBody(err, req, res, next);
      object(req, res, () => {
        req.route = match.mounted.route;
        req.params = { ...match.params };
        match.mounted.handle(req, res).catch(next);
      });
    });
    read(req, res, afterBody);
  };
}
