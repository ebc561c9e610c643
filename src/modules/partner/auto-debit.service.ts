import type Stripe from 'stripe';
import type { ServiceContext } from '../../core/context.js';
import type { Deps } from '../../core/deps.js';
import type { Em } from '../../db/types.js';
import { errors } from '../../errors/index.js';
import type { Logger } from '../../lib/logger.js';
import { markPaid } from './invoices.service.js';
import { PartnerInvoice, PartnerProgram } from './partner.entity.js';
import type { AutoDebitDto } from './partner.schemas.js';
import { requireProgram } from './partner.service.js';
import { callProvider, ensureCustomer, idOf, provider } from './payments.js';

const SANDBOX_SETUP = 'cs_sandbox_setup_';
const SANDBOX_METHOD = 'pm_sandbox';

export const autoDebitOf = (p: PartnerProgram): AutoDebitDto => ({
  active: Boolean(p.autoDebitPaymentMethod),
  pending: Boolean(p.autoDebitSessionId),
  since: p.autoDebitSince?.toISOString() ?? null,
});

/**
 * `POST /partner/auto-debit`: starts the provider's hosted setup flow (a checkout in setup mode) and
 * returns its URL; the month-end invoices are then charged on the saved payment method. Sandbox: a test
 * setup, never reaching the provider.
 */
export async function setupAutoDebit(ctx: ServiceContext, linkBase: string): Promise<{ url: string; sessionId: string }> {
  const program = await requireProgram(ctx);
  const confirmUrl = `${linkBase}/partner/auto-debit/confirm`;
  if (program.sandbox) {
    program.autoDebitSessionId = `${SANDBOX_SETUP}${program.workspaceId}`;
    await ctx.em.flush();
    return { url: `${confirmUrl}?sandbox=1`, sessionId: program.autoDebitSessionId };
  }
  const stripe = provider(ctx.app.partner.payments);
  const customer = await ensureCustomer(ctx.em, stripe, ctx.log, program, ctx.caller.workspace.name);
  const session = await callProvider(ctx.log, 'checkout.sessions.create', () =>
    stripe.checkout.sessions.create({
      mode: 'setup',
      customer,
      currency: 'eur',
      metadata: { partnerId: program.workspaceId, purpose: 'auto-debit' },
      success_url: `${confirmUrl}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${linkBase}/partner/status`,
    }),
  );
  program.autoDebitSessionId = session.id;
  await ctx.em.flush();
  if (!session.url) throw errors.paymentProviderError();
  return { url: session.url, sessionId: session.id };
}

/** Saves the payment method of a completed setup session of this program (from confirm or the webhook). */
async function completeSetup(em: Em, stripe: Stripe, log: Logger, program: PartnerProgram, session: Stripe.Checkout.Session, now: Date): Promise<void> {
  if (session.id !== program.autoDebitSessionId || session.status !== 'complete' || session.metadata?.partnerId !== program.workspaceId) return;
  const intentId = idOf(session.setup_intent);
  if (!intentId) return;
  const intent = await callProvider(log, 'setupIntents.retrieve', () => stripe.setupIntents.retrieve(intentId));
  const method = idOf(intent.payment_method);
  if (intent.status !== 'succeeded' || !method) return;
  program.autoDebitPaymentMethod = method;
  program.autoDebitSince = now;
  program.autoDebitSessionId = null;
  await em.flush();
}

/**
 * `GET /partner/auto-debit/confirm`: asks the provider about the pending setup session (never the query
 * string) and saves its payment method once complete. Idempotent: an active debit is answered as it is.
 */
export async function confirmAutoDebit(ctx: ServiceContext): Promise<AutoDebitDto> {
  const program = await requireProgram(ctx);
  const pending = program.autoDebitSessionId;
  if (pending && program.sandbox) {
    if (pending.startsWith(SANDBOX_SETUP)) {
      program.autoDebitPaymentMethod = SANDBOX_METHOD;
      program.autoDebitSince = ctx.clock.now();
      program.autoDebitSessionId = null;
      await ctx.em.flush();
    }
  } else if (pending) {
    const stripe = provider(ctx.app.partner.payments);
    const session = await callProvider(ctx.log, 'checkout.sessions.retrieve', () => stripe.checkout.sessions.retrieve(pending));
    await completeSetup(ctx.em, stripe, ctx.log, program, session, ctx.clock.now());
  }
  return autoDebitOf(program);
}

export async function getAutoDebit(ctx: ServiceContext): Promise<AutoDebitDto> {
  return autoDebitOf(await requireProgram(ctx));
}

/** `DELETE /partner/auto-debit`: detaches the saved payment method at the provider and forgets it (idempotent). */
export async function removeAutoDebit(ctx: ServiceContext): Promise<void> {
  const program = await requireProgram(ctx);
  const method = program.autoDebitPaymentMethod;
  if (method && !program.sandbox) {
    const stripe = provider(ctx.app.partner.payments);
    await callProvider(ctx.log, 'paymentMethods.detach', () => stripe.paymentMethods.detach(method));
  }
  program.autoDebitPaymentMethod = null;
  program.autoDebitSince = null;
  program.autoDebitSessionId = null;
  await ctx.em.flush();
}

/**
 * `POST /partner/stripe/webhook`: the provider's events, verified by signature over the raw body
 * (SVC_STRIPE_WEBHOOK_SECRET; 400 webhook_signature_invalid otherwise; 404 without a configured provider). A completed payment checkout or
 * a succeeded payment intent marks its invoice paid; a completed setup checkout saves the payment method.
 * Handling is idempotent: the provider may deliver an event more than once.
 */
export async function handleProviderEvent(app: Deps, rawBody: Buffer, signature: string | undefined): Promise<{ received: true; type: string }> {
  // Without a provider (or its signing secret) there is no webhook to call: the route looks missing.
  const stripe = app.partner.payments;
  const secret = app.partner.webhookSecret;
  if (!stripe || !secret) throw errors.notFound('route', null, 'Route not found: POST /partner/stripe/webhook (no payment provider configured)');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature ?? '', secret);
  } catch {
    throw errors.webhookSignatureInvalid();
  }
  const em = app.orm.em.fork();
  const now = app.clock.now();
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object;
    if (session.mode === 'payment' && session.payment_status === 'paid') {
      const invoice = await em.findOne(PartnerInvoice, { id: session.metadata?.invoiceId ?? '', checkoutSessionId: session.id });
      if (invoice && session.amount_total === invoice.amountCents) {
        invoice.paymentIntentId = idOf(session.payment_intent);
        await em.flush();
        await markPaid(em, invoice, now);
      }
    } else if (session.mode === 'setup') {
      const program = await em.findOne(PartnerProgram, { workspaceId: session.metadata?.partnerId ?? '' });
      if (program) await completeSetup(em, stripe, app.log, program, session, now);
    }
  } else if (event.type === 'payment_intent.succeeded') {
    const intent = event.data.object;
    const invoice = await em.findOne(PartnerInvoice, { id: intent.metadata?.invoiceId ?? '' });
    if (invoice && intent.amount === invoice.amountCents && invoice.status === 'open') await markPaid(em, invoice, now);
  }
  return { received: true, type: event.type };
}
