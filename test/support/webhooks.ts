import { createServer } from 'node:net';
import { publishEvent, type WebhookEvent } from '../../src/modules/webhooks/events.js';
import { api } from './api.js';
import { type TestApp, type TestTenant } from './app.js';
import type { WebhookReceiver } from './webhook-receiver.js';

export interface CreatedEndpoint {
  id: string;
  secret: string;
  path: string;
}

let counter = 0;

/**
 * Registers an endpoint pointing at its own path of the receiver, and tells the receiver its secret so it
 * can check signatures.
 */
export async function createEndpoint(
  t: TestApp,
  tenant: TestTenant,
  receiver: WebhookReceiver,
  events: string[] = ['flow.run.finished'],
): Promise<CreatedEndpoint> {
  const path = `/hook-${++counter}`;
  const res = await api(t.baseUrl, tenant.key).post('/v1/webhooks', { url: receiver.url(path), events });
  if (res.status !== 201) throw new Error(`endpoint creation failed: ${res.status} ${res.text}`);
  receiver.secret(path, res.body.webhook.secret);
  return { id: res.body.webhook.id, secret: res.body.webhook.secret, path };
}

/** Publishes the way producers do: inside a transaction of their own change. */
export async function publish(t: TestApp, event: WebhookEvent): Promise<void> {
  const em = t.app.services.orm.em.fork();
  await em.transactional(async (tx) => {
    await publishEvent({ em: tx, clock: t.clock, app: t.app.services }, event);
  });
}

export const flowFinished = (workspaceId: string, runId = 'run_1'): WebhookEvent => ({
  name: 'flow.run.finished',
  workspaceId,
  actorUserId: null,
  payload: { runId, flowId: 'flw_1', flowName: 'Nightly check', status: 'succeeded', actionable: false },
});

export const sourceIngested = (tenant: TestTenant, sourceId = 'src_1'): WebhookEvent => ({
  name: 'source.ingested',
  workspaceId: tenant.workspaceId,
  actorUserId: tenant.userId,
  payload: { sourceId, name: 'contract.pdf', chunkCount: 12, factCount: 3, contradictionCount: 0, qaCount: 4 },
});

/** Rows of the delivery table for one endpoint (the log as stored, beyond what the API lists). */
export async function storedDeliveries(t: TestApp, endpointId: string): Promise<Record<string, unknown>[]> {
  return t.app.services.orm.em
    .fork()
    .execute(`select * from webhook_delivery where endpoint_id = ? order by created_at desc, id desc`, [endpointId]);
}

export async function deliveries(t: TestApp, tenant: TestTenant, endpointId: string) {
  const res = await api(t.baseUrl, tenant.key).get(`/v1/webhooks/${endpointId}/deliveries`);
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${res.text}`);
  return res.body.deliveries as {
    id: string;
    event: string;
    statusCode: number | null;
    responseBody: string;
    success: boolean;
    retryCount: number;
    deliveredAt: string | null;
    nextRetryAt: string | null;
    createdAt: string;
    failureReason: string | null;
  }[];
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
