/**
 * A verifier report's writes alone (docs/performance.md, "Verifier speed, eleventh pass"): bench/verify.ts's report
 * (613 claims, 230 kB of JSON, the 67 kB text) written ROUNDS times each way, alternated A B B A in one process:
 *   A. as before the eleventh pass: the certificate through the proof chain (its commit), a read of its time, then the
 *      report and the control in a transaction of their own (BEGIN, two inserts, COMMIT);
 *   B. `app.reportWrites`: the certificate, the report and the control in one statement and one commit.
 * Prints each way's wall p50 and mean (ms) and the load average.
 *
 *   ROUNDS=20 npx tsx bench/verify-writes.ts
 */
import { loadavg } from 'node:os';
import { createApp } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/core/context.js';
import { sqlInTransaction } from '../src/db/sql.js';
import { createLogger } from '../src/lib/logger.js';
import { newId } from '../src/lib/ids.js';
import { authenticateSecret, issueKey } from '../src/modules/keys/keys.service.js';
import { issueProof, pendingProof, ProofCertificate } from '../src/modules/proofs/index.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { recordControl } from '../src/modules/usage/index.js';
import { Verifier } from '../src/modules/verify/engine.js';
import { createTestDatabase } from '../test/support/database.js';
import { verifyInput } from './support/verify-input.js';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const db = await createTestDatabase();
const config = loadConfig({ LOG_LEVEL: 'silent', SVC_BACKGROUND_JOBS: 'off', SVC_DATA_DIR: db.dataDir, ...(db.url ? { DATABASE_URL: db.url } : {}) });
const app = await createApp({ config, log: createLogger('silent') });
try {
  const s = app.services;
  const actx = () => ({ em: s.orm.em.fork(), clock: s.clock });
  const { workspace, user } = await createWorkspace(actx(), { name: 'bench', plan: 'cabinet', seats: 10 });
  const { secret } = await issueKey(actx(), { workspaceId: workspace.id, userId: user.id }, {});
  const ctx = createContext(s, await authenticateSecret(s.orm.em.fork(), s.clock, secret));
  const { text, passages } = verifyInput(10_000, 200);
  const v = new Verifier(text);
  await v.addPassages(passages);
  const claims = JSON.stringify(await v.verify(text));
  const proofInput = (i: number) => ({ route: 'POST /v1/verify', modelAddress: 'verifier', model: 'svc-verifier/rules-1', requestHash: 'a'.repeat(64), answer: `report ${i}`, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } });
  const row = (id: string, certificateId: string) => ({
    id, workspaceId: workspace.id, keyId: ctx.caller.limits.meter, userId: user.id, language: 'en', text, against: 'passages' as const,
    collectionIds: null, passageCount: 200, claims, supported: 1, contradicted: 1, unverifiable: 1, certificateId,
  });
  let n = 0;
  const before = async () => {
    const id = newId('vrf');
    const { id: certificateId } = await issueProof(ctx, proofInput(n++));
    const { createdAt } = await ctx.em.fork().findOneOrFail(ProofCertificate, { id: certificateId }, { fields: ['createdAt'] });
    await ctx.em.fork().transactional(async (tx) => {
      const r = row(id, certificateId);
      await sqlInTransaction(
        tx,
        `insert into verify_report (id, workspace_id, key_id, user_id, language, text, against, collection_ids, passage_count, claims,
                                    supported, contradicted, unverifiable, certificate_id, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [r.id, r.workspaceId, r.keyId, r.userId, r.language, r.text, r.against, r.collectionIds, r.passageCount, r.claims, r.supported, r.contradicted, r.unverifiable, r.certificateId, createdAt],
      );
      await recordControl(ctx, tx, { route: 'POST /v1/verify', at: createdAt });
    });
  };
  const after = async () => {
    const proof = pendingProof(ctx, proofInput(n++));
    await s.reportWrites.submit(workspace.id, { proof, report: row(newId('vrf'), proof.id), control: { workspaceId: workspace.id, keyId: ctx.caller.limits.meter, userId: user.id, route: 'POST /v1/verify' } });
  };
  const ms: Record<'A' | 'B', number[]> = { A: [], B: [] };
  const timed = async (k: 'A' | 'B') => {
    const t = performance.now();
    await (k === 'A' ? before() : after());
    ms[k].push(performance.now() - t);
  };
  await before();
  await after();
  const load = loadavg()[0]!.toFixed(1);
  for (let i = 0; i < ROUNDS; i++) for (const k of ['A', 'B', 'B', 'A'] as const) await timed(k);
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const out = (k: 'A' | 'B') => ({ p50: +p50(ms[k]).toFixed(1), mean: +mean(ms[k]).toFixed(1), n: ms[k].length });
  console.log(JSON.stringify({ before: out('A'), after: out('B'), ratio: +(p50(ms.B) / p50(ms.A)).toFixed(2), load: [load, loadavg()[0]!.toFixed(1)] }));
} finally {
  await app.close();
  await db.drop();
}
