import { builder } from '../../graphql/builder.js';
import { inputFromZod, objectFromZod } from '../../graphql/from-zod.js';
import { plainInput } from '../../graphql/plain-input.js';
import { operationField } from '../../graphql/root-fields.js';
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
import {
  clientUsageOp,
  confirmAutoDebitOp,
  confirmDeviceOp,
  confirmInvoiceOp,
  createClientKeyOp,
  createClientOp,
  getAutoDebitOp,
  getStatusOp,
  listClientKeysOp,
  listClientsOp,
  listDevicesOp,
  listInvoicesOp,
  listPaymentsOp,
  payInvoiceOp,
  removeAutoDebitOp,
  revokeClientKeyOp,
  setPaymentOp,
  setupAutoDebitOp,
  statementOp,
  unpairDeviceOp,
  updateClientOp,
  wholesaleOp,
} from './operations.js';

/**
 * The partner (integrator) API for the console: the same operations as `/partner/*` (operations.ts),
 * scope `partner` (a signed-in person must be an admin).
 */

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
    extensions: operationField(getStatusOp),
    resolve: async (_r, _a, ctx) => getStatusOp.run(await ctx.service(), {}),
  }),
  partnerClients: t.field({
    type: [ClientRef],
    description: "Client workspaces with this month's usage, rates and acknowledgement (GET /partner/clients).",
    extensions: operationField(listClientsOp),
    resolve: async (_r, _a, ctx) => listClientsOp.run(await ctx.service(), {}),
  }),
  partnerClientKeys: t.field({
    type: [ClientKeyRef],
    extensions: operationField(listClientKeysOp),
    args: { clientId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => listClientKeysOp.run(await ctx.service(), { id: String(args.clientId) }),
  }),
  partnerClientUsage: t.field({
    type: UsageRef,
    extensions: operationField(clientUsageOp),
    args: { clientId: t.arg.id({ required: true }), month: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => clientUsageOp.run(await ctx.service(), { id: String(args.clientId), query: { month: args.month ?? undefined } }),
  }),
  partnerStatement: t.field({
    type: StatementRef,
    description: 'Usage, controls, resale, wholesale and margin of a month, in integer cents (GET /partner/clients/:id/statement).',
    extensions: operationField(statementOp),
    args: { clientId: t.arg.id({ required: true }), month: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => statementOp.run(await ctx.service(), { id: String(args.clientId), query: { month: args.month ?? undefined } }),
  }),
  partnerPayments: t.field({
    type: [PaymentRef],
    extensions: operationField(listPaymentsOp),
    args: { clientId: t.arg.id({ required: true }), months: t.arg.int({ required: false }) },
    resolve: async (_r, args, ctx) => listPaymentsOp.run(await ctx.service(), { id: String(args.clientId), query: { months: args.months ?? undefined } }),
  }),
  partnerWholesale: t.field({
    type: WholesaleRef,
    extensions: operationField(wholesaleOp),
    args: { month: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => wholesaleOp.run(await ctx.service(), { query: { month: args.month ?? undefined } }),
  }),
  partnerInvoices: t.field({
    type: [InvoiceRef],
    extensions: operationField(listInvoicesOp),
    resolve: async (_r, _a, ctx) => listInvoicesOp.run(await ctx.service(), {}),
  }),
  partnerAutoDebit: t.field({
    type: AutoDebitRef,
    extensions: operationField(getAutoDebitOp),
    resolve: async (_r, _a, ctx) => getAutoDebitOp.run(await ctx.service(), {}),
  }),
  partnerDevices: t.field({
    type: [DeviceRef],
    extensions: operationField(listDevicesOp),
    resolve: async (_r, _a, ctx) => listDevicesOp.run(await ctx.service(), {}),
  }),
}));

builder.mutationFields((t) => ({
  createPartnerClient: t.field({
    type: ClientRef,
    description: 'Creates a client; with adminEmail its manager is invited as administrator (POST /partner/clients).',
    extensions: operationField(createClientOp),
    args: { input: t.arg({ type: CreateClientInput, required: true }) },
    resolve: async (_r, args, ctx) => createClientOp.run(await ctx.service(), { body: plainInput(args.input), linkBase: linkBase(ctx) }),
  }),
  updatePartnerClient: t.field({
    type: ClientRef,
    extensions: operationField(updateClientOp),
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateClientInput, required: true }) },
    resolve: async (_r, args, ctx) => updateClientOp.run(await ctx.service(), { id: String(args.id), body: plainInput(args.input) }),
  }),
  createPartnerClientKey: t.field({
    type: CreatedKeyRef,
    extensions: operationField(createClientKeyOp),
    args: { clientId: t.arg.id({ required: true }), input: t.arg({ type: CreateClientKeyInput, required: true }) },
    resolve: async (_r, args, ctx) => createClientKeyOp.run(await ctx.service(), { id: String(args.clientId), body: plainInput(args.input) }),
  }),
  revokePartnerClientKey: t.boolean({
    extensions: operationField(revokeClientKeyOp),
    args: { clientId: t.arg.id({ required: true }), keyId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => revokeClientKeyOp.run(await ctx.service(), { id: String(args.clientId), keyId: String(args.keyId) }),
  }),
  setPartnerPayment: t.field({
    type: PaymentRef,
    extensions: operationField(setPaymentOp),
    args: { clientId: t.arg.id({ required: true }), month: t.arg.string({ required: true }), input: t.arg({ type: SetPaymentInput, required: true }) },
    resolve: async (_r, args, ctx) => setPaymentOp.run(await ctx.service(), { id: String(args.clientId), month: args.month, body: plainInput(args.input) }),
  }),
  payPartnerInvoice: t.field({
    type: CheckoutRef,
    extensions: operationField(payInvoiceOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => payInvoiceOp.run(await ctx.service(), { id: String(args.id), linkBase: linkBase(ctx) }),
  }),
  confirmPartnerInvoice: t.field({
    type: InvoiceRef,
    extensions: operationField(confirmInvoiceOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => confirmInvoiceOp.run(await ctx.service(), { id: String(args.id) }),
  }),
  setupPartnerAutoDebit: t.field({
    type: CheckoutRef,
    extensions: operationField(setupAutoDebitOp),
    resolve: async (_r, _a, ctx) => setupAutoDebitOp.run(await ctx.service(), { linkBase: linkBase(ctx) }),
  }),
  confirmPartnerAutoDebit: t.field({
    type: AutoDebitRef,
    extensions: operationField(confirmAutoDebitOp),
    resolve: async (_r, _a, ctx) => confirmAutoDebitOp.run(await ctx.service(), {}),
  }),
  removePartnerAutoDebit: t.boolean({
    extensions: operationField(removeAutoDebitOp),
    resolve: async (_r, _a, ctx) => removeAutoDebitOp.run(await ctx.service(), {}),
  }),
  confirmPartnerDevice: t.field({
    type: DeviceRef,
    extensions: operationField(confirmDeviceOp),
    args: { userCode: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => confirmDeviceOp.run(await ctx.service(), { body: { userCode: args.userCode } }),
  }),
  unpairPartnerDevice: t.boolean({
    extensions: operationField(unpairDeviceOp),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => unpairDeviceOp.run(await ctx.service(), { id: String(args.id) }),
  }),
}));
