import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Deps } from '../src/core/deps.js';
import { errors } from '../src/errors/index.js';
import { openRequest } from '../src/pipeline/pipeline.js';
import { sendError } from './errors.js';
import { healthRouter } from './health.routes.js';
import { agentsRouter } from './v1/agents.routes.js';
import { chatRouter } from './v1/chat.routes.js';
import { gatewayBodyGuards, gatewayRouter } from './v1/gateway.routes.js';
import { proofsRouter } from './v1/proofs.routes.js';
import { webhooksRouter } from './v1/webhooks.routes.js';
import { knowledgeRouter } from './v1/knowledge.routes.js';
import { toolsRouter } from './v1/tools.routes.js';
import { apiKeysRouter } from './developer/api-keys.routes.js';
import { verifyUsageRouter } from './v1/verify-usage.routes.js';
import { credentialsOf } from './route.js';

/** Body parser failures in the native shape: malformed JSON is a 400, oversized bodies a 413. */
const bodyErrors =
  (app: Deps): ErrorRequestHandler =>
  (err, _req, res, next) => {
    if (!err) return next();
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') return sendError(res, errors.payloadTooLarge('Request body too large'), 'native', app.log);
    if (type === 'entity.parse.failed') return sendError(res, errors.badRequest('Malformed JSON body'), 'native', app.log);
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return sendError(res, errors.badRequest('Unsupported body encoding'), 'native', app.log);
    }
    // Errors raised by express itself (a path with broken percent-encoding...) carry a 4xx status.
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const message = err instanceof URIError || /decode/i.test(String((err as Error).message)) ? 'Malformed URL encoding in path' : 'Bad request';
      return sendError(res, status === 413 ? errors.payloadTooLarge('Request body too large') : errors.badRequest(message), 'native', app.log);
    }
    return sendError(res, err, 'native', app.log);
  };

/** Body must be a JSON object on write routes; arrays or scalars are rejected like wrong types. */
const objectBody: express.RequestHandler = (req, res, next) => {
  if (req.body !== undefined && (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))) {
    res.status(400).json({ error: 'Request body must be a JSON object' });
    return;
  }
  next();
};

export function mountRest(server: Express, app: Deps): void {
  server.use(express.json({ limit: app.config.bodyLimit, strict: false }));
  server.use(gatewayBodyGuards(app)); // dialect-shaped body errors on the gateway routes
  server.use(bodyErrors(app));
  server.use(objectBody);
  server.use(healthRouter(app));
  server.use(agentsRouter(app));
  server.use(chatRouter(app));
  server.use(gatewayRouter(app));
  server.use(proofsRouter(app));
  server.use(webhooksRouter(app));
  server.use(knowledgeRouter(app));
  server.use(toolsRouter(app));
  server.use(verifyUsageRouter(app)); // before any `/v1/verify/:id` router
  server.use(apiKeysRouter(app));
}

/** Keyed families: an unknown path under them still checks the key first (SPEC: key checks happen before routing). */
const KEYED_PREFIX = /^\/(v1|developer|light|engine|partner)(\/|$)|^\/mcp$/;

export function mountFallbacks(server: Express, app: Deps): void {
  server.use(async (req, res) => {
    if (KEYED_PREFIX.test(req.path)) {
      // The request pipeline with nothing declared: authentication and the key's ratePerMinute.
      try {
        const ctx = await openRequest(app, credentialsOf(req), { name: `${req.method} (unknown route)`, needs: {} });
        await ctx.scope.dispose();
      } catch (err) {
        return sendError(res, err, 'native', app.log);
      }
    }
    res.status(404).json({ error: `Route not found: ${req.method} ${req.path}` });
  });
  server.use(bodyErrors(app));
}
