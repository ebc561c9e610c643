import type { Deps } from '../../core/deps.js';
import type { Em } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { WebhookDelivery, WebhookEndpoint } from './webhook.entity.js';

/** Valid event names at registration (SPEC, Webhooks routes). */
export const WEBHOOK_EVENTS = [
  'source.ingested',
  'source.failed',
  'knowledge.contradiction_detected',
  'knowledge.stale',
  'debate.synthesized',
  'flow.run.finished',
  'flow.approval.requested',
  'webhook.test',
  'simulation.tick.completed',
  'simulation.report.ready',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/**
 * The events something in the service publishes today, which an endpoint can usefully subscribe to (the
 * console offers these; `webhook.test` is sent on request only, and no simulation exists in a workspace yet,
 * so its two names stay valid at registration as SPEC lists them but are never offered).
 */
export const PUBLISHED_EVENTS = [
  'source.ingested',
  'source.failed',
  'knowledge.contradiction_detected',
  'knowledge.stale',
  'debate.synthesized',
  'flow.run.finished',
  'flow.approval.requested',
] as const satisfies readonly WebhookEventName[];

export const EVENT_DESCRIPTIONS: Record<(typeof PUBLISHED_EVENTS)[number], string> = {
  'source.ingested': 'A document finished ingesting and can be cited',
  'source.failed': 'A document could not be ingested',
  'knowledge.contradiction_detected': 'A new document contradicts a fact already known',
  'knowledge.stale': 'A document is older than its review date',
  'debate.synthesized': 'A debate reached its synthesis',
  'flow.run.finished': 'A flow run finished (succeeded, failed or rejected)',
  'flow.approval.requested': 'A flow run waits for a person’s approval',
};

export const isWebhookEvent = (name: string): name is WebhookEventName => (WEBHOOK_EVENTS as readonly string[]).includes(name);

export interface WebhookEvent {
  name: WebhookEventName;
  workspaceId: string;
  /** The user whose action caused the event; knowledge, debate and simulation events go to their endpoints only. */
  actorUserId: string | null;
  /** Identifiers and status only: never document text, answers or approval questions (SPEC, Events 4). */
  payload: Record<string, unknown>;
}

/** An event as handed to the event listeners: with its id and the time it was published. */
export interface PublishedEvent extends WebhookEvent {
  id: string;
  at: Date;
  /** The request that caused the event (`x-request-id`); null when none did. */
  requestId: string | null;
}

/**
 * Port: a consumer of every service event, called by `publishEvent` through the producer's `em`, inside
 * its transaction, so what it writes commits or rolls back with the event (never lost, never twice).
 * The composition root hands the implementations to `createWebhooksRuntime`.
 */
export type EventListener = (em: Em, event: PublishedEvent) => Promise<void>;

/** Flow events reach every subscribed endpoint of the workspace; the others stay with the actor's endpoints. */
export const isWorkspaceWide = (name: WebhookEventName): boolean => name.startsWith('flow.');

/**
 * The event bus's one entry point for producers. Routes the event to the subscribed active endpoints and
 * writes one delivery row per endpoint (the outbox) through `em`, stamped by `clock` (a ServiceContext
 * fits; a worker passes its transaction and the app's clock), so the rows commit or roll back with the
 * producer's own change: call it inside `em.transactional(...)` or before your `flush()`. Once committed,
 * the worker is woken and makes the first attempt at once; nothing is sent if the transaction rolls back.
 * An event with no subscribed endpoint (or a private event without an actor) writes no delivery. Every
 * event first goes to the listeners of `app.webhooks.listeners` (flows' `trigger.event`), through `em`.
 */
export async function publishEvent(
  { em, clock, app, requestId = null }: { em: Em; clock: Clock; app: Pick<Deps, 'webhooks'>; requestId?: string | null },
  event: WebhookEvent,
): Promise<void> {
  if (!isWebhookEvent(event.name)) throw new Error(`Unknown webhook event: ${String(event.name)}`);
  if (event.name === 'webhook.test') throw new Error('webhook.test is only sent by the test route');
  const now = clock.now();
  const eventId = newId('evt');
  for (const listener of app.webhooks.listeners) await listener(em, { ...event, id: eventId, at: now, requestId });
  const body = JSON.stringify(event.payload);
  const owner = isWorkspaceWide(event.name) ? {} : event.actorUserId ? { userId: event.actorUserId } : null;
  if (!owner) return;
  const endpoints = await em.find(WebhookEndpoint, { workspaceId: event.workspaceId, isActive: true, ...owner });
  const subscribed = endpoints.filter((e) => e.events.includes(event.name));
  if (subscribed.length === 0) return;
  for (const endpoint of subscribed) {
    newDelivery(em, {
      workspaceId: event.workspaceId,
      endpointId: endpoint.id,
      eventId,
      event: event.name,
      body,
      createdAt: now,
      nextAttemptAt: now,
      requestId,
    });
  }
}

/** What differs between delivery rows when they are written; the rest starts as "no attempt yet". */
export interface NewDelivery {
  workspaceId: string;
  endpointId: string;
  eventId: string;
  event: string;
  body: string;
  createdAt: Date;
  /** When the first automatic attempt is due; null for an attempt made by the caller itself (test). */
  nextAttemptAt: Date | null;
  /** Set when the caller makes the first attempt itself and reserves the row for it. */
  leaseUntil?: Date | null;
  leaseToken?: string | null;
  /** The request that caused the delivery (`x-request-id`). */
  requestId?: string | null;
}

/** A new delivery row (persisted at the next flush of `em`), before any attempt. */
export function newDelivery(em: Em, d: NewDelivery): WebhookDelivery {
  return em.create(WebhookDelivery, {
    id: newId('whd'),
    workspaceId: d.workspaceId,
    endpointId: d.endpointId,
    eventId: d.eventId,
    event: d.event,
    body: d.body,
    attempts: 0,
    statusCode: null,
    responseBody: '',
    failureReason: null,
    success: false,
    deliveredAt: null,
    nextAttemptAt: d.nextAttemptAt,
    leaseUntil: d.leaseUntil ?? null,
    leaseToken: d.leaseToken ?? null,
    requestId: d.requestId ?? null,
    createdAt: d.createdAt,
  });
}
