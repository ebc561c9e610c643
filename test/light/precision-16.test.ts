import { describe, expect, it } from 'vitest';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';

/**
 * Sixteenth round of issue 26, light's precision on the fresh sets (lprec; docs/light.md, "The asked type in the answer"):
 * a question asking a type of value (a rate, an amount, a date) that no sentence answers by the rules is not answered with
 * the sentence sharing most of its words when that sentence holds no value of the type but the question's own figures.
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
});
