/**
 * The independent labelled set of issue 26 through the real service, figures by kind (docs/quality.md).
 *
 *   npx tsx bench/quality.ts              the tuning half (the only one rules are tuned on)
 *   npx tsx bench/quality.ts --held-out   the held-out half: run once, by the coordinator, at the end
 *   npx tsx bench/quality.ts --set NAME   any folder of test/fixtures/quality/ (tuning-2, held-out-3, ...)
 *   npx tsx bench/quality.ts --held-out-2 the second held-out set (test/fixtures/quality/held-out-2): the same
 *   JSON=1 prints every outcome as one JSON line at the end; FAILURES=1 lists the wrong ones; LIGHT_ONLY=1
 *   runs the light questions only (no claims, no recall); RECALL_ONLY=1 the recall of the knowledge search only
 *   (no claims, no light questions), with FAILURES=1 listing each question found with and not without
 *   synonyms or the reverse, and each found by neither. ONLY=id1,id2 runs those questions and claims alone.
 *
 * One process: the app on a throwaway database (DATABASE_URL, else the local PostgreSQL server, else the
 * embedded database), the half's documents uploaded over HTTP and ingested, then what
 * bench/support/quality-set.ts describes: every claim through POST /v1/verify, every question through
 * POST /light/ask on the built-in model, and recall@5 of POST /v1/knowledge/query, once with the search's
 * synonym and language handling and once without (a second app with SVC_SEARCH_SYNONYMS=off).
 */
import type { AddressInfo } from 'node:net';
import { createApp, listen } from '../src/app/create-app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { runPendingIngestion } from '../src/modules/knowledge/ingestion.worker.js';
import { createWorkspace } from '../src/modules/provisioning/provisioning.service.js';
import { createTestDatabase } from '../test/support/database.js';
import {
  CLAIM_KINDS,
  kindsOf,
  lightFigures,
  loadHalf,
  QUESTION_KINDS,
  recallFigure,
  runClaims,
  runQuestions,
  runRecall,
  uploadHalf,
  verifierFigures,
  type Half,
} from './support/quality-set.js';

// `--set NAME` scores any folder of test/fixtures/quality/ (tuning-2, held-out-3, ...).
const setArg = process.argv.indexOf('--set');
const half: Half =
  setArg > 0 && process.argv[setArg + 1]
    ? process.argv[setArg + 1]!
    : process.argv.includes('--held-out-2')
      ? 'held-out-2'
      : process.argv.includes('--held-out')
        ? 'held-out'
        : 'tuning';
const loaded = loadHalf(half);
// ONLY=id1,id2 asks those questions and checks those claims alone (the documents are all uploaded).
const only = process.env.ONLY ? new Set(process.env.ONLY.split(',').map((s) => s.trim())) : null;
const set = only ? { ...loaded, questions: loaded.questions.filter((q) => only.has(q.id)), claims: loaded.claims.filter((c) => only.has(c.id)) } : loaded;

async function withApp<T>(env: Record<string, string>, fn: (c: { baseUrl: string; key: string }) => Promise<T>): Promise<T> {
  const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, dataDir: 'memory://', drop: async () => {} } : await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SVC_BACKGROUND_JOBS: 'off',
    SVC_DEPLOYMENT: 'onprem',
    SVC_DATA_DIR: db.dataDir,
    SVC_RATE_UPLOAD: '1000000',
    SVC_RATE_VERIFY: '1000000',
    SVC_RATE_KNOWLEDGE_QUERY: '1000000',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...(process.env.SVC_LIGHT_MIN_COVERAGE ? { SVC_LIGHT_MIN_COVERAGE: process.env.SVC_LIGHT_MIN_COVERAGE } : {}),
    ...(process.env.SVC_LIGHT_MAX_MISSING ? { SVC_LIGHT_MAX_MISSING: process.env.SVC_LIGHT_MAX_MISSING } : {}),
    ...env,
  });
  const app = await createApp({ config, log: createLogger('silent') });
  const server = await listen(app.http, 0, '127.0.0.1');
  try {
    const { issued } = await createWorkspace({ em: app.services.orm.em.fork(), clock: app.services.clock }, { name: `quality ${half}`, plan: 'cabinet', seats: 100 });
    const c = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: issued.secret };
    await uploadHalf(c, set);
    await runPendingIngestion(app.services);
    return await fn(c);
  } finally {
    server.closeAllConnections();
    server.close();
    await app.close();
    await db.drop();
  }
}

const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
const dec = (x: number | null) => (x === null ? '–' : x.toFixed(3));

const started = performance.now();
const lightOnly = Boolean(process.env.LIGHT_ONLY);
const recallOnly = Boolean(process.env.RECALL_ONLY);
const { claims, questions, recallWith } = await withApp({}, async (c) => ({
  claims: lightOnly || recallOnly ? [] : await runClaims(c, set),
  questions: recallOnly ? [] : await runQuestions(c, set),
  recallWith: lightOnly ? new Map<string, boolean>() : await runRecall(c, set),
}));
const recallWithout = lightOnly ? new Map<string, boolean>() : await withApp({ SVC_SEARCH_SYNONYMS: 'off' }, (c) => runRecall(c, set));

console.log(`\n${half} half: ${set.documents.length} documents, ${set.claims.length} claims, ${set.questions.length} questions (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
console.log('Verifier (each claim against its documents)\n');
console.log('| Claims | n | accuracy | supported precision | contradicted precision | predicted S / C / U |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const kind of ['all', ...kindsOf(set.claims, CLAIM_KINDS)]) {
  const f = verifierFigures(claims.filter((o) => kind === 'all' || o.claim.kind === kind));
  console.log(`| ${kind} | ${f.n} | ${pct(f.accuracy)} | ${dec(f.supportedPrecision)} | ${dec(f.contradictedPrecision)} | ${f.predicted.supported} / ${f.predicted.contradicted} / ${f.predicted.unverifiable} |`);
}

console.log('\nLight (built-in model, default threshold) and recall@5 of the knowledge search\n');
console.log('| Questions | answerable | answerable answered | unanswerable | unanswerable refused | right fact of answered | recall@5 with synonyms | recall@5 without |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const kind of ['all', ...kindsOf(set.questions, QUESTION_KINDS)]) {
  const qs = questions.filter((o) => kind === 'all' || o.question.kind === kind);
  const f = lightFigures(qs);
  const ids = new Set(set.questions.filter((q) => kind === 'all' || q.kind === kind).map((q) => q.id));
  console.log(
    `| ${kind} | ${f.answerable} | ${pct(f.answered)} | ${f.unanswerable} | ${pct(f.refused)} | ${pct(f.rightFact)} | ${pct(recallFigure(recallWith, ids))} | ${pct(recallFigure(recallWithout, ids))} |`,
  );
}

if (process.env.FAILURES) {
  console.log('\nWrong verdicts:');
  for (const o of claims.filter((x) => x.got !== x.claim.label)) {
    console.log(`- ${o.claim.id} [${o.claim.kind}] ${o.claim.label} -> ${o.got} (${o.rule}): ${o.claim.claim}\n    evidence: ${o.evidence ?? '-'}`);
  }
  console.log('\nLight mistakes:');
  for (const o of questions) {
    const wrong = o.question.answerable ? o.refused || !o.rightFact : !o.refused;
    if (!wrong) continue;
    const what = o.question.answerable ? (o.refused ? `refused (${o.reason})` : 'wrong fact') : 'answered';
    console.log(`- ${o.question.id} [${o.question.kind}] ${what}: ${o.question.question}\n    facts: ${JSON.stringify(o.question.facts)}\n    answer: ${o.answer.slice(0, 300)}`);
  }
  console.log('\nRecall@5 misses (with synonyms / without):');
  for (const q of set.questions.filter((x) => x.answerable)) {
    const w = recallWith.get(q.id);
    const wo = recallWithout.get(q.id);
    if (w === undefined || (w && wo)) continue;
    console.log(`- ${q.id} [${q.kind}] ${w ? 'found' : 'missed'} / ${wo ? 'found' : 'missed'}: ${q.question}\n    facts: ${JSON.stringify(q.facts)}`);
  }
}
if (process.env.JSON) {
  console.log(
    JSON.stringify({
      half,
      claims: claims.map((o) => ({ id: o.claim.id, kind: o.claim.kind, label: o.claim.label, got: o.got, rule: o.rule })),
      questions: questions.map((o) => ({ id: o.question.id, kind: o.question.kind, answerable: o.question.answerable, refused: o.refused, reason: o.reason, rightFact: o.rightFact })),
      recall: [...recallWith].map(([id, found]) => ({ id, with: found, without: recallWithout.get(id) })),
    }),
  );
}
