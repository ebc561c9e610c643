import express, { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { confirmAutoDebitOp, handleProviderEvent, removeAutoDebitOp, setupAutoDebitOp } from '../../src/modules/partner/index.js';
import { confirmInvoiceOp, listInvoicesOp, payInvoiceOp } from '../../src/modules/partner/index.js';
import { AutoDebitSchema, CheckoutSchema, InvoiceDtoSchema } from '../../src/modules/partner/index.js';
import { mountOperation, mountPublic, param } from '../route.js';
import { linkBaseOf, PARTNER_403 } from './clients.routes.js';

const UNCONFIGURED = { description: 'payments_not_configured: no payment provider on this server' };
const PROVIDER_FAILED = { description: 'payment_provider_error: the provider failed' };

/** Invoices and automatic debit through the payment provider's hosted pages (scope `partner`). */
export function partnerPaymentsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'partner' } as const;

  mountOperation(r, app, listInvoicesOp, {
    ...base,
    summary: "The integrator's monthly invoices (draft, open, paid or void), newest first",
    responses: { 200: { description: 'Invoices', schema: z.object({ invoices: z.array(InvoiceDtoSchema) }) }, 403: PARTNER_403 },
    input: () => ({}),
    reply: (invoices) => ({ status: 200, body: { invoices } }),
  });
  mountOperation(r, app, payInvoiceOp, {
    ...base,
    summary: "Starts paying an open invoice through the provider's hosted checkout; returns its URL",
    responses: {
      200: { description: 'The checkout to send the payer to', schema: z.object({ checkout: CheckoutSchema }) },
      403: PARTNER_403,
      404: { description: 'Unknown invoice' },
      409: { description: 'invoice_not_payable: the invoice is paid, void or still a draft' },
      502: PROVIDER_FAILED,
      503: UNCONFIGURED,
    },
    input: (req) => ({ id: param(req, 'id'), linkBase: linkBaseOf(app, req) }),
    reply: (checkout) => ({ status: 200, body: { checkout } }),
  });
  mountOperation(r, app, confirmInvoiceOp, {
    ...base,
    summary: 'Checks the payment with the provider (never the query string) and marks the invoice paid; idempotent',
    responses: {
      200: { description: 'The invoice as it stands', schema: z.object({ invoice: InvoiceDtoSchema }) },
      403: PARTNER_403,
      404: { description: 'Unknown invoice' },
      502: PROVIDER_FAILED,
      503: UNCONFIGURED,
    },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (invoice) => ({ status: 200, body: { invoice } }),
  });
  mountOperation(r, app, setupAutoDebitOp, {
    ...base,
    summary: "Sets up automatic debit of the invoices through the provider's hosted setup flow; returns its URL",
    responses: {
      200: { description: 'The setup page to send the payer to', schema: z.object({ checkout: CheckoutSchema }) },
      403: PARTNER_403,
      502: PROVIDER_FAILED,
      503: UNCONFIGURED,
    },
    input: (req) => ({ linkBase: linkBaseOf(app, req) }),
    reply: (checkout) => ({ status: 200, body: { checkout } }),
  });
  mountOperation(r, app, confirmAutoDebitOp, {
    ...base,
    summary: 'Checks the setup with the provider and saves the payment method; idempotent',
    responses: {
      200: { description: 'The automatic debit', schema: z.object({ autoDebit: AutoDebitSchema }) },
      403: PARTNER_403,
      502: PROVIDER_FAILED,
      503: UNCONFIGURED,
    },
    input: () => ({}),
    reply: (autoDebit) => ({ status: 200, body: { autoDebit } }),
  });
  mountOperation(r, app, removeAutoDebitOp, {
    ...base,
    summary: 'Removes automatic debit (the payment method is detached at the provider); idempotent',
    responses: { 204: { description: 'Removed' }, 403: PARTNER_403, 502: PROVIDER_FAILED, 503: UNCONFIGURED },
    input: () => ({}),
    reply: () => ({ status: 204 }),
  });
  return r;
}

/**
 * The payment provider's webhook (no key: authenticated by its signature over the raw body). Mounted
 * before the JSON body parser, which would lose the exact bytes the signature covers.
 */
export function partnerProviderWebhookRouter(app: Deps): Router {
  const r = Router();
  r.use('/partner/stripe/webhook', express.raw({ type: () => true, limit: app.config.bodyLimit }));
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'partner',
    method: 'post',
    path: '/partner/stripe/webhook',
    summary: "The payment provider's events (Stripe-Signature verified): payments and automatic-debit setups",
    responses: {
      200: { description: 'Received', schema: z.object({ received: z.literal(true), type: z.string() }) },
      400: { description: 'webhook_signature_invalid' },
      404: { description: 'No payment provider configured on this server' },
    },
    handler: async (_ctx, req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.headers['stripe-signature'];
      return { status: 200, body: await handleProviderEvent(app, raw, typeof signature === 'string' ? signature : undefined) };
    },
  });
  return r;
}
