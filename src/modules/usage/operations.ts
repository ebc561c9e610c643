import { z } from 'zod';
import { defineOperation } from '../../core/operation.js';
import { getUsageReport, getVerifyUsage, listKeyNotifications } from './usage.service.js';

// Reading usage (issue 29 §1): rest/v1/verify-usage.routes.ts and usage.graphql.ts refer to these; the
// request pipeline admits the caller with their needs. The console's usage screens need no capability
// scope: a signed-in person or an unrestricted key (docs/people.md, role matrix).
const CONSOLE_READ = { scope: null } as const;

/** Controls (verifier reports) of the workspace in the current calendar month: the verifier's scope. */
export const verifyUsageOp = defineOperation({
  name: 'usage.controls',
  route: 'GET /v1/verify/usage',
  needs: { scope: 'proof' },
  input: z.object({}),
  run: (ctx) => getVerifyUsage(ctx),
});

/** The allowance window starting in `month` (YYYY-MM, parsed by the service; default the current one). */
export const usageReportOp = defineOperation({
  name: 'usage.report',
  needs: CONSOLE_READ,
  input: z.object({ month: z.unknown() }),
  run: (ctx, { month }) => getUsageReport(ctx, { month }),
});

export const listKeyNotificationsOp = defineOperation({
  name: 'usage.keyNotifications',
  needs: CONSOLE_READ,
  input: z.object({ month: z.unknown() }),
  run: (ctx, { month }) => listKeyNotifications(ctx, { month }),
});
