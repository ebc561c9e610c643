import type Stripe from 'stripe';
import type { Logger } from '../../lib/logger.js';
import { errors, isDomainError } from '../../errors/index.js';
import type { PartnerProgram } from './partner.entity.js';
import type { Em } from '../../db/types.js';

/** The provider's client, or 503 payments_not_configured (SVC_STRIPE_SECRET_KEY unset). */
export function provider(payments: Stripe | null): Stripe {
  if (!payments) throw errors.paymentsNotConfigured();
  return payments;
}

/** Runs a provider call; its failures become 502 payment_provider_error (logged, never their details). */
export async function callProvider<T>(log: Logger, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isDomainError(err)) throw err;
    log.error({ err: err instanceof Error ? err.message : String(err), what }, 'payment provider call failed');
    throw errors.paymentProviderError();
  }
}

/** The integrator's customer at the provider, created on first need and kept on the program. */
export async function ensureCustomer(em: Em, stripe: Stripe, log: Logger, program: PartnerProgram, name: string): Promise<string> {
  if (program.stripeCustomerId) return program.stripeCustomerId;
  const customer = await callProvider(log, 'customers.create', () =>
    stripe.customers.create({ name, metadata: { workspaceId: program.workspaceId } }),
  );
  program.stripeCustomerId = customer.id;
  await em.flush();
  return customer.id;
}

/** The id of an expandable field of a provider object (a string, or an object with `id`). */
export const idOf = (v: string | { id: string } | null | undefined): string | null => (v ? (typeof v === 'string' ? v : v.id) : null);
