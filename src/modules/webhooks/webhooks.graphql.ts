import { listEventNamesOp, listPublishedEventsOp } from './operations.js';
import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import {
  AttemptOutcomeSchema,
  CreateWebhookSchema,
  DeliveryDtoSchema,
  UpdateWebhookSchema,
  WebhookDtoSchema,
  type CreatedWebhookDto,
} from './webhooks.schemas.js';
import { loadDeliveriesByEndpoint, loadDeliveryBodies } from './webhooks.service.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationField } from '../../graphql/root-fields.js';
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
} from './operations.js';

export const WebhookDeliveryRef = objectFromZod('WebhookDelivery', DeliveryDtoSchema, {
  description: 'A delivery log entry (same fields as the REST delivery).',
});

export const WebhookEndpointRef = objectFromZod('WebhookEndpoint', WebhookDtoSchema, {
  description: 'A webhook endpoint of the calling user (same fields as the REST resource; never the secret).',
});

builder.objectFields(WebhookDeliveryRef, (t) => ({
  payload: t.loadable({
    type: 'String',
    nullable: true,
    description: 'The JSON body sent to the endpoint, exactly as signed (the same bytes on every attempt), batched across deliveries.',
    load: async (ids: string[], ctx) => loadDeliveryBodies(await ctx.service(), ids),
    resolve: (d) => d.id,
  }),
}));

const WebhookEventRef = builder.objectRef<{ name: string; description: string }>('WebhookEvent').implement({
  description: 'An event something in the service publishes, which an endpoint can subscribe to.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The name to subscribe with, e.g. `source.ingested`' }),
    description: t.exposeString('description', { description: 'When it is sent, in words' }),
  }),
});

builder.objectFields(WebhookEndpointRef, (t) => ({
  deliveries: t.loadableList({
    type: WebhookDeliveryRef,
    description: 'The latest 50 deliveries, newest first (batched across endpoints).',
    load: async (ids: string[], ctx) => loadDeliveriesByEndpoint(await ctx.service(), ids),
    resolve: (w) => w.id,
  }),
}));

const CreatedWebhookRef = builder.objectRef<CreatedWebhookDto>('CreatedWebhook').implement({
  description: 'The new endpoint and its signing secret, shown this once.',
  fields: (t) => ({
    secret: t.exposeString('secret'),
    webhook: t.field({ type: WebhookEndpointRef, resolve: ({ secret: _secret, ...webhook }) => webhook }),
  }),
});

const AttemptOutcomeRef = objectFromZod('WebhookAttemptOutcome', AttemptOutcomeSchema, {
  description: 'Outcome of a test or replay attempt; statusCode is null when the receiver could not be reached.',
});

// Derived from the zod schemas the service parses with (src/graphql/from-zod.ts).
const CreateWebhookInput = inputFromZod('CreateWebhookInput', CreateWebhookSchema);
const UpdateWebhookInput = inputFromZod('UpdateWebhookInput', UpdateWebhookSchema);

builder.queryFields((t) => ({
  webhookEventNames: t.stringList({
    description: 'The event names an endpoint may subscribe to (the validEvents of POST /v1/webhooks), in catalogue order.',
    deprecationReason:
      'Use webhookEvents: the events the service publishes, each with a sentence. This list also names webhook.test (sent on request only) and the simulation events (no workspace produces them), which registration still accepts.',
    extensions: operationField(listEventNamesOp),
    resolve: async (_r, _a, ctx) => listEventNamesOp.run(await ctx.service(), {}),
  }),
  webhookEvents: t.field({
    type: [WebhookEventRef],
    description: 'The events an endpoint can subscribe to: the ones the service publishes (webhook.test is sent on request only).',
    extensions: operationField(listPublishedEventsOp),
    resolve: async (_r, _a, ctx) => listPublishedEventsOp.run(await ctx.service(), {}),
  }),
  webhooks: t.field({
    type: [WebhookEndpointRef],
    description: 'Your webhook endpoints in this workspace, newest first.',
    extensions: operationField(listWebhooksOp),
    resolve: async (_r, _a, ctx) => listWebhooksOp.run(await ctx.service(), {}),
  }),
  webhook: t.field({
    type: WebhookEndpointRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(getWebhookOp),
    resolve: async (_r, args, ctx) => getWebhookOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  webhookDeliveries: t.field({
    type: [WebhookDeliveryRef],
    description: 'The latest 50 deliveries of one endpoint, newest first.',
    args: { webhookId: t.arg.id({ required: true }) },
    extensions: operationField(listDeliveriesOp),
    resolve: async (_r, args, ctx) => listDeliveriesOp.run(await ctx.service(), { id: String(args.webhookId) }),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: CreatedWebhookRef,
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    extensions: operationField(createWebhookOp),
    resolve: async (_r, args, ctx) => createWebhookOp.run(await ctx.service(), { body: plainInput(args.input) }),
  }),
  updateWebhook: t.field({
    type: WebhookEndpointRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    extensions: operationField(updateWebhookOp),
    resolve: async (_r, args, ctx) => updateWebhookOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  rotateWebhookSecret: t.field({
    type: CreatedWebhookRef,
    description: 'A new signing secret for the endpoint, returned this once; the old one stops signing at once (POST /v1/webhooks/:id/rotate-secret).',
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(rotateWebhookSecretOp),
    resolve: async (_r, args, ctx) => rotateWebhookSecretOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  deleteWebhook: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(deleteWebhookOp),
    resolve: async (_r, args, ctx) => deleteWebhookOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  testWebhook: t.field({
    type: AttemptOutcomeRef,
    args: { id: t.arg.id({ required: true }) },
    extensions: operationField(testWebhookOp),
    resolve: async (_r, args, ctx) => testWebhookOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  replayWebhookDelivery: t.field({
    type: AttemptOutcomeRef,
    args: { webhookId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    extensions: operationField(replayDeliveryOp),
    resolve: async (_r, args, ctx) => replayDeliveryOp.run(await ctx.service(), { id: String(args.webhookId), deliveryId: String(args.deliveryId) }),
  }),
}));
