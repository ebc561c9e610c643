import { builder } from '../../graphql/builder.js';
import type { AttemptOutcome, CreatedWebhookDto, DeliveryDto, WebhookDto } from './webhooks.schemas.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  loadDeliveriesByEndpoint,
  replayDelivery,
  testWebhook,
  toDeliveryDto,
  toWebhookDto,
  updateWebhook,
} from './webhooks.service.js';

export const WebhookDeliveryRef = builder.objectRef<DeliveryDto>('WebhookDelivery').implement({
  description: 'A delivery log entry (same fields as the REST delivery).',
  fields: (t) => ({
    id: t.exposeID('id'),
    event: t.exposeString('event'),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    responseBody: t.exposeString('responseBody'),
    success: t.exposeBoolean('success'),
    retryCount: t.exposeInt('retryCount'),
    deliveredAt: t.exposeString('deliveredAt', { nullable: true }),
    nextRetryAt: t.exposeString('nextRetryAt', { nullable: true }),
    createdAt: t.exposeString('createdAt'),
    failureReason: t.exposeString('failureReason', { nullable: true }),
  }),
});

export const WebhookEndpointRef = builder.objectRef<WebhookDto>('WebhookEndpoint').implement({
  description: 'A webhook endpoint of the calling user (same fields as the REST resource; never the secret).',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    events: t.exposeStringList('events'),
    description: t.exposeString('description'),
    isActive: t.exposeBoolean('isActive'),
    secretPreview: t.exposeString('secretPreview'),
    createdAt: t.exposeString('createdAt'),
    updatedAt: t.exposeString('updatedAt'),
    deliveries: t.loadableList({
      type: WebhookDeliveryRef,
      description: 'The latest 50 deliveries, newest first (batched across endpoints).',
      load: async (ids: string[], ctx) => loadDeliveriesByEndpoint(await ctx.service(), ids),
      resolve: (w) => w.id,
    }),
  }),
});

const CreatedWebhookRef = builder.objectRef<CreatedWebhookDto>('CreatedWebhook').implement({
  description: 'The new endpoint and its signing secret, shown this once.',
  fields: (t) => ({
    secret: t.exposeString('secret'),
    webhook: t.field({ type: WebhookEndpointRef, resolve: ({ secret: _secret, ...webhook }) => webhook }),
  }),
});

const AttemptOutcomeRef = builder.objectRef<AttemptOutcome>('WebhookAttemptOutcome').implement({
  description: 'Outcome of a test or replay attempt; statusCode is null when the receiver could not be reached.',
  fields: (t) => ({
    success: t.exposeBoolean('success'),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
  }),
});

// Nullable inputs: the service's zod schema validates them, so GraphQL and REST refuse alike.
const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: false }),
    events: t.stringList({ required: false }),
    description: t.string({ required: false }),
  }),
});

const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: false }),
    events: t.stringList({ required: false }),
    description: t.string({ required: false }),
    isActive: t.boolean({ required: false }),
  }),
});

const plain = (input: object): Record<string, unknown> => ({ ...input });

builder.queryFields((t) => ({
  webhooks: t.field({
    type: [WebhookEndpointRef],
    description: 'Your webhook endpoints in this workspace, newest first.',
    resolve: async (_r, _a, ctx) => (await listWebhooks(await ctx.service())).map(toWebhookDto),
  }),
  webhook: t.field({
    type: WebhookEndpointRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => toWebhookDto(await getWebhook(await ctx.service(), String(args.id))),
  }),
  webhookDeliveries: t.field({
    type: [WebhookDeliveryRef],
    description: 'The latest 50 deliveries of one endpoint, newest first.',
    args: { webhookId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => (await listDeliveries(await ctx.service(), String(args.webhookId))).map(toDeliveryDto),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: CreatedWebhookRef,
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: async (_r, args, ctx) => createWebhook(await ctx.service(), plain(args.input) as never),
  }),
  updateWebhook: t.field({
    type: WebhookEndpointRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: async (_r, args, ctx) =>
      toWebhookDto(await updateWebhook(await ctx.service(), String(args.id), plain(args.input) as never)),
  }),
  deleteWebhook: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteWebhook(await ctx.service(), String(args.id));
      return true;
    },
  }),
  testWebhook: t.field({
    type: AttemptOutcomeRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => testWebhook(await ctx.service(), String(args.id)),
  }),
  replayWebhookDelivery: t.field({
    type: AttemptOutcomeRef,
    args: { webhookId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => replayDelivery(await ctx.service(), String(args.webhookId), String(args.deliveryId)),
  }),
}));
