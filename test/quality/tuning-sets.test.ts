import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPendingIngestion } from '../../src/modules/knowledge/ingestion.worker.js';
import { lightFigures, loadHalf, recallFigure, runClaims, runQuestions, runRecall, uploadHalf, verifierFigures } from '../../bench/support/quality-set.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The verifier on the further tuning sets of issue 26 (test/fixtures/quality/tuning-2/, tuning-3/ and tuning-4/, written by
 * other hands, blind to the rules), through the real service as bench/quality.ts scores them: every claim through
 * POST /v1/verify against its own documents. Each floor is 5 points under the figure of docs/quality.md ("Sixth round: support",
 * "Sixth round: contradictions", "Fifth round: precision"), so a change that helps one set and lowers another fails here. Light's floors on these sets (every question
 * through POST /light/ask on the built-in model, each set in its own workspace) are 5 points under light's fourth
 * round (docs/quality.md); test/quality/tuning-half.test.ts holds both on the tuning half. The held-out sets are never read.
 */
const FLOORS: Record<string, { accuracy: number; supportedPrecision: number; contradictedPrecision: number }> = {
  // Sixth round (support, with the contradiction work landed beside it): tuning-2 48.9 %, supported 1.000, contradicted 1.000;
  // tuning-3 45.7 %, 1.000, 1.000; tuning-4 57.6 %, 1.000, 1.000 (fifth round 42.4 / 41.3 / 45.7 %).
  // Sixth round (contradictions), main 5b8016d: tuning-2 50.0 %, 1.000, 1.000.
  // Seventh round (paraphrase and negation): tuning-2 54.3 %, tuning-3 51.1 %, tuning-4 58.7 %, all precisions 1.000.
  // Seventh round, both (paraphrase and negation, document structure) on main: tuning-2 62.0 %, tuning-3 55.4 %, tuning-4 59.8 %.
  // Eighth round (support recall): tuning-2 64.1 % (contradicted 0.950), tuning-3 57.6 %, tuning-4 60.9 %, other precisions 1.000.
  // Eighth round, with the contradiction work: tuning-2 67.4 %, tuning-3 64.1 %, tuning-4 60.9 %.
  // Ninth round (vrecall, the same fact in other forms): tuning-3 65.2 %, others unchanged.
  // Eighth round (multi-word paraphrase): tuning-4 62.0 %, tuning half 81.5 %.
  // Tenth round (vrecall2, fields and units): tuning-4 63.0 %, others unchanged, precisions 1.000.
  // Twelfth and thirteenth rounds (structure: contradictions and support by predicate), main a0e5b31: tuning-2 71.7 %,
  // tuning-3 67.4 %, tuning-4 63.0 %, all precisions 1.000.
  'tuning-2': { accuracy: 0.66, supportedPrecision: 0.95, contradictedPrecision: 0.95 },
  'tuning-3': { accuracy: 0.62, supportedPrecision: 0.95, contradictedPrecision: 0.95 },
  'tuning-4': { accuracy: 0.58, supportedPrecision: 0.95, contradictedPrecision: 0.95 },
};

/**
 * Light's fifth round (precision: a name of several words as one run; an interest or VAT rate asks a percentage):
 * tuning-2 62.5 % answered, 80.6 % refused, 70.0 % right fact (fourth round 64.6, 75.0, 67.7); tuning-3 66.7 %, 75.0 %,
 * 62.5 % (68.8, 75.0, 60.6); tuning-4 68.8 %, 83.3 %, 84.8 % (75.0 % refused at first sight). The answers given up were
 * wrong facts. Sixth round (answers: a rate's period, the asked phrase ending at including/excluding, French heads, the
 * built-in model's length normalisation), with the sixth round's refusal rules on main: tuning-3 70.8 % answered,
 * 73.5 % right fact; tuning-4 70.8 %, 88.2 %. Sixth round (refusal: the head after a possessive, the value now or a
 * former one, a noun narrowing the head, a thing named by a letter): refused tuning-2 88.9 %, tuning-3 83.3 %,
 * tuning-4 94.4 %.
 */
const LIGHT_FLOORS: Record<string, { answered: number; refused: number; rightFact: number }> = {
  // Sixth round (retrieval): tuning-2 64.6 % answered, 88.9 % refused, 77.4 % right fact.
  // Seventh round (cross-lingual glossary, records read as fields, names): tuning-2 72.9 / 88.9 / 88.6 %, tuning-3 77.1 /
  // 83.3 / 75.7 %, tuning-4 77.1 / 94.4 / 91.9 % (docs/quality.md).
  // Eighth round (tables, a document's head): tuning-2 75.0 / 88.9 / 88.9 %.
  // Ninth round (lanswer: names with a function word inside, sole codes, record tables): tuning-2 77.1 / 88.9 / 86.5 %.
  // Twelfth and thirteenth rounds (light's gate by the question's frame, English and French; a value's own phrase),
  // main a0e5b31: tuning-2 81.3 / 88.9 / 89.7 %, tuning-3 85.4 / 83.3 / 85.4 %, tuning-4 89.6 / 94.4 / 93.0 %.
  'tuning-2': { answered: 0.76, refused: 0.83, rightFact: 0.84 },
  // Eighth round (prose: French heads, the built-in model's answering sentence): tuning-3 79.2 / 83.3 / 78.9 %, tuning-4
  // 81.3 / 94.4 / 92.3 %; with the tables round: tuning-3 79.2 / 83.3 / 81.6 %.
  'tuning-3': { answered: 0.8, refused: 0.78, rightFact: 0.8 },
  'tuning-4': { answered: 0.84, refused: 0.89, rightFact: 0.88 },
};

/**
 * recall@5 of POST /v1/knowledge/query with the synonym and language handling, sixth round (retrieval: the candidates
 * reordered by the query words each covers, names counted for their whole document): tuning-2 89.6 %, tuning-3 97.9 %,
 * tuning-4 97.9 % (75.0, 91.7 and 95.8 % before it).
 */
// Thirteenth round (main a0e5b31): tuning-2 95.8 %, tuning-3 97.9 %, tuning-4 100.0 %.
const RECALL_FLOORS: Record<string, number> = { 'tuning-2': 0.9, 'tuning-3': 0.92, 'tuning-4': 0.95 };

let t: TestApp;
let client: { baseUrl: string; key: string };

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_RATE_VERIFY: '100000', SVC_RATE_UPLOAD: '100000', SVC_RATE_KNOWLEDGE_QUERY: '100000' } });
  const tenant = await t.tenant({ plan: 'cabinet', seats: 100 });
  client = { baseUrl: t.baseUrl, key: tenant.key };
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the verifier on the further tuning sets (docs/quality.md)', () => {
  for (const [name, floor] of Object.entries(FLOORS)) {
    it(`${name}: accuracy, supported and contradicted precision stay above their floors`, async () => {
      const set = loadHalf(name);
      const f = verifierFigures(await runClaims(client, set));
      expect(f.n).toBe(set.claims.length);
      expect(f.accuracy).toBeGreaterThanOrEqual(floor.accuracy);
      expect(f.supportedPrecision ?? 1).toBeGreaterThanOrEqual(floor.supportedPrecision);
      expect(f.contradictedPrecision ?? 1).toBeGreaterThanOrEqual(floor.contradictedPrecision);
    }, 90_000);
  }
});

describe('light on the further tuning sets (docs/quality.md)', () => {
  for (const [name, floor] of Object.entries(LIGHT_FLOORS)) {
    it(`${name}: answerable answered, unanswerable refused, the right fact and recall@5 stay above their floors`, async () => {
      const set = loadHalf(name);
      const tenant = await t.tenant({ plan: 'cabinet', seats: 100 });
      const own = { baseUrl: t.baseUrl, key: tenant.key };
      await uploadHalf(own, set);
      await runPendingIngestion(t.app.services);
      const f = lightFigures(await runQuestions(own, set));
      expect(f.answered).toBeGreaterThanOrEqual(floor.answered);
      expect(f.refused).toBeGreaterThanOrEqual(floor.refused);
      expect(f.rightFact).toBeGreaterThanOrEqual(floor.rightFact);
      expect(recallFigure(await runRecall(own, set))).toBeGreaterThanOrEqual(RECALL_FLOORS[name]!);
    }, 120_000);
  }
});
