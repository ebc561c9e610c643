import { Router } from 'express';
import type { Deps } from '../../src/core/deps.js';
import { AuditPageSchema, AuditQuerySchema, listAuditOp } from '../../src/modules/audit/index.js';
import { mountOperation } from '../route.js';

/** The workspace's audit log (docs/operations.md, "Audit log"): admins and unrestricted keys. */
export function auditRouter(app: Deps): Router {
  const r = Router();
  mountOperation(r, app, listAuditOp, {
    tag: 'audit',
    summary:
      "The workspace's audit log, newest first: keys created, changed, revoked; people invited, role changed, disabled; sign-ins and failed sign-ins; webhooks created, changed, secret rotated, deleted; flows allowed unattended outbound; suspension. Each entry: who (key, person or system), what, when, from which address, the request id; never a secret. Query: action (comma-separated), from, to (YYYY-MM-DD or ISO instant), limit (1 to 100, default 50), cursor (opaque). Unrestricted keys only (a restricted key gets 403 scope_denied)",
    query: AuditQuerySchema,
    responses: {
      200: { description: 'A page of entries', schema: AuditPageSchema },
      400: { description: 'A query parameter not valid (named)' },
    },
    input: (req) => ({ query: req.query }),
    reply: (page) => ({ status: 200, body: page }),
  });
  return r;
}
