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
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayDelivery,
  rotateWebhookSecret,
  testWebhook,
  toDeliveryDto,
  toWebhookDto,
  updateWebhook,
} from '../../src/modules/webhooks/index.js';
import { NativeErrorSchema } from '../openapi.js';
import { mount, param } from '../route.js';

const BadRequestSchema = NativeErrorSchema.extend({ field: z.string().optional(), validEvents: z.array(z.string()).optional() });
const notFound = { description: 'Unknown webhook, or another user’s' };

export function webhooksRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'webhooks', scope: 'webhooks' } as const;
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/webhooks',
    summary: 'Register an endpoint; the secret is in this response only',
    body: CreateWebhookSchema,
    responses: {
      201: { description: 'Created', schema: z.object({ webhook: CreatedWebhookDtoSchema }) },
      400: { description: 'Missing url or events, unknown event (with validEvents), invalid or refused URL', schema: BadRequestSchema },
    },
    handler: async (ctx, req) => ({ status: 201, body: { webhook: await createWebhook(ctx, req.body) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/webhooks/:id/rotate-secret',
    summary:
      'A new signing secret for the endpoint, in this response only; the old one stops signing at once (deliveries still waiting are signed with the new one). Audited as webhook.secret_rotated',
    responses: { 200: { description: 'The endpoint with its new secret', schema: z.object({ webhook: CreatedWebhookDtoSchema }) }, 404: notFound },
    handler: async (ctx, req) => ({ status: 200, body: { webhook: await rotateWebhookSecret(ctx, param(req, 'id')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/webhooks',
    summary: 'Your endpoints in this workspace, newest first',
    responses: { 200: { description: 'Endpoints', schema: z.object({ webhooks: z.array(WebhookDtoSchema) }) } },
    handler: async (ctx) => ({ status: 200, body: { webhooks: (await listWebhooks(ctx)).map(toWebhookDto) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/webhooks/:id',
    summary: 'One endpoint',
    responses: { 200: { description: 'Endpoint', schema: z.object({ webhook: WebhookDtoSchema }) }, 404: notFound },
    handler: async (ctx, req) => ({ status: 200, body: { webhook: toWebhookDto(await getWebhook(ctx, param(req, 'id'))) } }),
  });
  mount(r, app, {
    ...base,
    method: 'put',
    path: '/v1/webhooks/:id',
    summary: 'Change url, events (whole list), description or isActive (false pauses, true resumes)',
    body: UpdateWebhookSchema,
    responses: {
      200: { description: 'Updated', schema: z.object({ webhook: WebhookDtoSchema }) },
      400: { description: 'Invalid or refused URL, unknown event', schema: BadRequestSchema },
      404: notFound,
    },
    handler: async (ctx, req) => ({
      status: 200,
      body: { webhook: toWebhookDto(await updateWebhook(ctx, param(req, 'id'), req.body)) },
    }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/v1/webhooks/:id',
    summary: 'Delete an endpoint and its delivery log',
    responses: { 204: { description: 'Deleted' }, 404: notFound },
    handler: async (ctx, req) => {
      await deleteWebhook(ctx, param(req, 'id'));
      return { status: 204 };
    },
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/webhooks/:id/test',
    summary: 'Send one webhook.test attempt (logged, never retried)',
    responses: { 200: { description: 'Outcome; statusCode null when unreachable', schema: AttemptOutcomeSchema }, 404: notFound },
    handler: async (ctx, req) => ({ status: 200, body: await testWebhook(ctx, param(req, 'id')) }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/v1/webhooks/:id/deliveries',
    summary: 'The latest 50 deliveries, newest first',
    responses: { 200: { description: 'Deliveries', schema: z.object({ deliveries: z.array(DeliveryDtoSchema) }) }, 404: notFound },
    handler: async (ctx, req) => ({
      status: 200,
      body: { deliveries: (await listDeliveries(ctx, param(req, 'id'))).map(toDeliveryDto) },
    }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/v1/webhooks/:id/deliveries/:deliveryId/replay',
    summary: 'A new attempt now, same body and delivery id; cancels the pending automatic retry',
    responses: {
      200: { description: 'Outcome of the new attempt', schema: AttemptOutcomeSchema },
      404: { description: 'Webhook not found, or Delivery not found' },
    },
    handler: async (ctx, req) => ({
      status: 200,
      body: await replayDelivery(ctx, param(req, 'id'), param(req, 'deliveryId')),
    }),
  });
  return r;
}
