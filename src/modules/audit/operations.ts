import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { listAudit } from './audit.service.js';

/**
 * The audit log (issue 29 §1): `GET /v1/audit` and the GraphQL `auditLog` field expose this operation;
 * admins and unrestricted keys only. The query is parsed by the service (each bad parameter named).
 */
export const listAuditOp = defineOperation({
  name: 'audit.list',
  route: 'GET /v1/audit',
  needs: { scope: null, role: 'admin' },
  input: z.object({ query: z.unknown() }),
  run: (ctx, { query }) => listAudit(ctx, query),
});
