import { describe, expect, it } from 'vitest';
import { askedOf, withoutOtherItems, withoutOthersValues } from '../../src/lib/language/asked.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';

/**
 * Thirteenth round of issue 26 (lfact2; docs/quality.md, "Thirteenth round: a value's own phrase"; docs/light.md rule 21):
 * a value is said of the phrase it is written in (the parenthesis after a code, the clause's subject, a list item's label),
 * and answers only a question whose subject is that phrase's. Sentences written for these tests.
 */
const passage = (text: string, sourceName = 'notes.md', section = '') => ({ text, section, sourceName, sourceId: 'src_1' });

describe("a value in another code's parenthesis or subject is that code's", () => {
  const q = 'What was the total amount of invoice INV-2025-0352?';

  it("other code's value: Credit note CN-2025-0041 (£38.00) … from invoice INV-2025-0352 states no amount of the invoice", () => {
    const s = 'Credit note CN-2025-0041 (£38.00) relates to 4 sensor brackets from invoice INV-2025-0352 dated 27 March 2025.';
    expect(withoutOthersValues(askedOf(q), s)).not.toMatch(/38|4 sensor/);
    expect(answers(passage(s, 'printing-invoice.md'), gateOf(q))).toBe(false);
    // The question's own code's value stays, in its parenthesis or after it.
    expect(answers(passage('Invoice INV-2025-0352 (£512.00) was settled by credit note CN-2025-0041.', 'printing-invoice.md'), gateOf(q))).toBe(true);
    expect(answers(passage('Credit note CN-2025-0041 was raised against invoice INV-2025-0352, whose total amount was £512.00.', 'printing-invoice.md'), gateOf(q))).toBe(true);
  });

  it('a question naming no code keeps every value', () => {
    const s = 'Credit note CN-2025-0041 (£38.00) relates to 4 sensor brackets from invoice INV-2025-0352.';
    expect(withoutOthersValues(askedOf('What was the amount of the credit note?'), s)).toBe(s);
  });
});

describe("a list item's label is its value's phrase", () => {
  const s = "Location : chaussons CHF 6.–, baudrier CHF 4.–, système d'assurage CHF 3.–.";

  it('list item label: the location of a harness is the harness item, of a rope none of them', () => {
    expect(askedOf("Combien coûte la location d'une corde à la salle Vertiges ?").of).toBe('corde');
    expect(withoutOtherItems(askedOf("Combien coûte la location d'un baudrier ?"), s)).toMatch(/^Location :\s+, baudrier CHF 4\.–,\s+$/);
    expect(answers(passage(s, 'tarifs-vertiges.md'), gateOf("Combien coûte la location d'une corde à la salle Vertiges ?"))).toBe(false);
    expect(answers(passage(s, 'tarifs-vertiges.md'), gateOf("Combien coûte la location d'un baudrier à la salle Vertiges ?"))).toBe(true);
  });

  it('a list whose head says the thing asked keeps its values', () => {
    const kit = 'Location de matériel : chaussons CHF 6.–, baudrier CHF 4.–.';
    expect(withoutOtherItems(askedOf('Combien coûte la location de matériel ?'), kit)).toBe(kit);
  });

});

describe("a row's first cell numbers its own thing", () => {
  const row = (text: string) => ({ text: `| Course | Schedule | Dates | Fee |\n|---|---|---|---|\n| ${text} |`, section: 'Bedford Basin Sailing School courses', sourceName: 'sailing-calendar.md', sourceId: 'src_1' });

  it('numbered thing: CANSail 5–6 is not answered by the rows of CANSail 1–2 or of another course whose cells hold a 5 and a 6', () => {
    const q = 'How much does the CANSail 5–6 advanced course cost at Bedford Basin?';
    expect(askedOf(q).numbered).toEqual([['CANSail', '5']]);
    expect(answers(row('CANSail 1–2 (adult beginners) | 4 evenings | June 3–6; Aug 5–8 | $395'), gateOf(q))).toBe(false);
    expect(answers(row('Coastal Navigation (classroom) | 6 Tuesday evenings | Apr 5–May 13 | $380'), gateOf(q))).toBe(false);
    expect(answers(row('CANSail 5–6 (advanced) | 4 evenings | July 5–8 | $495'), gateOf(q))).toBe(true);
  });

  it('a month and its day are no numbered thing', () => {
    expect(askedOf('How much did the Bedford Basin school charge on June 5?').numbered).toBeUndefined();
  });
});
