import { defineEntity, p } from '@mikro-orm/core';

/** A workspace in the partner program (an integrator): made by the CLI `workspace set-partner`. */
const PartnerProgramSchema = defineEntity({
  name: 'PartnerProgram',
  tableName: 'partner_program',
  properties: {
    workspaceId: p.string().primary(),
    /** Test clients and a test payment mode: never charged (docs/partner.md, Sandbox). */
    sandbox: p.boolean(),
    /** Days after an invoice's due date before its clients' keys get 403 provider_unpaid. */
    graceDays: p.integer(),
    stripeCustomerId: p.text().nullable(),
    /** The provider's setup session of a pending automatic debit. */
    autoDebitSessionId: p.text().nullable(),
    /** The payment method saved by a confirmed automatic debit; null when none. */
    autoDebitPaymentMethod: p.text().nullable(),
    autoDebitSince: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export class PartnerProgram extends PartnerProgramSchema.class {}
PartnerProgramSchema.setClass(PartnerProgram);

/** A client workspace of an integrator, with its resale rates (euro cents, questions). */
const PartnerClientSchema = defineEntity({
  name: 'PartnerClient',
  tableName: 'partner_client',
  properties: {
    workspaceId: p.string().primary(),
    partnerId: p.string(),
    /** The client workspace's user the integrator's client keys act for (no e-mail, no sign-in). */
    serviceUserId: p.string(),
    /** The client's manager invited as administrator, when `adminEmail` was given. */
    adminUserId: p.string().nullable(),
    ratePer100Cents: p.integer().nullable().fieldName('rate_per100_cents'),
    seatRateCents: p.integer().nullable(),
    includedQuestionsPerSeat: p.integer().nullable(),
    sandbox: p.boolean(),
    createdAt: p.datetime(),
  },
});
export class PartnerClient extends PartnerClientSchema.class {}
PartnerClientSchema.setClass(PartnerClient);

/** What a client paid its integrator for a month, as the integrator records it. */
const PartnerPaymentSchema = defineEntity({
  name: 'PartnerPayment',
  tableName: 'partner_payment',
  properties: {
    clientId: p.string().primary(),
    month: p.string().primary(),
    partnerId: p.string(),
    paid: p.boolean(),
    amountCents: p.integer().nullable(),
    updatedAt: p.datetime(),
  },
});
export class PartnerPayment extends PartnerPaymentSchema.class {}
PartnerPaymentSchema.setClass(PartnerPayment);

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface InvoiceLine {
  clientId: string;
  clientName: string;
  questions: number;
  controls: number;
  wholesaleCents: number;
}

/** The integrator's monthly invoice of wholesale amounts, made by the month-end job. */
const PartnerInvoiceSchema = defineEntity({
  name: 'PartnerInvoice',
  tableName: 'partner_invoice',
  properties: {
    id: p.string().primary(),
    partnerId: p.string(),
    month: p.string(),
    status: p.string().$type<InvoiceStatus>(),
    sandbox: p.boolean(),
    amountCents: p.integer(),
    currency: p.string(),
    lines: p.json<InvoiceLine[]>(),
    createdAt: p.datetime(),
    issuedAt: p.datetime().nullable(),
    dueAt: p.datetime().nullable(),
    paidAt: p.datetime().nullable(),
    checkoutSessionId: p.text().nullable(),
    paymentIntentId: p.text().nullable(),
  },
});
export class PartnerInvoice extends PartnerInvoiceSchema.class {}
PartnerInvoiceSchema.setClass(PartnerInvoice);

export type DeviceStatus = 'pending' | 'paired' | 'unpaired';

/** An install paired with an integrator through a device code (docs/partner.md, Devices). */
const PartnerDeviceSchema = defineEntity({
  name: 'PartnerDevice',
  tableName: 'partner_device',
  properties: {
    id: p.string().primary(),
    partnerId: p.string().nullable(),
    name: p.text().nullable(),
    deviceCodeHash: p.string(),
    userCode: p.string(),
    status: p.string().$type<DeviceStatus>(),
    keyId: p.string().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    pairedAt: p.datetime().nullable(),
    lastSeenAt: p.datetime().nullable(),
  },
});
export class PartnerDevice extends PartnerDeviceSchema.class {}
PartnerDeviceSchema.setClass(PartnerDevice);

export const partnerEntities = [PartnerProgram, PartnerClient, PartnerPayment, PartnerInvoice, PartnerDevice];
