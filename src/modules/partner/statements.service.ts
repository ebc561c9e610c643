import { stringify } from 'csv-stringify/sync';
import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { calendarMonth, monthOf, MONTH_FORMAT, MONTH_PATTERN, type Period } from '../usage/index.js';
import { MonthSchema } from '../usage/index.js';
import { usageByDay, windowTotals } from '../usage/index.js';
import { Workspace } from '../workspaces/index.js';
import { resale, wholesaleCents, WHOLESALE_GRID } from './grid.js';
import { PartnerClient, PartnerPayment, type PartnerProgram } from './partner.entity.js';
import { questionsByMonth, totalsByWorkspace } from './partner.repository.js';
import {
  MonthQuerySchema,
  PaymentsQuerySchema,
  SetPaymentSchema,
  type ClientUsage,
  type PaymentDto,
  type Statement,
  type Wholesale,
} from './partner.schemas.js';
import { findClient, requireProgram } from './partner.service.js';

/** The calendar month (UTC) `YYYY-MM` names. */
export function monthPeriod(month: string): Period {
  const m = MONTH_PATTERN.exec(month);
  if (!m) throw errors.validation('month', MONTH_FORMAT);
  return calendarMonth(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)));
}

/** `YYYY-MM` shifted by whole months. */
export function addMonths(month: string, delta: number): string {
  const { start } = monthPeriod(month);
  return monthOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + delta, 1)));
}

const queryMonth = (ctx: ServiceContext, query: unknown, fallback: 'current' | 'last'): string => {
  const { month } = MonthQuerySchema.parse(query ?? {});
  const current = monthOf(ctx.clock.now());
  return month ?? (fallback === 'current' ? current : addMonths(current, -1));
};

/** `GET /partner/clients/:id/usage?month=`: the client's questions, answers and controls of a calendar month, by day. */
export async function getClientUsage(ctx: ServiceContext, id: string, query: unknown): Promise<ClientUsage> {
  const program = await requireProgram(ctx);
  const month = queryMonth(ctx, query, 'current');
  const { client } = await findClient(ctx, program, id);
  const period = monthPeriod(month);
  const [totals, byDay] = await Promise.all([windowTotals(ctx.em, client.workspaceId, period), usageByDay(ctx.em, client.workspaceId, period)]);
  return {
    clientId: client.workspaceId,
    month,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    questions: totals.questions,
    answers: totals.answers,
    controls: totals.controls,
    byDay,
  };
}

function statementOf(client: PartnerClient, ws: Workspace, month: string, usage: { questions: number; answers: number; controls: number }): Statement {
  const period = monthPeriod(month);
  const rates = {
    ratePer100Cents: client.ratePer100Cents ?? null,
    seatRateCents: client.seatRateCents ?? null,
    includedQuestionsPerSeat: client.includedQuestionsPerSeat ?? null,
    seats: ws.seats,
  };
  const sale = resale(usage.questions, rates);
  const wholesale = wholesaleCents(usage.questions);
  return {
    clientId: ws.id,
    clientName: ws.name,
    month,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    currency: 'EUR',
    usage: { questions: usage.questions, answers: usage.answers, controls: usage.controls },
    rates,
    resale: sale,
    controls: { count: usage.controls, priceCents: 0 },
    wholesaleCents: wholesale,
    marginCents: sale.totalCents - wholesale,
  };
}

/**
 * `GET /partner/clients/:id/statement?month=` (default: this month): usage, controls, the resale amount
 * from the client's rates next to the wholesale price and the margin, in integer cents (grid.ts).
 */
export async function getStatement(ctx: ServiceContext, id: string, query: unknown): Promise<Statement> {
  const program = await requireProgram(ctx);
  const month = queryMonth(ctx, query, 'current');
  const { client, workspace } = await findClient(ctx, program, id);
  const totals = await windowTotals(ctx.em, client.workspaceId, monthPeriod(month));
  return statementOf(client, workspace, month, totals);
}

/**
 * `GET /partner/clients/:id/payments?months=` (1 to 24, default 6): the ledger of the last months,
 * this month included, newest first; a month nothing was recorded for is unpaid. `dueCents` is the
 * month's resale total at the client's current rates.
 */
export async function listPayments(ctx: ServiceContext, id: string, query: unknown): Promise<PaymentDto[]> {
  const program = await requireProgram(ctx);
  const { months } = PaymentsQuerySchema.parse(query ?? {});
  const count = months ?? 6;
  const { client, workspace } = await findClient(ctx, program, id);
  const current = monthOf(ctx.clock.now());
  const list = Array.from({ length: count }, (_, i) => addMonths(current, -i));
  const oldest = list[list.length - 1];
  const [recorded, questions] = await Promise.all([
    ctx.em.find(PartnerPayment, { clientId: client.workspaceId, month: { $in: list } }),
    questionsByMonth(ctx.em, client.workspaceId, { start: monthPeriod(oldest).start, end: monthPeriod(current).end }),
  ]);
  const byMonth = new Map(recorded.map((r) => [r.month, r]));
  return list.map((month) => {
    const row = byMonth.get(month);
    const due = statementOf(client, workspace, month, { questions: questions.get(month) ?? 0, answers: 0, controls: 0 }).resale.totalCents;
    return { month, paid: row?.paid ?? false, amountCents: row?.amountCents ?? null, dueCents: due, updatedAt: row?.updatedAt.toISOString() ?? null };
  });
}

/** `PUT /partner/clients/:id/payments/:month`: records whether the client paid a month; refused (400) for a future month. */
export async function setPayment(ctx: ServiceContext, id: string, month: string, input: unknown): Promise<PaymentDto> {
  const program = await requireProgram(ctx);
  const parsedMonth = MonthSchema.safeParse(month);
  if (!parsedMonth.success) throw errors.validation('month', MONTH_FORMAT);
  if (parsedMonth.data > monthOf(ctx.clock.now())) throw errors.validation('month', 'month cannot be in the future');
  const data = SetPaymentSchema.parse(input ?? {});
  const { client } = await findClient(ctx, program, id);
  const now = ctx.clock.now();
  await ctx.em.upsert(PartnerPayment, {
    clientId: client.workspaceId,
    month: parsedMonth.data,
    partnerId: program.workspaceId,
    paid: data.paid,
    amountCents: data.amountCents ?? null,
    updatedAt: now,
  });
  const [entry] = (await listPayments(ctx, id, { months: 24 })).filter((p) => p.month === parsedMonth.data);
  return entry ?? { month: parsedMonth.data, paid: data.paid, amountCents: data.amountCents ?? null, dueCents: 0, updatedAt: now.toISOString() };
}

/** Every client's wholesale line of a month, oldest client first. */
export async function wholesaleLines(ctx: Pick<ServiceContext, 'em'>, program: PartnerProgram, month: string) {
  const clients = await ctx.em.find(PartnerClient, { partnerId: program.workspaceId }, { orderBy: { createdAt: 'asc', workspaceId: 'asc' } });
  const ids = clients.map((c) => c.workspaceId);
  const [workspaces, totals] = await Promise.all([
    ids.length ? ctx.em.find(Workspace, { id: { $in: ids } }) : Promise.resolve([]),
    totalsByWorkspace(ctx.em, ids, monthPeriod(month)),
  ]);
  const byId = new Map(workspaces.map((w) => [w.id, w]));
  return clients.map((c) => {
    const ws = byId.get(c.workspaceId)!;
    const t = totals.get(c.workspaceId) ?? { questions: 0, answers: 0, controls: 0 };
    return { client: c, workspace: ws, usage: t, statement: statementOf(c, ws, month, t) };
  });
}

/** `GET /partner/wholesale?month=` (default: this month): what the integrator owes per client, and the grid. */
export async function getWholesale(ctx: ServiceContext, query: unknown): Promise<Wholesale> {
  const program = await requireProgram(ctx);
  const month = queryMonth(ctx, query, 'current');
  const lines = await wholesaleLines(ctx, program, month);
  const clients = lines.map((l) => ({
    clientId: l.workspace.id,
    clientName: l.workspace.name,
    questions: l.usage.questions,
    controls: l.usage.controls,
    wholesaleCents: l.statement.wholesaleCents,
  }));
  return {
    month,
    currency: 'EUR',
    grid: WHOLESALE_GRID.map((t) => ({ upToQuestions: t.upToQuestions, centsPer100: t.centsPer100 })),
    clients,
    totalCents: clients.reduce((sum, c) => sum + c.wholesaleCents, 0),
  };
}

/** Euro cents as a French-locale spreadsheet reads a number: decimal comma, no grouping (`-12,05`). */
export const euros = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
};

/** A text cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR) is prefixed with `'`. */
const textCell = (s: string): string => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

export const CSV_COLUMNS = [
  'month',
  'client_id',
  'client_name',
  'seats',
  'questions',
  'controls',
  'resale_eur',
  'wholesale_eur',
  'margin_eur',
  'paid',
  'paid_amount_eur',
] as const;

/**
 * `GET /partner/usage.csv?month=` (default: last month): one line per client after a header line,
 * semicolon-separated, UTF-8 with a byte-order mark, CRLF line ends, amounts in euros with a decimal
 * comma: a spreadsheet set to a French locale opens it as columns of numbers (docs/partner.md).
 */
export async function usageCsv(ctx: ServiceContext, query: unknown): Promise<{ month: string; csv: string }> {
  const program = await requireProgram(ctx);
  const month = queryMonth(ctx, query, 'last');
  const lines = await wholesaleLines(ctx, program, month);
  const payments = lines.length
    ? await ctx.em.find(PartnerPayment, { clientId: { $in: lines.map((l) => l.client.workspaceId) }, month })
    : [];
  const paid = new Map(payments.map((p) => [p.clientId, p]));
  const rows = lines.map((l) => {
    const s = l.statement;
    const payment = paid.get(l.client.workspaceId);
    return [
      month,
      l.workspace.id,
      textCell(l.workspace.name),
      String(s.rates.seats),
      String(s.usage.questions),
      String(s.usage.controls),
      euros(s.resale.totalCents),
      euros(s.wholesaleCents),
      euros(s.marginCents),
      payment?.paid ? 'yes' : 'no',
      payment?.amountCents === null || payment?.amountCents === undefined ? '' : euros(payment.amountCents),
    ];
  });
  const csv = stringify([[...CSV_COLUMNS], ...rows], { bom: true, delimiter: ';', record_delimiter: 'windows', quoted_match: /[;"\r\n]/ });
  return { month, csv };
}
