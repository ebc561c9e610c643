import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerTypeOf } from '../../src/lib/language/answer-type.js';
import { askedOf, headFields, monthsSpannedOf, sentencesWithContext } from '../../src/lib/language/asked.js';
import { specificTermsOf } from '../../src/lib/language/entities.js';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';
import { api } from '../support/api.js';
import { startTestApp, type TestApp, type TestTenant } from '../support/app.js';
import { ingest } from '../support/knowledge.js';

/** Eighth round of issue 26 (docs/quality.md): tables read as facts `header: value`, and a document's head counted for its rows. */
const ask = (question: string, material: TurnMaterial) => answerLocally({ messages: [{ role: 'user', content: question }], material }).content;
const passage = (text: string, extra: { sourceName?: string; section?: string; document?: string } = {}) => ({
  text,
  section: extra.section ?? '',
  sourceName: extra.sourceName ?? 'price-list.md',
  sourceId: 'src_1',
  ...(extra.document ? { document: extra.document } : {}),
});

const CARDS = 'Card type | Attached to | Monthly limit | Permitted products\nVehicle card | A specific registration number | £650 | Diesel, AdBlue\nDriver card | A named driver | £400 | Diesel';

describe('tables: the header row', () => {
  it("table header: the header row is its rows' context, never a sentence of its own (it names columns, states no value)", () => {
    const sentences = sentencesWithContext({ text: CARDS }).map((s) => s.sentence);
    expect(sentences).not.toContain('Card type | Attached to | Monthly limit | Permitted products');
    expect(sentences[0]).toMatch(/^Vehicle card/);
    expect(sentencesWithContext({ text: CARDS })[0]!.context.header).toMatch(/^Card type/);
  });

  it('table header: the built-in model answers with a row, not with the header row that shares the most words', () => {
    const answer = ask('What is the monthly limit of a fuel card?', { passages: [{ ref: 1, sourceName: 'fuel-card-policy.md', text: CARDS }] });
    expect(answer).toMatch(/^(?:Vehicle|Driver) card \|/);
  });
});

describe('tables: a row is a fact header: value', () => {
  const PRICES = 'Code | Test | Turnaround | Price (CHF)\nW-145 | Legionella | 10 working days | 160.00\nW-158 | PFAS (24 compounds) | 12 working days | 540.00';

  it("table row, money: a bare figure under a price column is an amount of money (the header says the currency)", () => {
    expect(answers(passage(PRICES, { section: 'Water analysis' }), gateOf('What is the price of the PFAS water test?'))).toBe(true);
    // Without a column saying money, the bare figures are no price.
    const noPrice = 'Code | Test | Turnaround | Samples\nW-158 | PFAS (24 compounds) | 12 working days | 540';
    expect(answers(passage(noPrice, { section: 'Water analysis' }), gateOf('What is the price of the PFAS water test?'))).toBe(false);
  });

  it('table row, money: the type is the cell\'s own (a header\'s "Boiler 1" is no figure of a row)', () => {
    const readings = 'Reading | Boiler 1 (£) | Boiler 2 (£)\nInspection | done | done';
    expect(answers(passage(readings), gateOf('How much did the inspection cost?'))).toBe(false);
  });

});

describe("a document's head counted for its rows", () => {
  const UNITS = 'Unit | Crop | Acres | Coverage level\n0001 | Winter wheat | 640 | 75%\n0002 | Corn | 410 | 80%';
  const HEAD = 'Insurer: Prairie Shield Mutual Policy number: PSM-CH-2026-58317 Policyholder: Redfield Brothers Farms Insured crop year: 2026';

  it("document head: its fields are read, its prose is not (an opening sentence names other models in passing)", () => {
    expect(headFields(HEAD)).toContain('Policy number: PSM-CH-2026-58317');
    expect(headFields('Thank you for choosing the AQ-200. This manual applies to the AQ-200 only; the AQ-150 and AQ-350 models have their own manuals.')).toBe('');
  });

  it("document head: the policy number its head states answers for the rows of its sections; another policy's does not", () => {
    const q = 'How many acres of corn are insured under policy PSM-CH-2026-58317?';
    expect(answers(passage(UNITS, { sourceName: 'crop-policy.md', section: 'Policy > 1. Insured units' }), gateOf(q))).toBe(false);
    expect(answers(passage(UNITS, { sourceName: 'crop-policy.md', section: 'Policy > 1. Insured units', document: headFields(HEAD) }), gateOf(q))).toBe(true);
    const other = headFields(HEAD.replace('58317', '58318'));
    expect(answers(passage(UNITS, { sourceName: 'crop-policy.md', section: 'Policy > 1. Insured units', document: other }), gateOf(q))).toBe(false);
  });

  it("document head: the built-in model answers with the row, the policy number read in the document's head", () => {
    const material: TurnMaterial = { passages: [{ ref: 1, sourceName: 'crop-policy.md', section: 'Policy > 1. Insured units', text: UNITS, document: headFields(HEAD) }] };
    expect(ask('How many acres of corn are insured under policy PSM-CH-2026-58317?', material)).toMatch(/^0002 \| Corn \| 410/);
    expect(askedOf('How many acres of corn are insured under policy PSM-CH-2026-58317?').terms.map((t) => t.text)).toContain('PSM-CH-2026-58317');
  });
});

describe("a document's period", () => {
  const OCTOBER = headFields('Bill number: TE-2026-1017 Bill date: 5 November 2026 Billing period: 1 October 2026 to 31 October 2026 Customer: Mossgrave Clinic');
  const SEPTEMBER = headFields('Bill number: TE-2026-0917 Bill date: 6 October 2026 Billing period: 1 September 2026 to 30 September 2026 Customer: Mossgrave Clinic');
  const SUMMARY = '| Amount\nPrevious balance | £0.00 (August bill paid in full)\nTotal to pay | £1,138.19';

  it('document period: a span of months covers the months between its ends (3 November to 29 March covers December)', () => {
    expect([...monthsSpannedOf('Valid: 3 November 2025 to 29 March 2026')].sort((a, b) => a - b)).toEqual([1, 2, 3, 11, 12]);
    expect([...monthsSpannedOf('Bill date: 6 October 2026\nPayment due: 27 November 2026')].sort((a, b) => a - b)).toEqual([10, 11]);
  });

  it("document period: a row naming no month is of its document's period (the October bill's total is no answer for the September bill)", () => {
    const q = "What is the total to pay on Mossgrave's September 2026 bill?";
    const rows = (document: string) =>
      sentencesWithContext({ text: SUMMARY, sourceName: 'bill.md', document }).filter((x) => x.sentence.startsWith('Total to pay'));
    expect(answers(passage('| Amount\nTotal to pay | £1,138.19', { sourceName: 'bill.md', document: OCTOBER }), gateOf(q))).toBe(false);
    expect(answers(passage('| Amount\nTotal to pay | £932.40', { sourceName: 'bill.md', document: SEPTEMBER }), gateOf(q))).toBe(true);
    expect(rows(OCTOBER)).toHaveLength(1);
  });

  it('table header with an empty first cell (`| Amount` as ingested) is the header, not a row', () => {
    const [first] = sentencesWithContext({ text: SUMMARY });
    expect(first!.sentence).toMatch(/^Previous balance/);
    expect(first!.context.header).toBe('| Amount');
  });
});

describe('names, letters and amounts asked (eighth round)', () => {
  it("absent entity, a thing named by a letter after a French elided article: l'appareil C is a code of the question", () => {
    expect(specificTermsOf("Quel délai d'intervention pour l'appareil C de la résidence ?").map((t) => t.text)).toContain('appareil C');
    const q = "Quel délai d'intervention le contrat prévoit-il pour l'appareil C ?";
    const rows = "Situation | Délai d'intervention\nAppareil à l'arrêt | 4 heures ouvrées";
    expect(answers(passage(rows, { sourceName: 'contrat.md', section: "Contrat > Délais d'intervention" }), gateOf(q))).toBe(false);
  });

  it('amount asked: a rent, a fare, a premium, a wage (loyer, caution, frais, honoraires) is an amount', () => {
    expect(answerTypeOf('What is the fare for a child?')).toBe('amount');
    expect(answerTypeOf('What is the premium of the policy?')).toBe('amount');
    expect(answerTypeOf('Quel est le loyer mensuel total ?')).toBe('amount');
    expect(answerTypeOf('Quelle est la caution versée à la signature ?')).toBe('amount');
    expect(askedOf('Quel est le loyer mensuel total ?').value).toBe('money');
  });
});

describe("a document's head through POST /light/ask (built-in model)", () => {
  let t: TestApp;
  let a: TestTenant;
  const POLICY = [
    '# Crop Hail Policy — Schedule',
    '',
    '**Insurer:** Prairie Shield Mutual',
    '**Policy number:** PSM-CH-2026-58317',
    '**Policyholder:** Redfield Brothers Farms',
    '',
    '## 1. Insured units',
    '',
    '| Unit | Crop | Acres | Coverage level |',
    '|---|---|---|---|',
    '| 0001 | Winter wheat | 640 | 75% |',
    '| 0002 | Corn | 410 | 80% |',
    '',
  ].join('\n');

  beforeAll(async () => {
    t = await startTestApp();
    a = await t.tenant();
    await ingest(t, a, Buffer.from(POLICY), 'crop-policy.md');
  });
  afterAll(async () => {
    await t.close();
  });

  it('document head: the policy its head names is answered from its table; a policy number it does not name is refused', async () => {
    const ok = await api(t.baseUrl, a.key).post('/light/ask', { question: 'How many acres of corn are insured under policy PSM-CH-2026-58317?', provider: 'local' });
    expect(ok.status).toBe(200);
    expect(ok.body.refused).toBe(false);
    expect(ok.body.answer).toMatch(/^0002 \| Corn \| 410/);
    const other = await api(t.baseUrl, a.key).post('/light/ask', { question: 'How many acres of corn are insured under policy PSM-CH-2026-60001?', provider: 'local' });
    expect(other.status).toBe(200);
    expect(other.body.refused).toBe(true);
  });
});
