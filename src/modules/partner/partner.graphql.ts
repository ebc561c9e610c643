import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationNeeds } from '../../graphql/root-fields.js';
import { confirmAutoDebit, getAutoDebit, removeAutoDebit, setupAutoDebit } from './auto-debit.service.js';
import { confirmDevice, listDevices, unpairDevice } from './devices.service.js';
import { confirmInvoice, listInvoices, payInvoice } from './invoices.service.js';
import {
  AutoDebitSchema,
  CheckoutSchema,
  ClientDtoSchema,
  ClientKeyDtoSchema,
  ClientUsageSchema,
  CreateClientKeySchema,
  CreateClientSchema,
  DeviceDtoSchema,
  InvoiceDtoSchema,
  PartnerStatusSchema,
  PaymentDtoSchema,
  SetPaymentSchema,
  StatementSchema,
  UpdateClientSchema,
  WholesaleSchema,
  type ApiKeyDtoWithSecret,
} from './partner.schemas.js';
import { createClient, createClientKey, getStatus, listClientKeys, listClients, revokeClientKey, updateClient } from './partner.service.js';
import { getClientUsage, getStatement, getWholesale, listPayments, setPayment } from './statements.service.js';

/**
 * The partner (integrator) API for the console: the same service functions as `/partner/*`, scope
 * `partner` (a signed-in person must be an admin), each root field twinned to its REST route.
 */
const read = (twin: string) => operationNeeds({ scope: 'partner', twin });
const write = (twin: string) => operationNeeds({ scope: 'partner', write: true, twin });

const StatusRef = objectFromZod('PartnerStatus', PartnerStatusSchema, { names: { mode: 'PartnerMode' } });
const ClientRef = objectFromZod('PartnerClient', ClientDtoSchema, {
  names: { rates: 'PartnerClientRates', usage: 'PartnerClientMonthUsage', acknowledgement: 'PartnerAcknowledgement' },
});
const ClientKeyRef = objectFromZod('PartnerClientKey', ClientKeyDtoSchema, { description: "A key of a client workspace (never its secret)." });
const UsageRef = objectFromZod('PartnerClientUsage', ClientUsageSchema, { names: { byDay: 'PartnerUsageDay' } });
const StatementRef = objectFromZod('PartnerStatement', StatementSchema, {
  types: { currency: 'String' },
  names: { usage: 'PartnerStatementUsage', rates: 'PartnerStatementRates', resale: 'PartnerResale', controls: 'PartnerStatementControls' },
});
const PaymentRef = objectFromZod('PartnerPayment', PaymentDtoSchema);
const WholesaleRef = objectFromZod('PartnerWholesale', WholesaleSchema, {
  types: { currency: 'String' },
  names: { grid: 'PartnerGridTier', clients: 'PartnerWholesaleClient' },
});
const InvoiceRef = objectFromZod('PartnerInvoice', InvoiceDtoSchema, { names: { status: 'PartnerInvoiceStatus', lines: 'PartnerInvoiceLine' } });
const CheckoutRef = objectFromZod('PartnerCheckout', CheckoutSchema, { description: "The provider's hosted page to send the payer to." });
const AutoDebitRef = objectFromZod('PartnerAutoDebit', AutoDebitSchema);
const DeviceRef = objectFromZod('PartnerDevice', DeviceDtoSchema, { names: { status: 'PartnerDeviceStatus' } });

const CreatedKeyRef = builder.objectRef<ApiKeyDtoWithSecret>('CreatedPartnerClientKey').implement({
  fields: (t) => ({
    key: t.field({ type: ClientKeyRef, resolve: ({ secret: _secret, ...key }) => key }),
    secret: t.exposeString('secret', { description: 'Shown once, never readable again.' }),
  }),
});

const CreateClientInput = inputFromZod('CreatePartnerClientInput', CreateClientSchema);
const UpdateClientInput = inputFromZod('UpdatePartnerClientInput', UpdateClientSchema);
const CreateClientKeyInput = inputFromZod('CreatePartnerClientKeyInput', CreateClientKeySchema);
const SetPaymentInput = inputFromZod('SetPartnerPaymentInput', SetPaymentSchema);

/** Where links in mails and the provider's return pages point: SVC_PUBLIC_URL, else the request's origin. */
const linkBase = (ctx: { app: { config: { publicUrl?: string } }; origin: string }) =>
  ctx.app.config.publicUrl ? new URL(ctx.app.config.publicUrl).origin : ctx.origin;

builder.queryFields((t) => ({
  partnerStatus: t.field({
    type: StatusRef,
    description: 'The program state (GET /partner/status).',
    extensions: read('GET /partner/status'),
    resolve: async (_r, _a, ctx) => getStatus(await ctx.service()),
  }),
  partnerClients: t.field({
    type: [ClientRef],
    description: "Client workspaces with this month's usage, rates and acknowledgement (GET /partner/clients).",
    extensions: read('GET /partner/clients'),
    resolve: async (_r, _a, ctx) => listClients(await ctx.service()),
  }),
  partnerClientKeys: t.field({
    type: [ClientKeyRef],
    extensions: read('GET /partner/clients/:id/keys'),
    args: { clientId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => listClientKeys(await ctx.service(), String(args.clientId)),
  }),
  partnerClientUsage: t.field({
    type: UsageRef,
    extensions: read('GET /partner/clients/:id/usage'),
    args: { clientId: t.arg.id({ required: true }), month: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => getClientUsage(await ctx.service(), String(args.clientId), { month: args.month ?? undefined }),
  }),
  partnerStatement: t.field({
    type: StatementRef,
    description: 'Usage, controls, resale, wholesale and margin of a month, in integer cents (GET /partner/clients/:id/statement).',
    extensions: read('GET /partner/clients/:id/statement'),
    args: { clientId: t.arg.id({ required: true }), month: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => getStatement(await ctx.service(), String(args.clientId), { month: args.month ?? undefined }),
  }),
  partnerPayments: t.field({
    type: [PaymentRef],
    extensions: read('GET /partner/clients/:id/payments'),
    args: { clientId: t.arg.id({ required: true }), months: t.arg.int({ required: false }) },
    resolve: async (_r, args, ctx) => listPayments(await ctx.service(), String(args.clientId), { months: args.months ?? undefined }),
  }),
  partnerWholesale: t.field({
    type: WholesaleRef,
    extensions: read('GET /partner/wholesale'),
    args: { month: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => getWholesale(await ctx.service(), { month: args.month ?? undefined }),
  }),
  partnerInvoices: t.field({
    type: [InvoiceRef],
    extensions: read('GET /partner/invoices'),
    resolve: async (_r, _a, ctx) => listInvoices(await ctx.service()),
  }),
  partnerAutoDebit: t.field({
    type: AutoDebitRef,
    extensions: read('GET /partner/status'),
    resolve: async (_r, _a, ctx) => getAutoDebit(await ctx.service()),
  }),
  partnerDevices: t.field({
    type: [DeviceRef],
    extensions: read('GET /partner/devices'),
    resolve: async (_r, _a, ctx) => listDevices(await ctx.service()),
  }),
}));

builder.mutationFields((t) => ({
  createPartnerClient: t.field({
    type: ClientRef,
    description: 'Creates a client; with adminEmail its manager is invited as administrator (POST /partner/clients).',
    extensions: write('POST /partner/clients'),
    args: { input: t.arg({ type: CreateClientInput, required: true }) },
    resolve: async (_r, args, ctx) => createClient(await ctx.service(), plainInput(args.input), linkBase(ctx)),
  }),
  updatePartnerClient: t.field({
    type: ClientRef,
    extensions: write('PATCH /partner/clients/:id'),
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateClientInput, required: true }) },
    resolve: async (_r, args, ctx) => updateClient(await ctx.service(), String(args.id), plainInput(args.input)),
  }),
  createPartnerClientKey: t.field({
    type: CreatedKeyRef,
    extensions: write('POST /partner/clients/:id/keys'),
    args: { clientId: t.arg.id({ required: true }), input: t.arg({ type: CreateClientKeyInput, required: true }) },
    resolve: async (_r, args, ctx) => createClientKey(await ctx.service(), String(args.clientId), plainInput(args.input)),
  }),
  revokePartnerClientKey: t.boolean({
    extensions: write('DELETE /partner/clients/:id/keys/:keyId'),
    args: { clientId: t.arg.id({ required: true }), keyId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await revokeClientKey(await ctx.service(), String(args.clientId), String(args.keyId));
      return true;
    },
  }),
  setPartnerPayment: t.field({
    type: PaymentRef,
    extensions: write('PUT /partner/clients/:id/payments/:month'),
    args: { clientId: t.arg.id({ required: true }), month: t.arg.string({ required: true }), input: t.arg({ type: SetPaymentInput, required: true }) },
    resolve: async (_r, args, ctx) => setPayment(await ctx.service(), String(args.clientId), args.month, plainInput(args.input)),
  }),
  payPartnerInvoice: t.field({
    type: CheckoutRef,
    extensions: write('POST /partner/invoices/:id/pay'),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => payInvoice(await ctx.service(), String(args.id), linkBase(ctx)),
  }),
  confirmPartnerInvoice: t.field({
    type: InvoiceRef,
    extensions: write('GET /partner/invoices/:id/confirm'),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => confirmInvoice(await ctx.service(), String(args.id)),
  }),
  setupPartnerAutoDebit: t.field({
    type: CheckoutRef,
    extensions: write('POST /partner/auto-debit'),
    resolve: async (_r, _a, ctx) => setupAutoDebit(await ctx.service(), linkBase(ctx)),
  }),
  confirmPartnerAutoDebit: t.field({
    type: AutoDebitRef,
    extensions: write('GET /partner/auto-debit/confirm'),
    resolve: async (_r, _a, ctx) => confirmAutoDebit(await ctx.service()),
  }),
  removePartnerAutoDebit: t.boolean({
    extensions: write('DELETE /partner/auto-debit'),
    resolve: async (_r, _a, ctx) => {
      await removeAutoDebit(await ctx.service());
      return true;
    },
  }),
  confirmPartnerDevice: t.field({
    type: DeviceRef,
    extensions: write('POST /partner/devices/confirm'),
    args: { userCode: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => confirmDevice(await ctx.service(), { userCode: args.userCode }),
  }),
  unpairPartnerDevice: t.boolean({
    extensions: write('DELETE /partner/devices/:id'),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await unpairDevice(await ctx.service(), String(args.id));
      return true;
    },
  }),
}));
