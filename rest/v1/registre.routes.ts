import { Router } from 'express';
import type { Deps } from '../../src/core/deps.js';
import { RegisterPageSchema, RegisterQuerySchema, RegisterSummarySchema } from '../../src/modules/registre/index.js';
import { exportRegisterOp, listRegisterOp, registerSummaryOp } from '../../src/modules/registre/index.js';
import { mountOperation } from '../route.js';

const PLAN = { description: 'PLAN_UPGRADE_REQUIRED (feature proofJournal, requiredPlan cabinet) or SUBSCRIPTION_INACTIVE' };

/** The register of proofs (SPEC Route inventory; scope `proof`, plan feature proofJournal). */
export function registreRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'registre' } as const;

  mountOperation(r, app, listRegisterOp, {
    ...base,
    summary:
      'Every certificate of the workspace (gateway calls, chat turns, verifier reports), newest first. Query: kind (gateway, chat, verify; comma-separated), from, to (YYYY-MM-DD or ISO instant), keyId (API key), limit (1 to 100, default 50), cursor (opaque)',
    query: RegisterQuerySchema,
    responses: { 200: { description: 'A page of certificates', schema: RegisterPageSchema }, 400: { description: 'A query parameter not valid (named)' }, 402: PLAN },
    input: (req) => ({ query: req.query }),
    reply: (page) => ({ status: 200, body: page }),
  });

  mountOperation(r, app, registerSummaryOp, {
    ...base,
    summary: 'Counts by month and kind, and the proof chain checked end to end (length, first and last hash, first broken link)',
    responses: { 200: { description: 'The summary', schema: RegisterSummarySchema }, 402: PLAN },
    input: () => ({}),
    reply: (summary) => ({ status: 200, body: summary }),
  });

  mountOperation(r, app, exportRegisterOp, {
    ...base,
    summary:
      'Signed archive (tar.gz, streamed): certificates.jsonl, manifest.json (count, first and last hash, SHA-256 of each file) with manifest.sig (Ed25519), the public keys, VERIFY.md (offline verification with node:crypto or openssl)',
    responses: { 200: { description: 'application/gzip' }, 402: PLAN },
    handler: async (_ctx, _req, res, run) => {
      const archive = await run({});
      res.status(200);
      res.setHeader('content-type', 'application/gzip');
      res.setHeader('content-disposition', `attachment; filename="${archive.filename}"`);
      await archive.writeTo(res);
    },
  });

  return r;
}
