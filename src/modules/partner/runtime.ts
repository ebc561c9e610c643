import Stripe from 'stripe';
import type { Kernel } from '../../core/deps.js';

/**
 * Process-wide state of the partner module: the payment provider's client (Stripe through its official
 * SDK), or null when SVC_STRIPE_SECRET_KEY is unset (payment routes answer 503 payments_not_configured).
 */
export interface PartnerRuntime {
  readonly payments: Stripe | null;
  /** The webhook signing secret (`whsec_…`) the provider's events are verified with. */
  readonly webhookSecret: string | null;
}

export function createPartnerRuntime(kernel: Pick<Kernel, 'config'>): PartnerRuntime {
  const { secretKey, webhookSecret, apiUrl } = kernel.config.stripe;
  if (!secretKey) return { payments: null, webhookSecret: webhookSecret ?? null };
  const address = apiUrl ? new URL(apiUrl) : null;
  const payments = new Stripe(secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(address
      ? {
          host: address.hostname,
          port: Number(address.port || (address.protocol === 'http:' ? 80 : 443)),
          protocol: address.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
  return { payments, webhookSecret: webhookSecret ?? null };
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The partner module's process state (the payment provider's client). */
    readonly partner: PartnerRuntime;
  }
}
