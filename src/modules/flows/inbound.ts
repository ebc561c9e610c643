import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../core/deps.js';
import { errors } from '../../errors/index.js';
import { Flow } from './flow.entity.js';
import { newRun } from './runs.js';

/** The signature header of inbound flow webhooks: `sha256=` and the hex HMAC-SHA256 of the raw body under the flow's secret. */
export const SIGNATURE_HEADER = 'x-svc-signature';

export function signatureOf(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function signatureMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given.trim());
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `POST /engine/hooks/:flowId`: a caller signed with the flow's secret starts a run at its
 * `trigger.webhook` nodes. The signature is checked over the exact bytes received, in constant time,
 * before anything else is revealed: an unknown flow and a bad signature get the same 401. A disabled
 * flow is 409 `flow_disabled`. The body (a JSON object) is the run's input.
 */
export async function receiveWebhook(
  app: Deps,
  flowId: string,
  body: Buffer,
  signature: string | undefined,
  requestId: string | null = null,
): Promise<{ runId: string }> {
  const em = app.orm.em.fork();
  const flow = flowId.length > 64 || flowId.includes('\u0000') ? null : await em.findOne(Flow, { id: flowId });
  const secret = flow ? app.secretBox.open(flow.webhookSecret, `flow:${flow.id}`) : 'fwh_none';
  const valid = signatureMatches(signatureOf(secret, body), signature);
  if (!flow || !valid) throw errors.invalidSignature();
  if (!flow.enabled) throw errors.flowDisabled();
  if (!flow.graph.nodes.some((n) => n.type === 'trigger.webhook')) throw errors.validation(null, 'This flow has no trigger.webhook node');
  let input: Record<string, unknown> = {};
  if (body.length > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw errors.invalidBody('The body must be a JSON object');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw errors.invalidBody('The body must be a JSON object');
    input = parsed as Record<string, unknown>;
  }
  const run = newRun(em, flow, { trigger: 'webhook', input, now: app.clock.now(), requestId });
  await em.flush();
  app.flows.wake.notify();
  return { runId: run.id };
}
