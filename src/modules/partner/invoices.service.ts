import type { ServiceContext } from '../../core/context.js';
import type { Deps } from '../../core/deps.js';
import type { Em } from '../../db/types.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { monthOf } from '../usage/index.js';
import { Workspace } from '../workspaces/index.js';
import { PartnerInvoice, PartnerProgram, type InvoiceLine } from './partner.entity.js';
import type { InvoiceDto } from './partner.schemas.js';
import { DAY_MS, graceEndOf, requireProgram } from './partner.service.js';
import { callProvider, ensureCustomer, idOf, provider } from './payments.js';
import { addMonths, wholesaleLines } from './statements.service.js';

/** Days between an invoice's issue and its due date (docs/partner.md). */
export const INVOICE_TERMS_DAYS = 14;

export function toInvoiceDto(invoice: PartnerInvoice, program: PartnerProgram, now: Date): InvoiceDto {
  const graceEnd = graceEndOf(invoice, program);
  return {
    id: invoice.id,
    month: invoice.month,
    status: invoice.status,
    sandbox: invoice.sandbox,
    amountCents: invoice.amountCents,
    currency: invoice.currency,
    lines: invoice.lines,
    createdAt: invoice.createdAt.toISOString(),
    issuedAt: invoice.issuedAt?.toISOString() ?? null,
    dueAt: invoice.dueAt?.toISOString() ?? null,
    paidAt: invoice.paidAt?.toISOString() ?? null,
    overdue: invoice.status === 'open' && !invoice.sandbox && graceEnd !== null && graceEnd.getTime() <= now.getTime(),
  };
}

/**
 * Writes on every client workspace of the integrator when its keys start failing with 403
 * provider_unpaid: the grace end of its oldest open live invoice, or null. The key lookup reads it with
 * the workspace row, so a payment (or a new open invoice) takes effect at the next call.
 */
export async function syncUnpaid(em: Em, program: PartnerProgram): Promise<Date | null> {
  const [first] = await em.find(
    PartnerInvoice,
    { partnerId: program.workspaceId, status: 'open', sandbox: false, dueAt: { $ne: null } },
    { orderBy: { dueAt: 'asc', id: 'asc' }, limit: 1 },
  );
  const unpaidAfter = first ? graceEndOf(first, program) : null;
  await em.nativeUpdate(Workspace, { integratorId: program.workspaceId }, { providerUnpaidAfter: unpaidAfter });
  return unpaidAfter;
}

/** Marks an open invoice paid once (later calls change nothing), then lifts provider_unpaid if it was the last. */
export async function markPaid(em: Em, invoice: PartnerInvoice, at: Date): Promise<void> {
  const changed = await em.nativeUpdate(PartnerInvoice, { id: invoice.id, status: 'open' }, { status: 'paid', paidAt: at });
  await em.refresh(invoice);
  if (changed > 0) {
    const program = await em.findOneOrFail(PartnerProgram, { workspaceId: invoice.partnerId });
    await syncUnpaid(em, program);
  }
}

/**
 * Charges an open live invoice on the integrator's saved payment method (automatic debit): paid at once
 * when the provider says so; otherwise it stays open and the provider's webhook settles it.
 */
async function chargeAutomatically(app: Deps, em: Em, program: PartnerProgram, invoice: PartnerInvoice): Promise<void> {
  const stripe = app.partner.payments;
  if (!stripe || invoice.sandbox || !program.autoDebitPaymentMethod || !program.stripeCustomerId) return;
  try {
    const intent = await stripe.paymentIntents.create(
      {
        amount: invoice.amountCents,
        currency: 'eur',
        customer: program.stripeCustomerId,
        payment_method: program.autoDebitPaymentMethod,
        off_session: true,
        confirm: true,
        description: `Invoice ${invoice.month}`,
        metadata: { invoiceId: invoice.id, partnerId: program.workspaceId },
      },
      { idempotencyKey: `invoice-${invoice.id}` },
    );
    invoice.paymentIntentId = intent.id;
    await em.flush();
    if (intent.status === 'succeeded') await markPaid(em, invoice, app.clock.now());
  } catch (err) {
    app.log.warn({ err: err instanceof Error ? err.message : String(err), invoiceId: invoice.id }, 'automatic debit failed: the invoice stays open');
  }
}

/**
 * The month-end job (node-cron, daily at 00:05 UTC; idempotent): each integrator gets one invoice for
 * `month` (default: the month before the clock's) of its clients' wholesale amounts. Drafted, then issued
 * at once: open and due in 14 days, or paid when nothing is due; charged when automatic debit is set up.
 * A sandbox integrator's invoices are test invoices: never charged, never making its clients unpaid.
 */
export async function closeMonth(app: Deps, month?: string): Promise<PartnerInvoice[]> {
  const now = app.clock.now();
  const target = month ?? addMonths(monthOf(now), -1);
  const em = app.orm.em.fork();
  const programs = await em.find(PartnerProgram, {}, { orderBy: { workspaceId: 'asc' } });
  const made: PartnerInvoice[] = [];
  for (const program of programs) {
    if (await em.count(PartnerInvoice, { partnerId: program.workspaceId, month: target })) continue;
    const lines: InvoiceLine[] = (await wholesaleLines({ em }, program, target)).map((l) => ({
      clientId: l.workspace.id,
      clientName: l.workspace.name,
      questions: l.usage.questions,
      controls: l.usage.controls,
      wholesaleCents: l.statement.wholesaleCents,
    }));
    const amountCents = lines.reduce((s, l) => s + l.wholesaleCents, 0);
    const invoice = em.create(PartnerInvoice, {
      id: newId('inv'),
      partnerId: program.workspaceId,
      month: target,
      status: 'draft',
      sandbox: program.sandbox,
      amountCents,
      currency: 'EUR',
      lines,
      createdAt: now,
      issuedAt: null,
      dueAt: null,
      paidAt: null,
      checkoutSessionId: null,
      paymentIntentId: null,
    });
    try {
      await em.flush();
    } catch (err) {
      // Another process closed this month first (unique partner and month).
      app.log.info({ err: err instanceof Error ? err.message : String(err), partnerId: program.workspaceId, month: target }, 'invoice already made');
      em.clear();
      continue;
    }
    invoice.status = amountCents === 0 ? 'paid' : 'open';
    invoice.issuedAt = now;
    invoice.dueAt = new Date(now.getTime() + INVOICE_TERMS_DAYS * DAY_MS);
    if (amountCents === 0) invoice.paidAt = now;
    await em.flush();
    await syncUnpaid(em, program);
    if (invoice.status === 'open') await chargeAutomatically(app, em, program, invoice);
    made.push(invoice);
  }
  return made;
}

async function findInvoice(ctx: ServiceContext, program: PartnerProgram, id: string): Promise<PartnerInvoice> {
  const invoice = await ctx.em.findOne(PartnerInvoice, { id, partnerId: program.workspaceId });
  if (!invoice) throw errors.notFound('invoice', id);
  return invoice;
}

/** `GET /partner/invoices`: the integrator's invoices, newest month first. */
export async function listInvoices(ctx: ServiceContext): Promise<InvoiceDto[]> {
  const program = await requireProgram(ctx);
  const invoices = await ctx.em.find(PartnerInvoice, { partnerId: program.workspaceId }, { orderBy: { month: 'desc', id: 'desc' } });
  return invoices.map((i) => toInvoiceDto(i, program, ctx.clock.now()));
}

/** A sandbox checkout: no provider, nothing charged (docs/partner.md, Sandbox). */
const SANDBOX_SESSION = 'cs_sandbox_';

/**
 * `POST /partner/invoices/:id/pay`: starts the payment of an open invoice through the provider's hosted
 * checkout and returns its URL. Paying a paid, void or draft invoice is refused (409
 * invoice_not_payable); without a provider, 503 payments_not_configured. A sandbox invoice gets a test
 * checkout that never reaches the provider.
 */
export async function payInvoice(ctx: ServiceContext, id: string, linkBase: string): Promise<{ url: string; sessionId: string }> {
  const program = await requireProgram(ctx);
  const invoice = await findInvoice(ctx, program, id);
  if (invoice.status !== 'open') throw errors.invoiceNotPayable(invoice.status);
  const returnUrl = `${linkBase}/partner/invoices/${invoice.id}/confirm`;
  if (invoice.sandbox) {
    invoice.checkoutSessionId = `${SANDBOX_SESSION}${invoice.id}`;
    await ctx.em.flush();
    return { url: `${returnUrl}?sandbox=1`, sessionId: invoice.checkoutSessionId };
  }
  const stripe = provider(ctx.app.partner.payments);
  const customer = await ensureCustomer(ctx.em, stripe, ctx.log, program, ctx.caller.workspace.name);
  const session = await callProvider(ctx.log, 'checkout.sessions.create', () =>
    stripe.checkout.sessions.create({
      mode: 'payment',
      customer,
      client_reference_id: invoice.id,
      line_items: [
        { quantity: 1, price_data: { currency: 'eur', unit_amount: invoice.amountCents, product_data: { name: `Wholesale ${invoice.month}` } } },
      ],
      metadata: { invoiceId: invoice.id, partnerId: program.workspaceId },
      payment_intent_data: { metadata: { invoiceId: invoice.id, partnerId: program.workspaceId } },
      success_url: `${returnUrl}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${linkBase}/partner/invoices`,
    }),
  );
  invoice.checkoutSessionId = session.id;
  await ctx.em.flush();
  if (!session.url) throw errors.paymentProviderError();
  return { url: session.url, sessionId: session.id };
}

/**
 * `GET /partner/invoices/:id/confirm`: asks the provider about the invoice's own checkout (never the
 * query string) and marks the invoice paid when the provider says it is, for this invoice and amount.
 * Idempotent: a paid invoice is answered as it is.
 */
export async function confirmInvoice(ctx: ServiceContext, id: string): Promise<InvoiceDto> {
  const program = await requireProgram(ctx);
  const invoice = await findInvoice(ctx, program, id);
  if (invoice.status === 'open' && invoice.checkoutSessionId) {
    if (invoice.sandbox) {
      if (invoice.checkoutSessionId.startsWith(SANDBOX_SESSION)) await markPaid(ctx.em, invoice, ctx.clock.now());
    } else {
      const stripe = provider(ctx.app.partner.payments);
      const session = await callProvider(ctx.log, 'checkout.sessions.retrieve', () => stripe.checkout.sessions.retrieve(invoice.checkoutSessionId!));
      if (session.payment_status === 'paid' && session.metadata?.invoiceId === invoice.id && session.amount_total === invoice.amountCents) {
        invoice.paymentIntentId = idOf(session.payment_intent);
        await ctx.em.flush();
        await markPaid(ctx.em, invoice, ctx.clock.now());
      }
    }
  }
  return toInvoiceDto(invoice, program, ctx.clock.now());
}
