import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { confirmAutoDebit, getAutoDebit, removeAutoDebit, setupAutoDebit } from './auto-debit.service.js';
import { confirmDevice, listDevices, unpairDevice } from './devices.service.js';
import { confirmInvoice, listInvoices, payInvoice } from './invoices.service.js';
import { createClient, createClientKey, getStatus, listClientKeys, listClients, revokeClientKey, updateClient } from './partner.service.js';
import { getClientUsage, getStatement, getWholesale, listPayments, setPayment, usageCsv } from './statements.service.js';

// The partner (integrator) family's use cases (issue 29 §1, docs/partner.md): the /partner/* routes
// (rest/partner/*.routes.ts) and partner.graphql.ts refer to these; the request pipeline admits the caller
// with their needs (scope partner; a signed-in person must be an admin: docs/people.md). That the
// workspace is an integrator (403 partner_required) is the services' own check. The public device
// pairing and the payment provider's webhook are no operations of a caller: they stay public routes.
const READ = { scope: 'partner' } as const;
const WRITE = { scope: 'partner', write: true } as const;

const ByClient = z.object({ id: z.string() });
/** A query (`month`, `months`) as received: the service parses it (each bad parameter named). */
const ByClientWithQuery = ByClient.extend({ query: z.unknown() });
/** Where links in mails and the provider's return pages point (SVC_PUBLIC_URL, else the request's origin). */
const LinkBase = z.object({ linkBase: z.string() });
const done = true as const;

// ---- the program, clients and their keys ----

export const getStatusOp = defineOperation({
  name: 'partner.status',
  route: 'GET /partner/status',
  needs: READ,
  input: z.object({}),
  run: (ctx) => getStatus(ctx),
});

export const listClientsOp = defineOperation({
  name: 'partner.clients',
  route: 'GET /partner/clients',
  needs: READ,
  input: z.object({}),
  run: (ctx) => listClients(ctx),
});

export const createClientOp = defineOperation({
  name: 'partner.createClient',
  route: 'POST /partner/clients',
  needs: WRITE,
  input: LinkBase.extend({ body: z.unknown() }),
  run: (ctx, { body, linkBase }) => createClient(ctx, body, linkBase),
});

export const updateClientOp = defineOperation({
  name: 'partner.updateClient',
  route: 'PATCH /partner/clients/:id',
  needs: WRITE,
  input: ByClient.extend({ body: z.unknown() }),
  run: (ctx, { id, body }) => updateClient(ctx, id, body),
});

export const createClientKeyOp = defineOperation({
  name: 'partner.createClientKey',
  route: 'POST /partner/clients/:id/keys',
  needs: WRITE,
  input: ByClient.extend({ body: z.unknown() }),
  run: (ctx, { id, body }) => createClientKey(ctx, id, body),
});

export const listClientKeysOp = defineOperation({
  name: 'partner.clientKeys',
  route: 'GET /partner/clients/:id/keys',
  needs: READ,
  input: ByClient,
  run: (ctx, { id }) => listClientKeys(ctx, id),
});

export const revokeClientKeyOp = defineOperation({
  name: 'partner.revokeClientKey',
  route: 'DELETE /partner/clients/:id/keys/:keyId',
  needs: WRITE,
  input: ByClient.extend({ keyId: z.string() }),
  run: async (ctx, { id, keyId }) => {
    await revokeClientKey(ctx, id, keyId);
    return done;
  },
});

// ---- usage, statements, the payments ledger, the wholesale amounts ----

export const clientUsageOp = defineOperation({
  name: 'partner.clientUsage',
  route: 'GET /partner/clients/:id/usage',
  needs: READ,
  input: ByClientWithQuery,
  run: (ctx, { id, query }) => getClientUsage(ctx, id, query),
});

export const statementOp = defineOperation({
  name: 'partner.statement',
  route: 'GET /partner/clients/:id/statement',
  needs: READ,
  input: ByClientWithQuery,
  run: (ctx, { id, query }) => getStatement(ctx, id, query),
});

export const listPaymentsOp = defineOperation({
  name: 'partner.payments',
  route: 'GET /partner/clients/:id/payments',
  needs: READ,
  input: ByClientWithQuery,
  run: (ctx, { id, query }) => listPayments(ctx, id, query),
});

export const setPaymentOp = defineOperation({
  name: 'partner.setPayment',
  route: 'PUT /partner/clients/:id/payments/:month',
  needs: WRITE,
  input: ByClient.extend({ month: z.string(), body: z.unknown() }),
  run: (ctx, { id, month, body }) => setPayment(ctx, id, month, body),
});

/** One line per client for a month: the route sends it as a CSV file. */
export const usageCsvOp = defineOperation({
  name: 'partner.usageCsv',
  route: 'GET /partner/usage.csv',
  needs: READ,
  input: z.object({ query: z.unknown() }),
  run: (ctx, { query }) => usageCsv(ctx, query),
});

export const wholesaleOp = defineOperation({
  name: 'partner.wholesale',
  route: 'GET /partner/wholesale',
  needs: READ,
  input: z.object({ query: z.unknown() }),
  run: (ctx, { query }) => getWholesale(ctx, query),
});

// ---- invoices and automatic debit ----

export const listInvoicesOp = defineOperation({
  name: 'partner.invoices',
  route: 'GET /partner/invoices',
  needs: READ,
  input: z.object({}),
  run: (ctx) => listInvoices(ctx),
});

export const payInvoiceOp = defineOperation({
  name: 'partner.payInvoice',
  route: 'POST /partner/invoices/:id/pay',
  needs: WRITE,
  input: LinkBase.extend({ id: z.string() }),
  run: (ctx, { id, linkBase }) => payInvoice(ctx, id, linkBase),
});

/** Checks the payment with the provider and marks the invoice paid: a write, though REST reaches it by GET (the provider's return page). */
export const confirmInvoiceOp = defineOperation({
  name: 'partner.confirmInvoice',
  route: 'GET /partner/invoices/:id/confirm',
  needs: WRITE,
  input: z.object({ id: z.string() }),
  run: (ctx, { id }) => confirmInvoice(ctx, id),
});

/** The automatic debit as it stands (the console's; REST shows it in GET /partner/status). */
export const getAutoDebitOp = defineOperation({
  name: 'partner.autoDebit',
  needs: READ,
  input: z.object({}),
  run: (ctx) => getAutoDebit(ctx),
});

export const setupAutoDebitOp = defineOperation({
  name: 'partner.setupAutoDebit',
  route: 'POST /partner/auto-debit',
  needs: WRITE,
  input: LinkBase,
  run: (ctx, { linkBase }) => setupAutoDebit(ctx, linkBase),
});

/** Checks the setup with the provider and saves the payment method: a write, reached by GET on REST (the provider's return page). */
export const confirmAutoDebitOp = defineOperation({
  name: 'partner.confirmAutoDebit',
  route: 'GET /partner/auto-debit/confirm',
  needs: WRITE,
  input: z.object({}),
  run: (ctx) => confirmAutoDebit(ctx),
});

export const removeAutoDebitOp = defineOperation({
  name: 'partner.removeAutoDebit',
  route: 'DELETE /partner/auto-debit',
  needs: WRITE,
  input: z.object({}),
  run: async (ctx) => {
    await removeAutoDebit(ctx);
    return done;
  },
});

// ---- paired installs (the pairing itself is public: the install has a code, not a key) ----

export const confirmDeviceOp = defineOperation({
  name: 'partner.confirmDevice',
  route: 'POST /partner/devices/confirm',
  needs: WRITE,
  input: z.object({ body: z.unknown() }),
  run: (ctx, { body }) => confirmDevice(ctx, body),
});

export const listDevicesOp = defineOperation({
  name: 'partner.devices',
  route: 'GET /partner/devices',
  needs: READ,
  input: z.object({}),
  run: (ctx) => listDevices(ctx),
});

export const unpairDeviceOp = defineOperation({
  name: 'partner.unpairDevice',
  route: 'DELETE /partner/devices/:id',
  needs: WRITE,
  input: z.object({ id: z.string() }),
  run: async (ctx, { id }) => {
    await unpairDevice(ctx, id);
    return done;
  },
});
