import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { MountedRoute } from './route.js';

/**
 * Routes without path parameters (`routes`, by `METHOD /path`: `exactRoutesOf` a router), answered as soon as their `METHOD /path` is read: the body
 * layers (`body`: the JSON reader, its errors, the object check) then the route's handler, the very functions
 * the request would meet walking the app's layers, without the walk (express's router matching each layer's
 * path, the raw-body routers before the JSON reader, the gateway's router and its route). Only for the routes of a
 * router no layer before it answers a path of (mounted first of the REST routers); anything else (another spelling
 * of the path, HEAD, a path with parameters) goes on through the layers and meets the same routes there.
 */
export function directRoutes(routes: ReadonlyMap<string, MountedRoute>, body: [RequestHandler, ErrorRequestHandler, RequestHandler]): RequestHandler {
  const [read, errorsOfBody, object] = body;
  return (req, res, next) => {
    const mounted = routes.get(`${req.method} ${req.path}`);
    if (!mounted) return next();
    const afterBody = (err?: unknown) => {
      if (err) return errorsOfBody(err, req, res, next);
      object(req, res, () => {
        req.route = mounted.route;
        req.params = {};
        mounted.handle(req, res).catch(next);
      });
    };
    read(req, res, afterBody);
  };
}
