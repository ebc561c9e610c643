/** The webhooks module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { webhookBacklog } from './backlog.js';
export { type PublishedEvent, publishEvent } from './events.js';
export { createWebhooksRuntime, startWebhooks } from './runtime.js';
export { AttemptOutcomeSchema, CreatedWebhookDtoSchema, CreateWebhookSchema, DeliveryDtoSchema, UpdateWebhookSchema, WebhookDtoSchema } from './webhooks.schemas.js';
export {
  createWebhookOp,
  deleteWebhookOp,
  getWebhookOp,
  listDeliveriesOp,
  listWebhooksOp,
  replayDeliveryOp,
  rotateWebhookSecretOp,
  testWebhookOp,
  updateWebhookOp,
} from './operations.js';
