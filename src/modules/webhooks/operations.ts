import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { EVENT_DESCRIPTIONS, PUBLISHED_EVENTS, WEBHOOK_EVENTS } from './events.js';
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
} from './webhooks.service.js';

// The webhooks family's use cases (issue 29 §1): rest/v1/webhooks.routes.ts and webhooks.graphql.ts refer
// to these, and the request pipeline admits the caller with their needs.
const READ = { scope: 'webhooks' } as const;
const WRITE = { scope: 'webhooks', write: true } as const;
const ById = z.object({ id: z.string() });

export const listWebhooksOp = defineOperation({
  name: 'webhooks.list',
  route: 'GET /v1/webhooks',
  needs: READ,
  input: z.object({}),
  run: async (ctx) => (await listWebhooks(ctx)).map(toWebhookDto),
});

export const getWebhookOp = defineOperation({
  name: 'webhooks.get',
  route: 'GET /v1/webhooks/:id',
  needs: READ,
  input: ById,
  run: async (ctx, { id }) => toWebhookDto(await getWebhook(ctx, id)),
});

export const createWebhookOp = defineOperation({
  name: 'webhooks.create',
  route: 'POST /v1/webhooks',
  needs: WRITE,
  input: z.object({ body: z.unknown() }),
  run: (ctx, { body }) => createWebhook(ctx, body),
});

export const updateWebhookOp = defineOperation({
  name: 'webhooks.update',
  route: 'PUT /v1/webhooks/:id',
  needs: WRITE,
  input: ById.extend({ body: z.unknown() }),
  run: async (ctx, { id, body }) => toWebhookDto(await updateWebhook(ctx, id, body)),
});

export const deleteWebhookOp = defineOperation({
  name: 'webhooks.delete',
  route: 'DELETE /v1/webhooks/:id',
  needs: WRITE,
  input: ById,
  run: async (ctx, { id }) => {
    await deleteWebhook(ctx, id);
    return true as const;
  },
});

export const rotateWebhookSecretOp = defineOperation({
  name: 'webhooks.rotateSecret',
  route: 'POST /v1/webhooks/:id/rotate-secret',
  needs: WRITE,
  input: ById,
  run: (ctx, { id }) => rotateWebhookSecret(ctx, id),
});

export const testWebhookOp = defineOperation({
  name: 'webhooks.test',
  route: 'POST /v1/webhooks/:id/test',
  needs: WRITE,
  input: ById,
  run: (ctx, { id }) => testWebhook(ctx, id),
});

export const listDeliveriesOp = defineOperation({
  name: 'webhooks.deliveries',
  route: 'GET /v1/webhooks/:id/deliveries',
  needs: READ,
  input: ById,
  run: async (ctx, { id }) => (await listDeliveries(ctx, id)).map(toDeliveryDto),
});

export const replayDeliveryOp = defineOperation({
  name: 'webhooks.replayDelivery',
  route: 'POST /v1/webhooks/:id/deliveries/:deliveryId/replay',
  needs: WRITE,
  input: ById.extend({ deliveryId: z.string() }),
  run: (ctx, { id, deliveryId }) => replayDelivery(ctx, id, deliveryId),
});

/** The event names an endpoint may subscribe to (GraphQL `webhookEventNames`), in catalogue order. */
export const listEventNamesOp = defineOperation({
  name: 'webhooks.eventNames',
  needs: { scope: 'webhooks' },
  input: z.object({}),
  run: async () => [...WEBHOOK_EVENTS],
});

/** The events the service publishes, each with a sentence (GraphQL `webhookEvents`; webhook.test is sent on request only). */
export const listPublishedEventsOp = defineOperation({
  name: 'webhooks.events',
  needs: { scope: 'webhooks' },
  input: z.object({}),
  run: async () => PUBLISHED_EVENTS.map((name) => ({ name, description: EVENT_DESCRIPTIONS[name] })),
});
