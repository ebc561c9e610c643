import type { Em } from '../../db/types.js';
import type { PublishedEvent } from '../webhooks/index.js';
import { Flow } from './flow.entity.js';
import { FLOW_TRIGGER_EVENTS } from './flows.schemas.js';
import { newRun } from './runs.js';

/**
 * The flows' listener of service events (the webhooks module's `EventListener` port, wired by the
 * composition root): each enabled flow of the event's workspace with a `trigger.event` node for this
 * event name gets one run, written through the producer's `em`, so the run commits with the event or
 * not at all (never lost, never started twice across processes). The run starts at those nodes only;
 * its input is the event's payload (identifiers and status) with `event`, `eventId` and `occurredAt`.
 * The worker is woken after the commit (the flows' commit subscriber).
 */
export async function startEventRuns(em: Em, event: PublishedEvent): Promise<void> {
  if (!(FLOW_TRIGGER_EVENTS as readonly string[]).includes(event.name)) return;
  const flows = await em.find(Flow, { workspaceId: event.workspaceId, enabled: true }, { orderBy: { createdAt: 'asc' } });
  for (const flow of flows) {
    const startAt = flow.graph.nodes
      .filter((n) => n.type === 'trigger.event' && (n.config as { event?: unknown } | undefined)?.event === event.name)
      .map((n) => n.key);
    if (startAt.length === 0) continue;
    const input = { ...event.payload, event: event.name, eventId: event.id, occurredAt: event.at.toISOString() };
    newRun(em, flow, { trigger: 'event', input, now: event.at, startAt, requestId: event.requestId });
  }
}
