import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { CertificateSchema } from '../../src/modules/proofs/index.js';
import { writeReportPdf } from '../../src/modules/verify/index.js';
import { ExportQuerySchema, ReportListQuerySchema, ReportListSchema, ReportSchema, VerifyInputSchema } from '../../src/modules/verify/index.js';
import { exportReportOp, getReportCertificateOp, getReportOp, listReportsOp, verifyTextOp } from '../../src/modules/verify/index.js';
import { mountOperation, param } from '../route.js';

const ReportReply = z.object({ report: ReportSchema });

/** The verifier (SPEC Route inventory; scope `proof`). Mounted after `verifyUsageRouter`, so `/v1/verify/usage` is not an id. */
export function verifyRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'verify' } as const;

  mountOperation(r, app, verifyTextOp, {
    ...base,
    summary: 'Check each claim of a text against passages or knowledge collections (no model); one control',
    body: VerifyInputSchema,
    responses: {
      201: { description: 'The report, with its certificate id', schema: ReportReply },
      400: { description: 'text_required, invalid_passages, ambiguous_scope, or a field named (passages, collectionIds: Collection not found)' },
      413: { description: 'text_too_large' },
    },
    input: (req) => ({ body: req.body }),
    reply: (report) => ({ status: 201, body: { report } }),
  });

  mountOperation(r, app, listReportsOp, {
    ...base,
    summary: `Reports of the workspace, newest first. Query: limit (1 to 100, default 20), cursor (the previous page's nextCursor, opaque); pages stay stable while new reports arrive`,
    query: ReportListQuerySchema,
    responses: { 200: { description: 'A page of reports', schema: ReportListSchema }, 400: { description: 'limit or cursor not valid (named)' } },
    input: (req) => ({ query: { limit: req.query.limit, cursor: req.query.cursor } }),
    reply: (page) => ({ status: 200, body: page }),
  });

  mountOperation(r, app, getReportOp, {
    ...base,
    summary: 'One report',
    responses: { 200: { description: 'The report', schema: ReportReply }, 404: { description: 'Unknown id or another workspace' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (report) => ({ status: 200, body: { report } }),
  });

  mountOperation(r, app, getReportCertificateOp, {
    ...base,
    summary: "The report's certificate: signed (Ed25519) and hash-chained in the workspace's proof chain; verify with GET /v1/gateway/public-key",
    responses: { 200: { description: 'The certificate', schema: z.object({ certificate: CertificateSchema }) }, 404: { description: 'Unknown report' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (certificate) => ({ status: 200, body: { certificate } }),
  });

  mountOperation(r, app, exportReportOp, {
    ...base,
    summary: 'The report as a PDF (text with each claim marked, evidence quoted, certificate hash and signature); ?format=json for the machine form',
    query: ExportQuerySchema,
    responses: {
      200: { description: 'application/pdf, or JSON { report, certificate } with ?format=json' },
      400: { description: 'format not pdf or json' },
      404: { description: 'Unknown report' },
    },
    handler: async (_ctx, req, res, run) => {
      const { format } = ExportQuerySchema.parse({ format: req.query.format });
      const exported = await run({ id: param(req, 'id') });
      if (format === 'json') return { status: 200, body: exported };
      res.status(200);
      res.setHeader('content-type', 'application/pdf');
      res.setHeader('content-disposition', `attachment; filename="verifier-report-${exported.report.id}.pdf"`);
      await writeReportPdf(exported.report, exported.certificate, res);
    },
  });

  return r;
}
