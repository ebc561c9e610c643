import express, { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { receiveWebhook, SIGNATURE_HEADER } from '../../src/modules/flows/inbound.js';
import { mountPublic, param } from '../route.js';

/**
 * The inbound trigger of flows: no API key, the caller signs the body with the flow's secret
 * (`X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body>`). Mounted before the JSON parser: the
 * signature covers the exact bytes received.
 */
export function flowHooksRouter(app: Deps): Router {
  const r = Router();
  r.use('/engine/hooks', express.raw({ type: () => true, limit: app.config.bodyLimit }));
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'flows',
    method: 'post',
    path: '/engine/hooks/:flowId',
    summary: "Start a run of an enabled flow at its trigger.webhook nodes; the body (a JSON object) is the run's input. Signed: X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body keyed with the flow's secret>",
    body: z.record(z.string(), z.unknown()),
    responses: {
      202: { description: 'Run queued', schema: z.object({ runId: z.string() }) },
      400: { description: 'Body not a JSON object, or the flow has no webhook trigger' },
      401: { description: 'invalid_signature (also for an unknown flow)' },
      409: { description: 'flow_disabled' },
    },
    handler: async (req) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return { status: 202, body: await receiveWebhook(app, param(req, 'flowId'), body, req.get(SIGNATURE_HEADER), req.requestId) };
    },
  });
  return r;
}
