import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import {
  ClientUsageSchema,
  MonthQuerySchema,
  PaymentDtoSchema,
  PaymentsQuerySchema,
  SetPaymentSchema,
  StatementSchema,
  WholesaleSchema,
} from '../../src/modules/partner/index.js';
import {
  getClientUsage,
  getStatement,
  getWholesale,
  listPayments,
  setPayment,
  usageCsv,
} from '../../src/modules/partner/index.js';
import { mount, param } from '../route.js';
import { PARTNER_403 } from './clients.routes.js';

const NOT_A_CLIENT = { description: 'Not a client of this integrator' };

/** Usage, statements, the payments ledger, the CSV export and the wholesale amounts (scope `partner`). */
export function partnerStatementsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'partner', scope: 'partner' } as const;

  mount(r, app, {
    ...base,
    method: 'get',
    path: '/partner/clients/:id/usage',
    summary: "The client's usage of a calendar month (UTC; ?month=YYYY-MM, default this month), by day",
    query: MonthQuerySchema,
    responses: { 200: { description: 'Usage', schema: z.object({ usage: ClientUsageSchema }) }, 403: PARTNER_403, 404: NOT_A_CLIENT },
    handler: async (ctx, req) => ({ status: 200, body: { usage: await getClientUsage(ctx, param(req, 'id'), req.query) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/partner/clients/:id/statement',
    summary: 'Usage, controls, resale amount from the client rates, wholesale price and margin, in integer cents (?month=, default this month)',
    query: MonthQuerySchema,
    responses: { 200: { description: 'Statement', schema: z.object({ statement: StatementSchema }) }, 403: PARTNER_403, 404: NOT_A_CLIENT },
    handler: async (ctx, req) => ({ status: 200, body: { statement: await getStatement(ctx, param(req, 'id'), req.query) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/partner/clients/:id/payments',
    summary: "The client's payments ledger, newest first, this month included (?months= 1 to 24, default 6)",
    query: PaymentsQuerySchema,
    responses: { 200: { description: 'Ledger', schema: z.object({ payments: z.array(PaymentDtoSchema) }) }, 403: PARTNER_403, 404: NOT_A_CLIENT },
    handler: async (ctx, req) => ({ status: 200, body: { payments: await listPayments(ctx, param(req, 'id'), req.query) } }),
  });
  mount(r, app, {
    ...base,
    method: 'put',
    path: '/partner/clients/:id/payments/:month',
    summary: 'Records whether the client paid a month (paid, amountCents?); refused for a future month',
    body: SetPaymentSchema,
    responses: {
      200: { description: 'The month in the ledger', schema: z.object({ payment: PaymentDtoSchema }) },
      400: { description: 'month not YYYY-MM or in the future; paid missing or not a boolean; amountCents not a non-negative whole number' },
      403: PARTNER_403,
      404: NOT_A_CLIENT,
    },
    handler: async (ctx, req) => ({ status: 200, body: { payment: await setPayment(ctx, param(req, 'id'), param(req, 'month'), req.body) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/partner/usage.csv',
    summary: 'One line per client for a month (?month=, default last month): semicolon-separated, UTF-8 with a byte-order mark, decimal comma',
    query: MonthQuerySchema,
    responses: { 200: { description: 'text/csv; charset=utf-8' }, 403: PARTNER_403 },
    handler: async (ctx, req, res) => {
      const { month, csv } = await usageCsv(ctx, req.query);
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', `attachment; filename="usage-${month}.csv"`);
      res.status(200).send(csv);
    },
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/partner/wholesale',
    summary: 'Wholesale amounts per client for a month (?month=, default this month) and the grid they come from',
    query: MonthQuerySchema,
    responses: { 200: { description: 'Wholesale', schema: z.object({ wholesale: WholesaleSchema }) }, 403: PARTNER_403 },
    handler: async (ctx, req) => ({ status: 200, body: { wholesale: await getWholesale(ctx, req.query) } }),
  });
  return r;
}
