/** The verify module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { Verifier } from './engine.js';
export { createReportWrites, type ReportWrites } from './report-writes.js';
export { createVerifyRuntime } from './runtime.js';
export { writeReportPdf } from './verify.pdf.js';
export { ClaimSchema, CountsSchema, ExportQuerySchema, ReportListQuerySchema, ReportListSchema, ReportSchema, VerifyInputSchema } from './verify.schemas.js';
export { verifyText } from './verify.service.js';
export { exportReportOp, getReportCertificateOp, getReportOp, listReportsOp, verifyTextOp } from './operations.js';
