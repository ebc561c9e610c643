import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { verifyUsageOp } from '../../src/modules/usage/index.js';
import { mountOperation } from '../route.js';

/** Mounted before the verifier's `/v1/verify/:id` routes so that `usage` is not read as an id. */
export function verifyUsageRouter(app: Deps): Router {
  const r = Router();
  mountOperation(r, app, verifyUsageOp, {
    summary: 'Controls (verifier reports) of the workspace in the current calendar month (UTC)',
    tag: 'verify',
    responses: {
      200: { description: 'Controls this month', schema: z.object({ month: z.string(), controls: z.number().int() }) },
      403: { description: 'scope_denied', schema: z.object({ error: z.string(), code: z.string().optional() }) },
    },
    input: () => ({}),
    reply: (usage) => ({ status: 200, body: usage }),
  });
  return r;
}
