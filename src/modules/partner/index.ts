/** The partner module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { handleProviderEvent } from './auto-debit.service.js';
export { deviceToken, requestDeviceCode } from './devices.service.js';
export { startPartner } from './month-end.js';
export { AutoDebitSchema, CheckoutSchema, ClientDtoSchema, ClientKeyDtoSchema, ClientUsageSchema, CreateClientKeySchema, CreateClientSchema, DeviceCodeRequestSchema, DeviceConfirmSchema, DeviceDtoSchema, DeviceTokenSchema, InvoiceDtoSchema, MonthQuerySchema, PartnerStatusSchema, PaymentDtoSchema, PaymentsQuerySchema, SetPaymentSchema, StatementSchema, UpdateClientSchema, WholesaleSchema } from './partner.schemas.js';
export { programJson, setPartner } from './partner.service.js';
export { createPartnerRuntime } from './runtime.js';
export {
  clientUsageOp,
  confirmAutoDebitOp,
  confirmDeviceOp,
  confirmInvoiceOp,
  createClientKeyOp,
  createClientOp,
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
  usageCsvOp,
  wholesaleOp,
} from './operations.js';
