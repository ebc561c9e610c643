import { describe, expect, it } from 'vitest';
import { reasonOf, Verifier, type ClaimResult } from '../../src/modules/verify/engine.js';

/** The result of one claim against passages (each a document of its own). */
async function judge(claim: string, ...documents: string[]): Promise<ClaimResult> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!;
}

/**
 * Ninth round of issue 26 (docs/quality.md, "Ninth round: precision on unseen documents"): contradictions made on a
 * document the rules had never seen (tuning-7, last round's validation set), each by a sentence that was not about the
 * claim's fact. Sentences written for these tests, none from a labelled set.
 */
describe('ninth round: precision of contradictions', () => {
  it('a word a pronoun sentence takes from its antecedent keeps the antecedent’s polarity (no reversal)', async () => {
    const doc = "## 5. Piscine\n\nLe comité décide que le bassin ne sera pas ouvert le dimanche pendant l'hiver (de novembre à mars) ; il restera ouvert du lundi au samedi, de 9 h à 12 h et de 14 h à 19 h.";
    expect((await judge('Le bassin ne sera pas ouvert le dimanche de novembre à mars.', doc)).verdict).not.toBe('contradicted');
    // The statement itself reversed in its own sentence is still a contradiction.
    expect((await judge('Le bassin sera ouvert le dimanche pendant l’hiver.', doc)).verdict).toBe('contradicted');
  });

  it('the antecedent’s subject stays under the pronoun sentence’s negation', async () => {
    const doc = '# Ambrel Logistics flexible working policy\n\n## Eligibility\n\nFlexible working is open to employees who have completed their trial period. It is not available to drivers or to security guards, whose shifts are fixed.';
    expect((await judge('Drivers at Ambrel Logistics are eligible for flexible working.', doc)).verdict).toBe('contradicted');
  });

  it('an antonym about another moment, the claim’s date only in the context, does not reverse the claim', async () => {
    const doc = 'Our Autumn Clearance runs from Monday 5 October 2026 until close of business on Sunday 1 November 2026. This note lists the reductions and what branches must prepare before the clearance starts.';
    const r = await judge('The Autumn Clearance ends at close of business on Sunday 1 November 2026.', doc);
    expect(r.verdict).not.toBe('contradicted');
    // The same antonym with the claim's date in its own sentence is a reversal.
    expect((await judge('The Autumn Clearance starts on 1 November 2026.', 'The Autumn Clearance ends on 1 November 2026.')).verdict).toBe('contradicted');
  });

  it('a claim dated by its year alone is not contradicted by another year’s dates (another occurrence)', async () => {
    const doc = '# Ambrel Market price note\n\nOur Autumn Clearance runs from Monday 5 October 2026 until close of business on Sunday 1 November 2026 (four weeks). This note lists the reductions.';
    expect((await judge('Ambrel Market ran the same Autumn Clearance with the same products in autumn 2025.', doc)).verdict).toBe('unverifiable');
    // Dated to the day, it still conflicts.
    expect((await judge('The Autumn Clearance runs from 5 October 2025.', doc)).verdict).toBe('contradicted');
  });

  it('each verdict keeps the mechanism that made it', async () => {
    const r = await judge('The annual licence costs 1 400 EUR.', 'The annual licence costs 1 200 EUR.');
    expect(r.verdict).toBe('contradicted');
    expect(reasonOf(r)).toBe('amount-conflict');
    expect(Object.keys(r).sort()).toEqual(['end', 'evidence', 'rule', 'start', 'text', 'verdict']);
    const s = await judge('The annual licence costs 1 200 EUR.', 'The annual licence costs 1 200 EUR.');
    expect(reasonOf(s)).toBe('support-covered');
  });
});

/**
 * Tenth round of issue 26 (docs/quality.md, "Tenth round: precision on unseen documents, vprec2"): wrong verdicts of the
 * reversal and of the relaxed supports on tuning-8 (a set written after those rules). Sentences written for these tests,
 * none from a labelled set.
 */
describe('tenth round: reversals and relaxed supports', () => {
  it('a nominal negation inside a prepositional phrase negates its noun only, not the clause (no reversal)', async () => {
    const doc = 'Pressure tests were carried out on 14/03/2026 with no leaks found.';
    expect((await judge('The pressure tests were carried out on 14 March 2026.', doc)).verdict).not.toBe('contradicted');
    // At the clause's opening it still negates the clause.
    expect((await judge('The supplier will disclose customer data.', 'At no time will the supplier disclose customer data.')).verdict).toBe('contradicted');
  });

  it('a negated comparative is an upper bound, not a negation (no reversal of a bound)', async () => {
    const doc = 'Total penalties will not exceed 15% of the quarterly fee in any quarter.';
    expect((await judge('In any quarter, the penalties can never be more than 15% of the quarterly fee.', doc)).verdict).not.toBe('contradicted');
  });

  it('a negation of another verb than the claim’s, its synonym in another sense, does not reverse the claim', async () => {
    const doc = '# Cabinet Lemoine — Honoraires 2026\n\n## Horaires\n\nLe cabinet ne réalise aucune permanence le dimanche.';
    expect((await judge('Les honoraires du cabinet ont été actualisés le 3 février 2026.', doc)).verdict).not.toBe('contradicted');
    // The claim's own verb negated is still a reversal.
    expect((await judge('Le cabinet réalise des permanences le dimanche.', 'Le cabinet ne réalise aucune permanence le dimanche.')).verdict).toBe('contradicted');
  });

  it('a graded support needs the claim’s date in the sentence itself, not a year of the title', async () => {
    const doc = '# Quarry annual report 2025\n\n## Noise\n\nDust deposits are monitored by 8 gauges placed around the site.';
    expect((await judge('The noise measurements around the quarry were taken on 12 May 2025.', doc)).verdict).not.toBe('supported');
  });

  it('a universal claim is not supported by a sentence about one member (graded)', async () => {
    const doc = '# Devis Imprimerie Marchal\n\n## Papiers\n\n- Le papier de la brochure est certifié FSC ;';
    expect((await judge('Tous les papiers prévus dans le devis Marchal sont certifiés FSC.', doc)).verdict).not.toBe('supported');
  });

  it('the name that is the whole subject of the claim’s verb is not left to the document', async () => {
    const doc = '# Riverside Bakery — Supply Agreement\n\n## 2. Contacts\n\nThe Supplier’s account manager is Laura Benning.\n\n## 9. Signature\n\nSigned on 3 March 2025.';
    expect((await judge('Laura Benning signed the supply agreement for Riverside Bakery.', doc)).verdict).not.toBe('supported');
  });
});

/**
 * Eleventh round of issue 26 (docs/quality.md, "Eleventh round: leads of the tenth (vprec3)"): the claim's main verb, its
 * subject words and its amounts read more exactly. Sentences written for these tests, none from a labelled set.
 */
describe('eleventh round: main verb, subject words and amounts', () => {
  it('a gerund opening the claim is its subject, the finite verb after it is the main verb (reversal kept)', async () => {
    const doc =
      '# Korvath Glow heater warranty\n\n## 3. Extension by registration\n\nIf you register the heater at korvath.example/register within **30 days** of purchase, the body warranty is extended by **one year**. Registration does not extend the fan warranty or the remote warranty.';
    expect((await judge('Registering a Korvath Glow within 30 days also extends the fan warranty.', doc)).verdict).toBe('contradicted');
    // What the sentence says is not reversed.
    expect((await judge('Registering a Korvath Glow within 30 days extends the body warranty by one year.', doc)).verdict).not.toBe('contradicted');
  });

  it('rival amounts in a coordination: each is of the words nearest to it in its own part, the opening shared', async () => {
    const doc = 'Extra studio sessions are billed at £30.00 per hour for the rehearsal studio (up to 4 players) and £55.00 per hour for the recording studio (up to 8 players).';
    expect((await judge('Extra sessions in the recording studio cost £55.00 per hour.', doc)).verdict).toBe('supported');
    expect((await judge('Extra sessions in the recording studio cost £30.00 per hour.', doc)).verdict).toBe('contradicted');
    expect((await judge('Extra sessions in the rehearsal studio cost £30.00 per hour.', doc)).verdict).toBe('supported');
  });
  it('a title before a name (Mme, Mrs, Dr, M., Me) is no subject word of the claim', async () => {
    const doc =
      "# Devis n° PAC-2026-0112 — Installation pompe à chaleur\n\n**Client :** Mme Yvonne Berthier, 4 route des Aulnes, 74400 Chamonix.\n**Date du devis :** 2 mars 2026.\n\n## 2. Estimation\n\nConsommation annuelle estimée : 4 200 kWh, soit une économie prévue de 35 %.";
    expect((await judge("La consommation annuelle estimée de l'installation de Mme Berthier est de 4 200 MWh.", doc)).verdict).toBe('contradicted');
  });
  it('a count between a definite article and a name in the claim’s subject is presupposed, not an amount to find', async () => {
    const doc =
      '# Annual Chiller Service Report\n\n**Site:** Harrowgate Library, 12 Mill Lane.\n\n## 1. Appliance details\n\n| Item | North unit | South unit |\n|---|---|---|\n| Make and model | Daikin EWAT 045 | Daikin EWAT 045 |\n| Cooling capacity | 45 kW | 45 kW |\n| Year installed | 2020 | 2020 |';
    expect((await judge('Each of the two Harrowgate chillers has a cooling capacity of 45 kW.', doc)).verdict).toBe('supported');
    // A count the claim states (after its verb) is still an amount.
    expect((await judge('Harrowgate Library has three chillers.', 'Harrowgate Library has two chillers.')).verdict).toBe('contradicted');
  });
});
