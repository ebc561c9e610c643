import { z } from 'zod';
import { PG_INT_MAX, pgInt } from '../../lib/pg-int.js';
import { ApiKeyDtoSchema, ScopesSchema } from '../keys/index.js';
import { isCapabilityScope } from '../../core/scopes.js';
import { MonthSchema } from '../usage/index.js';
import { INVOICE_STATUSES } from './partner.entity.js';

/** Euro cents or questions: a whole number from 0 up (SPEC: non-negative whole numbers). */
const amount = (field: string) => {
  const message = `${field} must be a non-negative whole number`;
  return z.number({ error: message }).int(message).min(0, message).max(PG_INT_MAX, `${field} must be at most ${PG_INT_MAX}`);
};

/** One schema for both directions, so /openapi.json documents its bounds (a `pipe` showed only its input: a bare string). */
const ClientNameSchema = z
  .string({ error: (iss) => (iss.input === undefined ? 'name is required' : 'name must be a string') })
  .trim()
  .min(1, 'name must not be empty')
  .max(200, 'name must be at most 200 characters');

/** `POST /partner/clients`. */
export const CreateClientSchema = z.object({
  name: ClientNameSchema,
  adminEmail: z
    .string({ error: 'adminEmail must be a string' })
    .trim()
    .max(254, 'adminEmail must be at most 254 characters')
    .pipe(z.email({ error: 'adminEmail must be an e-mail address' }))
    .transform((e) => e.toLowerCase())
    .nullish(),
  seats: pgInt('seats').optional().describe('Seats of the client workspace (billed at seatRateCents each); default 1'),
  ratePer100Cents: amount('ratePer100Cents').nullish().describe('Resale price of 100 questions beyond the included ones, euro cents; default none'),
  seatRateCents: amount('seatRateCents').nullish().describe('Resale price of one seat for a month, euro cents; default none'),
  includedQuestionsPerSeat: amount('includedQuestionsPerSeat').nullish().describe('Questions included per seat each month; default none'),
}).strict();
export type CreateClientInput = z.input<typeof CreateClientSchema>;

/** `PATCH /partner/clients/:id`: omitted keeps, null clears a rate. */
export const UpdateClientSchema = z.object({
  name: ClientNameSchema.optional(),
  ratePer100Cents: amount('ratePer100Cents').nullish().describe('Resale price of 100 questions beyond the included ones, euro cents'),
  seatRateCents: amount('seatRateCents').nullish().describe('Resale price of one seat for a month, euro cents'),
  includedQuestionsPerSeat: amount('includedQuestionsPerSeat').nullish().describe('Questions included per seat each month'),
  suspended: z.boolean({ error: 'suspended must be a boolean' }).optional(),
  seats: pgInt('seats').optional(),
}).strict();
export type UpdateClientInput = z.input<typeof UpdateClientSchema>;

/** `POST /partner/clients/:id/keys`: a restricted key (at least one capability scope), never `partner`. */
export const CreateClientKeySchema = z.object({
  name: z.string({ error: 'name must be a string' }).max(200, 'name must be at most 200 characters').nullish(),
  scopes: ScopesSchema.superRefine((scopes, ctx) => {
    if (scopes.includes('partner')) ctx.addIssue({ code: 'custom', message: 'scopes cannot contain partner: a client key never carries it' });
    else if (!scopes.some(isCapabilityScope)) {
      ctx.addIssue({ code: 'custom', message: 'scopes must name at least one capability (engine, knowledge, reflex, light, webhooks, proof, agents)' });
    }
  }),
  readonly: z.boolean({ error: 'readonly must be a boolean' }).optional(),
  ratePerMinute: pgInt('ratePerMinute').nullish(),
  monthlyQuestionLimit: pgInt('monthlyQuestionLimit').nullish(),
}).strict();
export type CreateClientKeyInput = z.input<typeof CreateClientKeySchema>;

export const MonthQuerySchema = z.object({ month: MonthSchema.optional() });

const MONTHS_MESSAGE = 'months must be a whole number from 1 to 24';
export const PaymentsQuerySchema = z.object({
  months: z
    .union([z.string(), z.number()], { error: MONTHS_MESSAGE })
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : /^\d+$/.test(v) ? Number(v) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > 24) {
        ctx.addIssue({ code: 'custom', message: MONTHS_MESSAGE });
        return z.NEVER;
      }
      return n;
    })
    .optional()
    .describe('1 to 24, default 6'),
});

/** `PUT /partner/clients/:id/payments/:month`. */
export const SetPaymentSchema = z.object({
  paid: z.boolean({ error: 'paid is required and must be a boolean' }),
  amountCents: amount('amountCents').nullish(),
}).strict();
export type SetPaymentInput = z.input<typeof SetPaymentSchema>;

// ---- answers ----

export const ClientRatesSchema = z.object({
  ratePer100Cents: z.number().int().nullable(),
  seatRateCents: z.number().int().nullable(),
  includedQuestionsPerSeat: z.number().int().nullable(),
});

export const ACKNOWLEDGEMENTS = ['no_admin', 'invited', 'accepted'] as const;

export const ClientDtoSchema = z.object({
  id: z.string().describe("The client workspace's id"),
  name: z.string(),
  seats: z.number().int(),
  suspended: z.boolean(),
  sandbox: z.boolean().describe('A test client of a sandbox integrator: never charged'),
  adminEmail: z.string().nullable(),
  acknowledgement: z.enum(ACKNOWLEDGEMENTS).describe("The invited manager's state: none invited, invited, or accepted (signed up)"),
  rates: ClientRatesSchema,
  usage: z.object({ month: z.string(), questions: z.number().int(), controls: z.number().int() }).describe('This calendar month (UTC)'),
  createdAt: z.string(),
});
export type ClientDto = z.infer<typeof ClientDtoSchema>;

export const ClientKeyDtoSchema = ApiKeyDtoSchema;

const DayRowSchema = z.object({ date: z.string(), questions: z.number().int(), answers: z.number().int(), controls: z.number().int() });

export const ClientUsageSchema = z.object({
  clientId: z.string(),
  month: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  questions: z.number().int(),
  answers: z.number().int(),
  controls: z.number().int(),
  byDay: z.array(DayRowSchema),
});
export type ClientUsage = z.infer<typeof ClientUsageSchema>;

export const StatementSchema = z.object({
  clientId: z.string(),
  clientName: z.string(),
  month: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  currency: z.literal('EUR'),
  usage: z.object({ questions: z.number().int(), answers: z.number().int(), controls: z.number().int() }),
  rates: ClientRatesSchema.extend({ seats: z.number().int() }),
  resale: z.object({
    seatCents: z.number().int(),
    includedQuestions: z.number().int(),
    billableQuestions: z.number().int(),
    questionCents: z.number().int(),
    totalCents: z.number().int(),
  }),
  controls: z.object({ count: z.number().int(), priceCents: z.number().int() }).describe('Controls are listed, never priced'),
  wholesaleCents: z.number().int(),
  marginCents: z.number().int().describe('resale.totalCents - wholesaleCents (negative when reselling below wholesale)'),
});
export type Statement = z.infer<typeof StatementSchema>;

export const PaymentDtoSchema = z.object({
  month: z.string(),
  paid: z.boolean(),
  amountCents: z.number().int().nullable(),
  dueCents: z.number().int().describe("The month's resale total (the statement's resale.totalCents)"),
  updatedAt: z.string().nullable(),
});
export type PaymentDto = z.infer<typeof PaymentDtoSchema>;

export const GridTierSchema = z.object({ upToQuestions: z.number().int().nullable(), centsPer100: z.number().int() });

export const WholesaleSchema = z.object({
  month: z.string(),
  currency: z.literal('EUR'),
  grid: z.array(GridTierSchema),
  clients: z.array(
    z.object({ clientId: z.string(), clientName: z.string(), questions: z.number().int(), controls: z.number().int(), wholesaleCents: z.number().int() }),
  ),
  totalCents: z.number().int(),
});
export type Wholesale = z.infer<typeof WholesaleSchema>;

export const InvoiceDtoSchema = z.object({
  id: z.string(),
  month: z.string(),
  status: z.enum(INVOICE_STATUSES),
  sandbox: z.boolean(),
  amountCents: z.number().int(),
  currency: z.string(),
  lines: z.array(
    z.object({ clientId: z.string(), clientName: z.string(), questions: z.number().int(), controls: z.number().int(), wholesaleCents: z.number().int() }),
  ),
  createdAt: z.string(),
  issuedAt: z.string().nullable(),
  dueAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  overdue: z.boolean().describe('Open and past its due date plus the grace period: the clients\' keys get 403 provider_unpaid'),
});
export type InvoiceDto = z.infer<typeof InvoiceDtoSchema>;

export const PartnerStatusSchema = z.object({
  workspaceId: z.string(),
  mode: z.enum(['sandbox', 'live']),
  graceDays: z.number().int(),
  clients: z.number().int(),
  overdue: z.boolean().describe('An open invoice is past its due date plus the grace period'),
  overdueInvoiceId: z.string().nullable(),
  unpaidAfter: z.string().nullable().describe("When the clients' keys fail (or failed) with provider_unpaid; null when nothing is open"),
  autoDebit: z.boolean(),
  paymentsConfigured: z.boolean(),
});
export type PartnerStatus = z.infer<typeof PartnerStatusSchema>;

export const CheckoutSchema = z.object({ url: z.string(), sessionId: z.string() });

export const AutoDebitSchema = z.object({
  active: z.boolean(),
  pending: z.boolean().describe('A setup was started and not confirmed yet'),
  since: z.string().nullable(),
});
export type AutoDebitDto = z.infer<typeof AutoDebitSchema>;

export const DeviceDtoSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  status: z.enum(['pending', 'paired', 'unpaired']),
  createdAt: z.string(),
  pairedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
});
export type DeviceDto = z.infer<typeof DeviceDtoSchema>;

export const DeviceCodeRequestSchema = z.object({
  name: z.string({ error: 'name must be a string' }).trim().max(200, 'name must be at most 200 characters').nullish(),
});
export const DeviceConfirmSchema = z.object({
  userCode: z.string({ error: 'userCode is required' }).trim().min(1, 'userCode is required').max(16, 'userCode is at most 16 characters'),
});
export const DeviceTokenSchema = z.object({
  deviceCode: z.string({ error: 'deviceCode is required' }).min(1, 'deviceCode is required').max(200, 'deviceCode is at most 200 characters'),
});

export type ApiKeyDtoWithSecret = z.infer<typeof ClientKeyDtoSchema> & { secret: string };
