import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import {
  AttemptOutcomeSchema,
  CreateWebhookSchema,
  CreatedWebhookDtoSchema,
  DeliveryDtoSchema,
  UpdateWebhookSchema,
  WebhookDtoSchema,
} from '../../src/modules/webhooks/index.js';
import {
  createWebhookOp,
  deleteWebhookOp,
  getWebhookOp,
  listDeliveriesOp,
  listWebhooksOp,
  replayDeliveryOp,
  rotateWebhookSecretOp,
  testWebhookOp,
  updateWebhookOp,
} from '../../src/modules/webhooks/index.js';
import { NativeErrorSchema } from '../openapi.js';
import { mountOperation, param } from '../route.js';

const BadRequestSchema = NativeErrorSchema.extend({ field: z.string().optional(), validEvents: z.array(z.string()).optional() });
const notFound = { description: 'Unknown webhook, or another user’s' };

export function webhooksRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'webhooks' } as const;
  mountOperation(r, app, createWebhookOp, {
    ...base,
    summary: 'Register an endpoint; the secret is in this response only',
    body: CreateWebhookSchema,
    responses: {
      201: { description: 'Created', schema: z.object({ webhook: CreatedWebhookDtoSchema }) },
      400: { description: 'Missing url or events, unknown event (with validEvents), invalid or refused URL', schema: BadRequestSchema },
    },
    input: (req) => ({ body: req.body }),
    reply: (webhook) => ({ status: 201, body: { webhook } }),
  });
  mountOperation(r, app, rotateWebhookSecretOp, {
    ...base,
    summary:
      'A new signing secret for the endpoint, in this response only; the old one stops signing at once (deliveries still waiting are signed with the new one). Audited as webhook.secret_rotated',
    responses: { 200: { description: 'The endpoint with its new secret', schema: z.object({ webhook: CreatedWebhookDtoSchema }) }, 404: notFound },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (webhook) => ({ status: 200, body: { webhook } }),
  });
  mountOperation(r, app, listWebhooksOp, {
    ...base,
    summary: 'Your endpoints in this workspace, newest first',
    responses: { 200: { description: 'Endpoints', schema: z.object({ webhooks: z.array(WebhookDtoSchema) }) } },
    input: () => ({}),
    reply: (webhooks) => ({ status: 200, body: { webhooks } }),
  });
  mountOperation(r, app, getWebhookOp, {
    ...base,
    summary: 'One endpoint',
    responses: { 200: { description: 'Endpoint', schema: z.object({ webhook: WebhookDtoSchema }) }, 404: notFound },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (webhook) => ({ status: 200, body: { webhook } }),
  });
  mountOperation(r, app, updateWebhookOp, {
    ...base,
    summary: 'Change url, events (whole list), description or isActive (false pauses, true resumes)',
    body: UpdateWebhookSchema,
    responses: {
      200: { description: 'Updated', schema: z.object({ webhook: WebhookDtoSchema }) },
      400: { description: 'Invalid or refused URL, unknown event', schema: BadRequestSchema },
      404: notFound,
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (webhook) => ({ status: 200, body: { webhook } }),
  });
  mountOperation(r, app, deleteWebhookOp, {
    ...base,
    summary: 'Delete an endpoint and its delivery log',
    responses: { 204: { description: 'Deleted' }, 404: notFound },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });
  mountOperation(r, app, testWebhookOp, {
    ...base,
    summary: 'Send one webhook.test attempt (logged, never retried)',
    responses: { 200: { description: 'Outcome; statusCode null when unreachable', schema: AttemptOutcomeSchema }, 404: notFound },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (outcome) => ({ status: 200, body: outcome }),
  });
  mountOperation(r, app, listDeliveriesOp, {
    ...base,
    summary: 'The latest 50 deliveries, newest first',
    responses: { 200: { description: 'Deliveries', schema: z.object({ deliveries: z.array(DeliveryDtoSchema) }) }, 404: notFound },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (deliveries) => ({ status: 200, body: { deliveries } }),
  });
  mountOperation(r, app, replayDeliveryOp, {
    ...base,
    summary: 'A new attempt now, same body and delivery id; cancels the pending automatic retry',
    responses: {
      200: { description: 'Outcome of the new attempt', schema: AttemptOutcomeSchema },
      404: { description: 'Webhook not found, or Delivery not found' },
    },
    input: (req) => ({ id: param(req, 'id'), deliveryId: param(req, 'deliveryId') }),
    reply: (outcome) => ({ status: 200, body: outcome }),
  });
  return r;
}
