import { defineEntity, p } from '@mikro-orm/core';

const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoint',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    /** The creator: endpoints are private to this user within the workspace. */
    userId: p.string(),
    url: p.text(),
    events: p.json<string[]>(),
    description: p.text(),
    /** Needed in clear to sign each attempt; never returned after creation. */
    secret: p.text(),
    secretPreview: p.string(),
    isActive: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);

const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  properties: {
    /** Sent as `X-Svc-Delivery` and `webhook-id`, identical across retries and replays. */
    id: p.string().primary(),
    workspaceId: p.string(),
    endpointId: p.string(),
    /** Shared by the deliveries one published event fanned out to. */
    eventId: p.string(),
    event: p.string(),
    /** The exact bytes sent (JSON text), kept as text so every attempt signs and sends the same body. */
    body: p.text(),
    /** Attempts made so far (automatic, test and replay). */
    attempts: p.integer(),
    statusCode: p.integer().nullable(),
    responseBody: p.text(),
    failureReason: p.text().nullable(),
    success: p.boolean(),
    deliveredAt: p.datetime().nullable(),
    /** When the next automatic attempt is due; null once succeeded, given up, cancelled or never scheduled. */
    nextAttemptAt: p.datetime().nullable(),
    /** Set while a process is sending an attempt, so no other process claims the same one. */
    leaseUntil: p.datetime().nullable(),
    leaseToken: p.string().nullable(),
    /** The request that caused the event (`x-request-id`), sent as `X-Request-Id` with every attempt; null when none did. */
    requestId: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);
