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
import { clientUsageOp, listPaymentsOp, setPaymentOp, statementOp, usageCsvOp, wholesaleOp } from '../../src/modules/partner/index.js';
import { mountOperation, param } from '../route.js';
import { PARTNER_403 } from './clients.routes.js';

const NOT_A_CLIENT = { description: 'Not a client of this integrator' };

/** Usage, statements, the payments ledger, the CSV export and the wholesale amounts (scope `partner`). */
export function partnerStatementsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'partner' } as const;

  mountOperation(r, app, clientUsageOp, {
    ...base,
    summary: "The client's usage of a calendar month (UTC; ?month=YYYY-MM, default this month), by day",
    query: MonthQuerySchema,
    responses: { 200: { description: 'Usage', schema: z.object({ usage: ClientUsageSchema }) }, 403: PARTNER_403, 404: NOT_A_CLIENT },
    input: (req) => ({ id: param(req, 'id'), query: req.query }),
    reply: (usage) => ({ status: 200, body: { usage } }),
  });
  mountOperation(r, app, statementOp, {
    ...base,
    summary: 'Usage, controls, resale amount from the client rates, wholesale price and margin, in integer cents (?month=, default this month)',
    query: MonthQuerySchema,
    responses: { 200: { description: 'Statement', schema: z.object({ statement: StatementSchema }) }, 403: PARTNER_403, 404: NOT_A_CLIENT },
    input: (req) => ({ id: param(req, 'id'), query: req.query }),
    reply: (statement) => ({ status: 200, body: { statement } }),
  });
  mountOperation(r, app, listPaymentsOp, {
    ...base,
    summary: "The client's payments ledger, newest first, this month included (?months= 1 to 24, default 6)",
    query: PaymentsQuerySchema,
    responses: { 200: { description: 'Ledger', schema: z.object({ payments: z.array(PaymentDtoSchema) }) }, 403: PARTNER_403, 404: NOT_A_CLIENT },
    input: (req) => ({ id: param(req, 'id'), query: req.query }),
    reply: (payments) => ({ status: 200, body: { payments } }),
  });
  mountOperation(r, app, setPaymentOp, {
    ...base,
    summary: 'Records whether the client paid a month (paid, amountCents?); refused for a future month',
    body: SetPaymentSchema,
    responses: {
      200: { description: 'The month in the ledger', schema: z.object({ payment: PaymentDtoSchema }) },
      400: { description: 'month not YYYY-MM or in the future; paid missing or not a boolean; amountCents not a non-negative whole number' },
      403: PARTNER_403,
      404: NOT_A_CLIENT,
    },
    input: (req) => ({ id: param(req, 'id'), month: param(req, 'month'), body: req.body }),
    reply: (payment) => ({ status: 200, body: { payment } }),
  });
  mountOperation(r, app, usageCsvOp, {
    ...base,
    summary: 'One line per client for a month (?month=, default last month): semicolon-separated, UTF-8 with a byte-order mark, decimal comma',
    query: MonthQuerySchema,
    responses: { 200: { description: 'text/csv; charset=utf-8' }, 403: PARTNER_403 },
    handler: async (_ctx, req, res, run) => {
      const { month, csv } = await run({ query: req.query });
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', `attachment; filename="usage-${month}.csv"`);
      res.status(200).send(csv);
    },
  });
  mountOperation(r, app, wholesaleOp, {
    ...base,
    summary: 'Wholesale amounts per client for a month (?month=, default this month) and the grid they come from',
    query: MonthQuerySchema,
    responses: { 200: { description: 'Wholesale', schema: z.object({ wholesale: WholesaleSchema }) }, 403: PARTNER_403 },
    input: (req) => ({ query: req.query }),
    reply: (wholesale) => ({ status: 200, body: { wholesale } }),
  });
  return r;
}
