import express, { Router, type Request } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { acceptHook, HOOK_HEADERS, verifyHook } from '../../src/modules/flows/index.js';
import { admit } from '../../src/pipeline/pipeline.js';
import { NativeErrorSchema, RouteRateLimitedSchema } from '../openapi.js';
import { mountPublic, param } from '../route.js';

const PATH = '/engine/hooks/:flowId';

const header = (req: Request, name: string): string | undefined => req.get(name) ?? undefined;

/**
 * The inbound trigger of flows: no API key. The request is opened through the pipeline twice over, once
 * per principal it has: first as an anonymous address (the per-address ceiling, `SVC_RATE_HOOK_ADDRESS`),
 * then, once the Standard Webhooks signature and timestamp are checked, as the flow itself (a system
 * caller: the flow's own rate `SVC_RATE_FLOW` and the per-flow hook ceiling `SVC_RATE_HOOK_FLOW`). A
 * `webhook-id` already accepted is refused (409 webhook_replayed). Mounted before the JSON parser: the
 * signature covers the exact bytes received. docs/flows.md, "Inbound webhook"; docs/security.md.
 */
export function flowHooksRouter(app: Deps): Router {
  const r = Router();
  r.use('/engine/hooks', express.raw({ type: () => true, limit: app.config.bodyLimit }));
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'flows',
    method: 'post',
    path: PATH,
    rateLimit: 'hookPerAddress',
    summary:
      "Start a run of an enabled flow at its trigger.webhook nodes; the body (a JSON object) is the run's input. Signed as Standard Webhooks: webhook-id, webhook-timestamp (Unix seconds, within 5 minutes of the server's clock) and webhook-signature: v1,<base64 HMAC-SHA256 of `<id>.<timestamp>.<raw body>` keyed with the UTF-8 bytes of the flow's secret>. Each webhook-id starts one run. Limited per client address (SVC_RATE_HOOK_ADDRESS) and per flow (SVC_RATE_HOOK_FLOW, and the flow's own SVC_RATE_FLOW)",
    body: z.record(z.string(), z.unknown()),
    responses: {
      202: { description: 'Run queued', schema: z.object({ runId: z.string() }) },
      400: { description: 'Body not a JSON object, or the flow has no webhook trigger' },
      401: { description: 'invalid_signature: a signature header missing or wrong (also for an unknown flow), or webhook-timestamp outside the 5-minute window' },
      409: {
        description: 'flow_disabled; or webhook_replayed: this webhook-id was already accepted (`runId` names the run it started)',
        schema: NativeErrorSchema.extend({ runId: z.string().optional() }),
      },
      429: {
        description:
          "The per-address ceiling (before the signature is checked) or the per-flow one, with their own body and retry-after; or rate_limited: the flow's own rate",
        schema: RouteRateLimitedSchema,
      },
    },
    handler: async (pub, req) => {
      const hook = await verifyHook(app, {
        flowId: param(req, 'flowId'),
        body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        id: header(req, HOOK_HEADERS.id),
        timestamp: header(req, HOOK_HEADERS.timestamp),
        signature: header(req, HOOK_HEADERS.signature),
      });
      // The flow is the caller now: its own rate and its hook ceiling; the request scope stays the route's.
      const ctx = await admit(app, hook.caller, { name: `POST ${PATH}`, needs: { rateLimit: 'hookPerFlow' } }, {
        log: pub.log,
        signal: pub.signal,
        scope: pub.scope,
        requestId: pub.requestId,
      });
      return { status: 202, body: await acceptHook(ctx, hook) };
    },
  });
  return r;
}
