/** The partner module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { confirmAutoDebit, handleProviderEvent, removeAutoDebit, setupAutoDebit } from './auto-debit.service.js';
export { confirmDevice, deviceToken, listDevices, requestDeviceCode, unpairDevice } from './devices.service.js';
export { confirmInvoice, listInvoices, payInvoice } from './invoices.service.js';
export { startPartner } from './month-end.js';
export { AutoDebitSchema, CheckoutSchema, ClientDtoSchema, ClientKeyDtoSchema, ClientUsageSchema, CreateClientKeySchema, CreateClientSchema, DeviceCodeRequestSchema, DeviceConfirmSchema, DeviceDtoSchema, DeviceTokenSchema, InvoiceDtoSchema, MonthQuerySchema, PartnerStatusSchema, PaymentDtoSchema, PaymentsQuerySchema, SetPaymentSchema, StatementSchema, UpdateClientSchema, WholesaleSchema } from './partner.schemas.js';
export { createClient, createClientKey, getStatus, listClientKeys, listClients, programJson, revokeClientKey, setPartner, updateClient } from './partner.service.js';
export { createPartnerRuntime } from './runtime.js';
export { getClientUsage, getStatement, getWholesale, listPayments, setPayment, usageCsv } from './statements.service.js';
