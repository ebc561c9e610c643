import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type { Deps } from '../src/core/deps.js';
import { bodyParseError, errors, illFormedTextError, notAnObjectBody } from '../src/errors/index.js';
import { firstIllFormedText } from '../src/lib/well-formed-text.js';
import { openRequest } from '../src/pipeline/pipeline.js';
import { sendError } from './errors.js';
import { healthRouter } from './health.routes.js';
import { metricsRouter } from './metrics.routes.js';
import { authRouter } from './auth.routes.js';
import { agentsRouter } from './v1/agents.routes.js';
import { chatRouter } from './v1/chat.routes.js';
import { conversationsRouter } from './v1/conversations.routes.js';
import { gatewayRouter } from './v1/gateway.routes.js';
import { proofsRouter } from './v1/proofs.routes.js';
import { webhooksRouter } from './v1/webhooks.routes.js';
import { knowledgeRouter } from './v1/knowledge.routes.js';
import { dossiersRouter } from './v1/dossiers.routes.js';
import { lightRouter } from './light/light.routes.js';
import { postesRouter } from './v1/postes.routes.js';
import { toolsRouter } from './v1/tools.routes.js';
import { apiKeysRouter } from './developer/api-keys.routes.js';
import { verifyUsageRouter } from './v1/verify-usage.routes.js';
import { verifyRouter } from './v1/verify.routes.js';
import { registreRouter } from './v1/registre.routes.js';
import { auditRouter } from './v1/audit.routes.js';
import { flowHooksRouter } from './engine/flow-hooks.routes.js';
import { flowsRouter } from './engine/flows.routes.js';
import { partnerClientsRouter } from './partner/clients.routes.js';
import { partnerStatementsRouter } from './partner/statements.routes.js';
import { partnerDevicesRouter } from './partner/devices.routes.js';
import { partnerPaymentsRouter, partnerProviderWebhookRouter } from './partner/payments.routes.js';
import { bodyDialectOf, credentialsOf } from './route.js';
import { directRoutes, directTableOf } from './direct-routes.js';
import { jsonBody } from './json-body.js';
import { widgetsRouter } from './engine/widgets.routes.js';
import { consoleRouter } from './console.routes.js';
import { widgetPublicRouter } from './widget-public.routes.js';
import { mcpRouter } from './mcp.routes.js';

/**
 * Body errors (src/errors/translate.ts `bodyParseError`: malformed JSON 400, oversized 413...), rendered
 * in the route's shape; anything else that reaches here is a logged native 500.
 */
const bodyErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (!err) return next();
  const error = bodyParseError(err);
  if (!error) return sendError(res, err, 'native', req.log);
  sendError(res, error, bodyDialectOf(req), req.log);
};

/**
 * Body must be a JSON object on write routes; arrays or scalars are rejected like wrong types. Its text
 * must be well-formed Unicode: a lone surrogate (`"\ud800"`, valid JSON) cannot be stored as sent
 * (PostgreSQL would hold U+FFFD instead), so it is a 400 naming the field before any route reads it.
 */
const objectBody: RequestHandler = (req, res, next) => {
  if (req.body === undefined) return next();
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
    return sendError(res, notAnObjectBody(), bodyDialectOf(req), req.log);
  }
  const illFormed = firstIllFormedText(req.body);
  if (illFormed) return sendError(res, illFormedTextError(illFormed), bodyDialectOf(req), req.log);
  next();
};

export function mountRest(server: Express, app: Deps): void {
  const readJson = jsonBody(app.config.bodyLimit);
  // Built in the order of /openapi.json's paths; the gateway's answering routes (issue 28's hot path) are
  // mounted first, so a gateway call meets no other router's layers on its way. No route of the routers
  // it passes defines one of its paths (`/v1/chat/completions`, `/v1/responses`, `/v1/messages`,
  // `/v1/messages/count_tokens`, `/v1/models`, `/v1/models/:id`), so the answer of every path is the same in
  // either order. Nor does any layer before the JSON reader (the raw-body routers below match /engine/hooks and
  // /partner/stripe/webhook), so the gateway's routes and the agent chat's (issue 28's chat turn: the routers
  // walked before it are in the table, so a path one of them answers first walks) are answered first of all
  // (`directRoutes`); so are the knowledge routes (issue 28's knowledge search: `POST /v1/knowledge/query` walked
  // every router mounted before it), with the routers walked before them (conversations, proofs, webhooks) in the table.
  const hooks = flowHooksRouter(app); // reads its raw body (the signature covers the exact bytes): before the JSON parser
  const providerHooks = partnerProviderWebhookRouter(app); // raw body: its signature covers the exact bytes
  const beforeChat = [healthRouter(app), metricsRouter(app), authRouter(app), agentsRouter(app)];
  const chat = chatRouter(app);
  const before = [...beforeChat, chat, conversationsRouter(app)];
  const gateway = gatewayRouter(app);
  const [proofs, webhooks, knowledge] = [proofsRouter(app), webhooksRouter(app), knowledgeRouter(app)];
  server.use(directRoutes(directTableOf([gateway, ...before, proofs, webhooks, knowledge], [gateway, chat, knowledge]), [readJson, bodyErrors, objectBody]));
  server.use(hooks);
  server.use(providerHooks);
  server.use(readJson);
  server.use(bodyErrors);
  server.use(objectBody);
  server.use(gateway);
  for (const router of before) server.use(router);
  server.use(proofs);
  server.use(webhooks);
  server.use(knowledge);
  server.use(dossiersRouter(app));
  server.use(lightRouter(app));
  server.use(postesRouter(app));
  server.use(toolsRouter(app));
  server.use(verifyUsageRouter(app)); // before any `/v1/verify/:id` router
  server.use(verifyRouter(app));
  server.use(registreRouter(app));
  server.use(auditRouter(app));
  server.use(apiKeysRouter(app));
  server.use(widgetsRouter(app));
  server.use(mcpRouter(app)); // POST /mcp, the MCP tool server (README, "MCP")
  server.use(consoleRouter(app)); // the built console app at /console (docs/console.md)
  server.use(flowsRouter(app));
  server.use(widgetPublicRouter(app));
  server.use(partnerClientsRouter(app));
  server.use(partnerStatementsRouter(app));
  server.use(partnerPaymentsRouter(app));
  server.use(partnerDevicesRouter(app)); // /partner/devices/code and /token before /partner/devices/:id
}

/** Keyed families: an unknown path under them still checks the key first (SPEC: key checks happen before routing). */
const KEYED_PREFIX = /^\/(v1|developer|light|engine|partner)(\/|$)|^\/mcp$/;

export function mountFallbacks(server: Express, app: Deps): void {
  server.use(async (req, res) => {
    if (KEYED_PREFIX.test(req.path)) {
      // The request pipeline with nothing declared: authentication and the key's ratePerMinute.
      try {
        const ctx = await openRequest(app, credentialsOf(req), { name: `${req.method} (unknown route)`, needs: {} }, { log: req.log, requestId: req.requestId });
        await ctx.scope.dispose();
      } catch (err) {
        return sendError(res, err, 'native', req.log);
      }
    }
    sendError(res, errors.notFound('route', null, `Route not found: ${req.method} ${req.path}`), 'native', req.log);
  });
  server.use(bodyErrors);
}
