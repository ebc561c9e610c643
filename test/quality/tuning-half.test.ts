import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPendingIngestion } from '../../src/modules/knowledge/ingestion.worker.js';
import {
  lightFigures,
  loadHalf,
  recallFigure,
  runClaims,
  runQuestions,
  runRecall,
  uploadHalf,
  verifierFigures,
} from '../../bench/support/quality-set.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The tuning half of the independent labelled set (test/fixtures/quality/tuning/, issue 26) through the
 * real service, as bench/quality.ts scores it: every claim through POST /v1/verify, every question through
 * POST /light/ask on the built-in model, recall@5 of POST /v1/knowledge/query. Each floor is 5 points under
 * the figure of docs/quality.md, so a change that lowers quality fails here. The held-out half is never read.
 */
const FLOORS = {
  // Fourth round of issue 26 (graded support): 73.9 % with both precisions at 1.000 (third round 60.9 %); tuning-2 and
  // tuning-3 have their floors in test/quality/tuning-sets.test.ts.
  // Seventh round (paraphrase and negation): 75.0 %, both precisions 1.000.
  // Eighth round (support recall): 79.3 %, both precisions 1.000.
  // Eighth round, with the contradiction work (units, currencies, subjects left to the document): 80.4 %, both precisions 1.000.
  // Eighth round (multi-word paraphrase: phrasal and support verbs, coverage bar 0.55 / 0.70): 81.5 %, both precisions 1.000.
  // Twelfth and thirteenth rounds (structure: contradictions and support by predicate), main a0e5b31: 84.8 %, both
  // precisions 1.000.
  verifierAccuracy: 0.79,
  supportedPrecision: 0.95,
  contradictedPrecision: 0.95,
  // Light after the sixth round's retrieval: 95.8 % answered, 91.7 % refused, 84.8 % right fact (fourth round 91.7, 91.7,
  // 88.6; docs/quality.md).
  // Seventh round (cross-lingual glossary, records read as fields): 95.8 % answered, 91.7 % refused, 91.3 % right fact.
  // Eighth round (prose: French heads): 95.8 % answered, 91.7 % refused, 93.5 % right fact.
  answerableAnswered: 0.9,
  unanswerableRefused: 0.86,
  rightFact: 0.88,
  // recall@5 with synonyms, sixth round (retrieval): 97.9 % (85.4 % before it).
  recallAt5: 0.92,
};

const set = loadHalf('tuning');
let t: TestApp;
let client: { baseUrl: string; key: string };

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_RATE_UPLOAD: '100000', SVC_RATE_VERIFY: '100000', SVC_RATE_KNOWLEDGE_QUERY: '100000' } });
  const tenant = await t.tenant({ plan: 'cabinet', seats: 100 });
  client = { baseUrl: t.baseUrl, key: tenant.key };
  await uploadHalf(client, set);
  await runPendingIngestion(t.app.services);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the tuning half of the labelled set (docs/quality.md)', () => {
  it('verifier: accuracy, supported and contradicted precision stay above their floors', async () => {
    const f = verifierFigures(await runClaims(client, set));
    expect(f.n).toBe(set.claims.length);
    expect(f.accuracy).toBeGreaterThanOrEqual(FLOORS.verifierAccuracy);
    expect(f.supportedPrecision ?? 1).toBeGreaterThanOrEqual(FLOORS.supportedPrecision);
    expect(f.contradictedPrecision ?? 1).toBeGreaterThanOrEqual(FLOORS.contradictedPrecision);
  }, 120_000);

  it('light: answerable answered, unanswerable refused and the right fact stay above their floors', async () => {
    const f = lightFigures(await runQuestions(client, set));
    expect(f.answered).toBeGreaterThanOrEqual(FLOORS.answerableAnswered);
    expect(f.refused).toBeGreaterThanOrEqual(FLOORS.unanswerableRefused);
    expect(f.rightFact).toBeGreaterThanOrEqual(FLOORS.rightFact);
  }, 120_000);

  it('knowledge search: recall@5 with synonym and language handling stays above its floor', async () => {
    expect(recallFigure(await runRecall(client, set))).toBeGreaterThanOrEqual(FLOORS.recallAt5);
  }, 120_000);
});
