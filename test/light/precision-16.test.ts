import { describe, expect, it } from 'vitest';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';

/**
 * Sixteenth round of issue 26, light's precision on the fresh sets (lprec; docs/light.md, "The asked type in the answer"):
 * a question asking a type of value (a rate, an amount, a date) is not answered with sentences that hold no value of that
 * type but the question's own figures: the built-in model says it found nothing, and light refuses.
 * Sentences written for these tests.
 */
const ask = (question: string, material: TurnMaterial) => answerLocally({ messages: [{ role: 'user', content: question }], material }).content;
const NOTHING = /^I am the service's built-in local model, .* I found nothing there about/;

describe("light's precision on the fresh sets (lprec)", () => {
  it('asked rate absent from every sentence (English): nothing found, not the sentence naming "the rate"', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'payslip-carpenter.md',
          text: 'Employee: Julie Carpenter. Income tax is withheld at source from the salary at the rate sent by the tax administration for each employee; it is not included in the net pay column. Gross salary | £2,450.00',
        },
      ],
    };
    expect(ask("What tax rate is withheld at source from Julie Carpenter's salary?", material)).toMatch(NOTHING);
  });

  it('asked rate absent from every sentence (French): nothing found, not the sentence naming « le taux »', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'bulletin-carpentier.md',
          text: "Salariée : Julie Carpentier. Le prélèvement à la source de l'impôt sur le revenu est appliqué en plus selon le taux transmis par l'administration fiscale pour chaque salarié ; il n'est pas inclus dans la colonne « Net à payer avant impôt ».",
        },
      ],
    };
    expect(ask('Quel est le taux de prélèvement à la source appliqué à Julie Carpentier ?', material)).toMatch(NOTHING);
  });

  it("the sentence's only amount is the question's own figure: nothing found, not `free over £300` for a charge below £300", () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'oakhurst-trade-terms.md', text: 'Delivery is free to mainland addresses on orders over £300 net. Orders placed before noon are dispatched the same day.' }],
    };
    expect(ask('What is the delivery charge for an order below £300 to a mainland address?', material)).toMatch(NOTHING);
  });

  it('guard: a sentence stating the asked value still answers (the rate, the charge)', () => {
    const rate: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'bulletin-carpentier.md', text: "Salariée : Julie Carpentier. Le prélèvement à la source est appliqué au taux personnalisé de 7,5 % transmis par l'administration fiscale." }],
    };
    expect(ask('Quel est le taux de prélèvement à la source appliqué à Julie Carpentier ?', rate)).toContain('7,5 %');
    const charge: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'oakhurst-trade-terms.md',
          text: 'Delivery is free to mainland addresses on orders over £300 net. Orders below £300 net are charged £12.50 for delivery to a mainland address.',
        },
      ],
    };
    expect(ask('What is the delivery charge for an order below £300 to a mainland address?', charge)).toBe('Orders below £300 net are charged £12.50 for delivery to a mainland address. [1]');
  });

  it('asked date not yet set (French): nothing found, not « la date … sera fixée à la prochaine réunion »', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'compte-rendu-ape-acacias.md',
          text: "Compte rendu de la réunion de l'association des parents d'élèves de l'école Les Acacias. Fête : la date de la fête de fin d'année sera fixée à la prochaine réunion. Le bureau remercie les parents bénévoles.",
        },
      ],
    };
    expect(ask("Quelle date a été retenue pour la fête de fin d'année de l'école Les Acacias ?", material)).toMatch(NOTHING);
  });

  it("asked amount of a quotation the passage only mentions: nothing found, not the sentence naming it (its date is no price, its code the question's own)", () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'clinic-invoice.md',
          text: 'Following the assessment, a separate quotation for a pair of hearing aids (reference Q-5520) was sent to Mrs Lindqvist on 3 March 2026. The fitting fee is charged only if that quotation is accepted.',
        },
      ],
    };
    expect(ask('How much do the hearing aids in quotation Q-5520 cost?', material)).toMatch(NOTHING);
  });

  it("guard: a table row's bare figure under a price column answers a price; a duration answers `until what date`", () => {
    const prices: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'aquilab-price-list.md',
          text: 'Aquilab water test price list.\nCode | Test | Method | Turnaround | Price (EUR)\n--- | --- | --- | --- | ---\nW-101 | Nitrate | Ion chromatography | 5 working days | 48.00\nW-158 | Lead | ICP-MS | 8 working days | 95.00',
        },
      ],
    };
    expect(ask('What is the price of the nitrate water test at Aquilab?', prices)).toContain('W-101 | Nitrate | Ion chromatography | 5 working days | 48.00 [1]');
    const warranty: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'remington-warranty.md',
          text: "Repair warranty for Tom Avery's Remington, repaired on 12 March 2026. The warranty runs from the date of repair.\nPart | Covered for\n--- | ---\nKeyboard repair, against wear | 18 months\nRibbon mechanism | 6 months",
        },
      ],
    };
    expect(ask("Until what date is the keyboard repair on Tom Avery's Remington covered against wear?", warranty)).toContain('Keyboard repair, against wear | 18 months [1]');
  });
});
