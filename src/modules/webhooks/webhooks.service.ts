import { randomBytes } from 'node:crypto';
import type { EntityDictionary } from '@mikro-orm/core';
import type { ServiceContext } from '../../core/context.js';
import { errors, translated } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { validateOutboundUrl } from '../../net/index.js';
import { audit } from '../audit/index.js';
import { attemptDelivery, claimForReplay, trimSoon } from './dispatcher.js';
import { WEBHOOK_EVENTS, isWebhookEvent, newDelivery } from './events.js';
import { DELIVERY_LOG_LENGTH, LEASE_MS } from './schedule.js';
import { newWebhookSecret, secretPreviewOf } from './signing.js';
import { WebhookDelivery, WebhookEndpoint } from './webhook.entity.js';
import {
  CreateWebhookSchema,
  UpdateWebhookSchema,
  type AttemptOutcome,
  type CreatedWebhookDto,
  type DeliveryDto,
  type WebhookDto,
} from './webhooks.schemas.js';


export const webhookNotFound = () => errors.notFound('webhook');
export const deliveryNotFound = () => errors.notFound('delivery');

export function toWebhookDto(e: WebhookEndpoint): WebhookDto {
  return {
    id: e.id,
    url: e.url,
    events: [...e.events],
    description: e.description,
    isActive: e.isActive,
    secretPreview: e.secretPreview,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export function toDeliveryDto(d: WebhookDelivery): DeliveryDto {
  return {
    id: d.id,
    event: d.event,
    statusCode: d.statusCode ?? null,
    responseBody: d.responseBody,
    success: d.success,
    retryCount: Math.max(0, d.attempts - 1),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    nextRetryAt: d.nextAttemptAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    failureReason: d.failureReason ?? null,
    requestId: d.requestId ?? null,
  };
}

/** An id no row can have (PostgreSQL text cannot hold NUL): answered as missing without a query. */
const impossibleId = (id: string): boolean => id.includes('\u0000');

/** Endpoints are private to their creator: another user's (or workspace's) endpoint is a plain 404. */
async function findOwnEndpoint(ctx: ServiceContext, id: string): Promise<WebhookEndpoint> {
  if (impossibleId(id)) throw webhookNotFound();
  const endpoint = await ctx.em.findOne(WebhookEndpoint, { id, workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id });
  if (!endpoint) throw webhookNotFound();
  return endpoint;
}

/** Unknown names give a 400 listing the valid ones; duplicates are dropped, order kept. */
function checkEvents(names: string[]): string[] {
  const unknown = names.filter((n) => !isWebhookEvent(n));
  if (unknown.length) {
    throw errors.validation('events', `Unknown event name: ${unknown.join(', ')}`, { validEvents: [...WEBHOOK_EVENTS] });
  }
  return [...new Set(names)];
}

/** URL rule (SPEC): http(s), no credentials, and an address the deployment may reach; 400 with the reason. */
async function checkUrl(ctx: ServiceContext, raw: string): Promise<string> {
  const url = raw.trim();
  try {
    await validateOutboundUrl(url, { deployment: ctx.app.config.deployment, resolve: ctx.app.resolve });
  } catch (err) {
    throw translated(err, 'webhook.url');
  }
  return url;
}

export async function listWebhooks(ctx: ServiceContext): Promise<WebhookEndpoint[]> {
  return ctx.em.find(
    WebhookEndpoint,
    { workspaceId: ctx.caller.workspace.id, userId: ctx.caller.user.id },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
}

export async function getWebhook(ctx: ServiceContext, id: string): Promise<WebhookEndpoint> {
  return findOwnEndpoint(ctx, id);
}

export async function createWebhook(ctx: ServiceContext, input: unknown): Promise<CreatedWebhookDto> {
  const data = CreateWebhookSchema.parse(input ?? {});
  const events = checkEvents(data.events);
  const url = await checkUrl(ctx, data.url);
  const now = ctx.clock.now();
  const secret = newWebhookSecret();
  const endpoint = ctx.em.create(WebhookEndpoint, {
    id: newId('whk'),
    workspaceId: ctx.caller.workspace.id,
    userId: ctx.caller.user.id,
    url,
    events,
    description: data.description ?? '',
    secret,
    secretPreview: secretPreviewOf(secret),
    isActive: true,
    createdAt: now,
    updatedAt: now,
  });
  audit(ctx, { action: 'webhook.created', target: { type: 'webhook', id: endpoint.id }, details: webhookAuditDetails(endpoint) });
  await ctx.em.flush();
  return { ...toWebhookDto(endpoint), secret };
}

/** What the audit log says of an endpoint: where it sends and what; never its secret. */
const webhookAuditDetails = (e: WebhookEndpoint) => ({ url: e.url, events: [...e.events], description: e.description, isActive: e.isActive });

/** The audited fields that changed, before and after. */
function webhookChanges(before: ReturnType<typeof webhookAuditDetails>, after: ReturnType<typeof webhookAuditDetails>) {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of Object.keys(before) as (keyof typeof before)[]) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) out[field] = { from: before[field], to: after[field] };
  }
  return out;
}

export async function updateWebhook(ctx: ServiceContext, id: string, input: unknown): Promise<WebhookEndpoint> {
  const data = UpdateWebhookSchema.parse(input ?? {});
  const endpoint = await findOwnEndpoint(ctx, id);
  const before = webhookAuditDetails(endpoint);
  if (data.events != null) endpoint.events = checkEvents(data.events);
  if (data.url != null) endpoint.url = await checkUrl(ctx, data.url);
  if (data.description != null) endpoint.description = data.description;
  const resumed = data.isActive === true && !endpoint.isActive;
  if (data.isActive != null) endpoint.isActive = data.isActive;
  endpoint.updatedAt = ctx.clock.now();
  const changes = webhookChanges(before, webhookAuditDetails(endpoint));
  if (Object.keys(changes).length > 0) audit(ctx, { action: 'webhook.updated', target: { type: 'webhook', id: endpoint.id }, details: { changes } });
  await ctx.em.flush();
  // Resuming restarts the deliveries that were waiting: their attempts are due again at once.
  if (resumed) ctx.app.webhooks.wake.notify();
  return endpoint;
}

/** Deletes the endpoint and its delivery log (pending retries included). */
export async function deleteWebhook(ctx: ServiceContext, id: string): Promise<void> {
  const endpoint = await findOwnEndpoint(ctx, id);
  await ctx.em.transactional(async (em) => {
    await em.nativeDelete(WebhookDelivery, { endpointId: endpoint.id });
    await em.nativeDelete(WebhookEndpoint, { id: endpoint.id });
    audit(ctx, { action: 'webhook.deleted', target: { type: 'webhook', id: endpoint.id }, details: { url: endpoint.url, events: [...endpoint.events] } }, em);
  });
}

/**
 * A new signing secret for the endpoint, returned this once (the old one stops signing at once: a
 * receiver accepting both for a while keeps both itself). Deliveries already waiting are signed with the
 * new secret when they are attempted.
 */
export async function rotateWebhookSecret(ctx: ServiceContext, id: string): Promise<CreatedWebhookDto> {
  const endpoint = await findOwnEndpoint(ctx, id);
  const secret = newWebhookSecret();
  endpoint.secret = secret;
  endpoint.secretPreview = secretPreviewOf(secret);
  endpoint.updatedAt = ctx.clock.now();
  audit(ctx, { action: 'webhook.secret_rotated', target: { type: 'webhook', id: endpoint.id }, details: { url: endpoint.url } });
  await ctx.em.flush();
  return { ...toWebhookDto(endpoint), secret };
}

/**
 * One `webhook.test` attempt to this endpoint only (whatever its subscriptions or state), logged, never
 * retried. `statusCode` is null when the receiver could not be reached.
 * Test and replay attempts do not take the request's signal: a caller hanging up must not leave the
 * attempt unrecorded (nor, for a replay, the delivery without its cancelled retry); the acknowledgement
 * timeout bounds them.
 */
export async function testWebhook(ctx: ServiceContext, id: string): Promise<AttemptOutcome> {
  const endpoint = await findOwnEndpoint(ctx, id);
  const now = ctx.clock.now();
  const leaseToken = randomBytes(12).toString('hex');
  const payload = { event: 'webhook.test', webhookId: endpoint.id, message: 'Test delivery from Svc webhooks', timestamp: now.toISOString() };
  const delivery = newDelivery(ctx.em, {
    workspaceId: endpoint.workspaceId,
    endpointId: endpoint.id,
    eventId: newId('evt'),
    event: 'webhook.test',
    body: JSON.stringify(payload),
    createdAt: now,
    nextAttemptAt: null,
    leaseUntil: new Date(now.getTime() + LEASE_MS),
    leaseToken,
    requestId: ctx.requestId,
  });
  await ctx.em.flush();
  const { success, statusCode } = await attemptDelivery(
    ctx.app,
    {
      id: delivery.id,
      endpointId: endpoint.id,
      event: delivery.event,
      body: delivery.body,
      attempts: 0,
      url: endpoint.url,
      secret: endpoint.secret,
      leaseToken,
      requestId: delivery.requestId ?? null,
    },
    'single',
  );
  await trimSoon(ctx.app, endpoint.id);
  return { success, statusCode };
}

/** The latest 50 deliveries, newest first. */
export async function listDeliveries(ctx: ServiceContext, id: string): Promise<WebhookDelivery[]> {
  const endpoint = await findOwnEndpoint(ctx, id);
  return ctx.em.find(
    WebhookDelivery,
    { endpointId: endpoint.id },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: DELIVERY_LOG_LENGTH },
  );
}

/**
 * A new attempt now with the same body and the same delivery id; the pending automatic retry, if any, is
 * cancelled. Works on paused endpoints too: it is an explicit request of their owner.
 */
export async function replayDelivery(ctx: ServiceContext, id: string, deliveryId: string): Promise<AttemptOutcome> {
  const endpoint = await findOwnEndpoint(ctx, id);
  const claimed = impossibleId(deliveryId) ? null : await claimForReplay(ctx.app, endpoint.id, deliveryId, ctx.clock.now());
  if (!claimed) throw deliveryNotFound();
  const { success, statusCode } = await attemptDelivery(ctx.app, claimed, 'single');
  await trimSoon(ctx.app, endpoint.id);
  return { success, statusCode };
}

/**
 * Batch read for the GraphQL dataloader: the latest 50 deliveries of each of the caller's endpoints among
 * `endpointIds`, in the same order; an id that is not the caller's gets an empty list.
 */
/**
 * The exact body sent (or to be sent) for each delivery id, in the order asked; null for a delivery that is
 * not on one of the caller's own endpoints. Batched for the GraphQL `payload` field of a delivery.
 */
export async function loadDeliveryBodies(ctx: ServiceContext, deliveryIds: readonly string[]): Promise<(string | null)[]> {
  const ids = [...new Set(deliveryIds)].filter((id) => !impossibleId(id));
  if (ids.length === 0) return deliveryIds.map(() => null);
  const rows = await ctx.em.execute<{ id: string; body: string }[]>(
    `select d.id, d.body from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id
      where d.id in (${ids.map(() => '?').join(', ')}) and e.workspace_id = ? and e.user_id = ?`,
    [...ids, ctx.caller.workspace.id, ctx.caller.user.id],
  );
  const byId = new Map(rows.map((r) => [r.id, r.body]));
  return deliveryIds.map((id) => byId.get(id) ?? null);
}

export async function loadDeliveriesByEndpoint(ctx: ServiceContext, endpointIds: readonly string[]): Promise<DeliveryDto[][]> {
  const ids = [...new Set(endpointIds)].filter((id) => !impossibleId(id));
  if (ids.length === 0) return endpointIds.map(() => []);
  // One statement: ownership by the join, and the latest DELIVERY_LOG_LENGTH rows of each endpoint by the
  // window function, so an endpoint's older log never reaches the process.
  const columns = ctx.em
    .getMetadata(WebhookDelivery)
    .props.flatMap((p) => p.fieldNames ?? [])
    .map((column) => `d.${column}`)
    .join(', ');
  const rows = await ctx.em.execute<EntityDictionary<WebhookDelivery>[]>(
    `select ${columns}
       from (select d.*, row_number() over (partition by d.endpoint_id order by d.created_at desc, d.id desc) as log_rank
               from webhook_delivery d
               join webhook_endpoint e on e.id = d.endpoint_id
              where e.id in (${ids.map(() => '?').join(', ')}) and e.workspace_id = ? and e.user_id = ?) d
      where d.log_rank <= ?
      order by d.created_at desc, d.id desc`,
    [...ids, ctx.caller.workspace.id, ctx.caller.user.id, DELIVERY_LOG_LENGTH],
  );
  const byEndpoint = new Map<string, DeliveryDto[]>();
  for (const row of rows) {
    const delivery = ctx.em.map(WebhookDelivery, row);
    const list = byEndpoint.get(delivery.endpointId) ?? [];
    list.push(toDeliveryDto(delivery));
    byEndpoint.set(delivery.endpointId, list);
  }
  return endpointIds.map((id) => byEndpoint.get(id) ?? []);
}
