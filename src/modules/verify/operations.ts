import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { getReport, getReportCertificate, getReportExport, listReports, verifyText } from './verify.service.js';

// The verifier's use cases (issue 29 §1): rest/v1/verify.routes.ts, verify.graphql.ts and the MCP tool
// service_verify refer to these; the request pipeline admits the caller with their needs (scope proof;
// a check is a write with its own ceiling). Bodies and queries are parsed by the service.
const READ = { scope: 'proof' } as const;
const ById = z.object({ id: z.string() });

export const verifyTextOp = defineOperation({
  name: 'verify.text',
  route: 'POST /v1/verify',
  needs: { scope: 'proof', write: true, rateLimit: 'verify' },
  input: z.object({ body: z.unknown() }),
  run: (ctx, { body }) => verifyText(ctx, body),
});

export const listReportsOp = defineOperation({
  name: 'verify.list',
  route: 'GET /v1/verify',
  needs: READ,
  input: z.object({ query: z.unknown() }),
  run: (ctx, { query }) => listReports(ctx, query),
});

export const getReportOp = defineOperation({
  name: 'verify.get',
  route: 'GET /v1/verify/:id',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => getReport(ctx, id),
});

export const getReportCertificateOp = defineOperation({
  name: 'verify.certificate',
  route: 'GET /v1/verify/:id/certificate',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => getReportCertificate(ctx, id),
});

/** The report with its certificate; the route renders it as a PDF, or as JSON. */
export const exportReportOp = defineOperation({
  name: 'verify.export',
  route: 'GET /v1/verify/:id/export',
  needs: READ,
  input: ById,
  run: (ctx, { id }) => getReportExport(ctx, id),
});
