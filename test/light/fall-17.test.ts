import { describe, expect, it } from 'vitest';
import { askedOf, itemWordsOf, namesItem } from '../../src/lib/language/asked.js';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';

/**
 * Seventeenth round of issue 26, the rules' fallback (lfall; docs/light.md, "Another thing's passage"): the built-in model
 * takes a sentence for holding a value of the asked type; when the passage of every sentence it picked names none of the
 * question's item (its thing's words, names or codes), the value is another thing's and nothing was found. Sentences
 * written for these tests.
 */
const ask = (question: string, material: TurnMaterial) => answerLocally({ messages: [{ role: 'user', content: question }], material }).content;
const NOTHING = /^I am the service's built-in local model, .* I found nothing there about/;

const FINES: TurnMaterial = {
  passages: [
    {
      ref: 1,
      sourceName: 'van-hire-terms.md',
      text: 'Parking and speeding fines incurred during the hire are passed on to the hirer. For each fine processed, Vanlo charges an administration fee of €40.',
    },
  ],
};

describe("light's fallback: another thing's passage (lfall)", () => {
  it("another thing's passage: a fee for processing fines does not answer the fee for amending a bill of lading", () => {
    expect(ask('What is the fee for amending a bill of lading after it has been issued?', FINES)).toMatch(NOTHING);
  });

  it("another thing's passage: a price list of rugs and armchairs does not answer the price of a sofa", () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'cleaning-prices.md', text: '| Item | Price |\n|---|---|\n| Rug cleaning (per m²) | £9.00 |\n| Armchair cleaning | £25.00 |' }],
    };
    expect(ask('How much does it cost to clean a two-seater sofa?', material)).toMatch(NOTHING);
  });

  it("guard: the passage names the item in another of its sentences (the fines' fee asked for a fine)", () => {
    expect(ask('What fee is charged for each parking fine?', FINES)).toContain('€40');
  });

  it('guard: the item named by the document head or a row header answers', () => {
    const asked = askedOf('How much does it cost to clean a two-seater sofa?');
    expect(itemWordsOf(asked).words).toContain('sofa');
    expect(namesItem(asked, ['| Three-seater | £65.00 |\n| Size | Price |\nSofa cleaning'])).toBe(true);
    expect(namesItem(asked, ['| Rug cleaning (per m²) | £9.00 |\n| Item | Price |'])).toBe(false);
  });

  it("guard: a picked sentence saying the question's head answers, the item said in other words (*bruxisme* for teeth grinding)", () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'tarifs-cabinet.md', text: 'Gouttière de bruxisme rigide : 88 €\nGouttière de blanchiment (la paire) : 70 €' }],
    };
    expect(ask('Combien coûte une gouttière contre le grincement des dents ?', material)).toContain('88 €');
  });

  it("guard: a picked sentence sharing two of the question's words or more is on its matter (the item left to the rest of the document)", () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'before-the-anaesthetic.md', text: 'No food after 8 pm the evening before. Your dog may still drink water until 7 am on the day.' }],
    };
    expect(ask('Until what time may my dog still drink water before its dental procedure?', material)).toContain('7 am');
  });

  it('guard: a question naming no item is not read (null)', () => {
    expect(namesItem(askedOf('How much is it?'), ['Rug cleaning costs £9.00.'])).toBeNull();
  });

  it('guard: a passage in the other language answers (the item said in words the question does not use)', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'tarifs.md', text: 'Les consultations ont lieu du lundi au vendredi. Tout rendez-vous non annulé au moins 24 heures à l’avance pourra être facturé 20,00 €.' }],
    };
    expect(ask('How much can the clinic charge for an appointment that was not cancelled at least 24 hours ahead?', material)).toContain('20,00 €');
  });
});
