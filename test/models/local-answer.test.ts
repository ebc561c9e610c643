import { describe, expect, it } from 'vitest';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';

/** The built-in model's choice of sentence (issue 26 §3 and §5), each rule on the kind of case it handles, with sentences written for these tests. */
const ask = (question: string, material: TurnMaterial) => answerLocally({ messages: [{ role: 'user', content: question }], material }).content;

describe("the built-in model's answer", () => {
  it('a citation marker opening a sentence of the material (a transcript split after its period) never opens the answer', () => {
    const material: TurnMaterial = {
      contextBlocks: [{ heading: 'Debate so far', high: false, text: 'Fay: The travel policy applies to everyone. [1] Hotel nights are capped at 120 EUR. [2] Trains are booked in second class.' }],
    };
    const answer = ask('Are hotel nights capped?', material);
    expect(answer).toMatch(/^Hotel nights are capped at 120 EUR/);
  });

  it('answers with the sentence holding the asked value beside the head, not the best-overlapping one', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'parking-rules.md',
          text: 'Visitor parking permits cost 5 EUR a month and are requested at reception. A replacement for a lost permit is charged 15 EUR.',
        },
      ],
    };
    // The first sentence shares more words (visitor, parking, permits) and holds money too; only the second
    // says what is asked, the replacement.
    const answer = ask('What is the replacement fee for a visitor parking permit?', material);
    expect(answer).toMatch(/^A replacement for a lost permit is charged 15 EUR/);
    expect(answer).not.toContain('5 EUR a month');
  });

  it('length: a long run of fields (a header block) does not outrank the short sentence that says it by its length alone', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'bill-october.md',
          text:
            'Bill number: TE-2026-1017 Bill date: 5 November 2026 Customer: Mossgrave Veterinary Clinic, 5 Rookhill Lane, Norwich Account number: 7730 4418 Meter: electricity and gas Payment due: 26 November 2026 by direct debit\n' +
            'Your closing electricity reading is estimated because our reader could not access the meter.\n' +
            'Gas is billed on actual readings.',
        },
      ],
    };
    const answer = ask("Why is the closing electricity reading on Mossgrave Veterinary Clinic's bill estimated?", material);
    expect(answer).toMatch(/^Your closing electricity reading is estimated because our reader could not access the meter/);
  });

  it('cross-lingual: an English question picks the French sentence that says it (glossary renderings rank it)', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'reglement-interieur.md',
          section: 'Horaires',
          text: "Le bâtiment ouvre à 7 h 30. Le salarié dispose d'une pause déjeuner de 45 minutes. Les visiteurs signent le registre à l'accueil.",
        },
      ],
    };
    expect(ask('How long is the lunch break of an employee?', material)).toMatch(/pause déjeuner de 45 minutes/);
  });

  it('debates: a sentence already said in the conversation gives way to one not yet said', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'fleet.md', text: 'Electric vans cut fuel costs by half. Electric vans need a charging point at the depot.' }],
      alreadySaid: ['Electric vans cut fuel costs by half [1].'],
    };
    const answer = ask('Should the fleet switch to electric vans?', material);
    expect(answer).toContain('charging point');
    expect(answer).not.toContain('fuel costs');
  });
  it("a title's abbreviation (Mrs., Prof., M.) ends no sentence: the who-answer keeps the name after it", () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'privacy-notice.md',
          text: 'Our Data Protection Officer is Mrs. Lorraine Whitcombe. Complaints may also be made to the regulator.',
        },
      ],
    };
    const answer = ask('Who is the Data Protection Officer?', material);
    expect(answer).toMatch(/^Our Data Protection Officer is Mrs\. Lorraine Whitcombe\./);
  });

  it('several rows holding the asked type: the one saying what the value is of ("How many kWh of gas") is chosen, not the electricity one', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'energy-bill-october.md',
          text: 'Electricity and Gas Bill, October. Item | Quantity | Rate | Amount\nElectricity units | 2,530 kWh | 24.1 p/kWh | £609.73\nGas units | 4,069 kWh | 6.8 p/kWh | £276.69\nYour electricity use this period was 4% higher than in October last year.',
        },
      ],
    };
    const answer = ask('How many kWh of gas did the clinic use in October?', material);
    expect(answer).toMatch(/^Gas units \| 4,069 kWh/);
    expect(answer).not.toMatch(/electricity use/);
  });
});
