import { describe, expect, it } from 'vitest';
import { askedOf, headFields, withoutDays } from '../../src/lib/language/asked.js';
import { countedOf, countsThing } from '../../src/lib/language/counted.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';

/**
 * Twelfth round of issue 26 (lfact; docs/quality.md, "Twelfth round: light's answer by subject"): the value answering
 * a question is the one said of what it asks about, not any figure beside the same words. English and French sentences
 * written for these tests.
 */
const ask = (question: string, material: TurnMaterial) => answerLocally({ messages: [{ role: 'user', content: question }], material }).content;
const passage = (text: string, sourceName = 'minutes.md', section = '', document?: string) => ({ text, section, sourceName, sourceId: 'src_1', ...(document ? { document } : {}) });

describe('a count is answered by the figure of the counted thing', () => {
  it('counted noun: how many kWh, combien de sièges, number of seats, flying hours', () => {
    expect(countedOf('How many kWh of gas did the Orchard Street clinic use in March?')).toBe('kwh');
    expect(countedOf('Combien de sièges la mairie a-t-elle commandés ?')).toBe('sieges');
    expect(countedOf('What is the number of seats in the Lantern Room?')).toBe('seats');
    expect(countedOf('After how many flying hours must the propellers be replaced?')).toBe('hours');
    expect(countedOf('How many are there?')).toBeNull();
    expect(countedOf('How much does the survey cost?')).toBeNull();
  });

  it('figure tied to the counted thing: after it (2,530 kWh, 40 places assises), or as its label right before it (Seats: 240), never a figure said of another thing', () => {
    expect(countsThing('kwh', 'Gas | 2,530 kWh | £188.40')).toBe(true);
    expect(countsThing('sieges', 'La mairie a commandé 40 places assises et 12 sièges pliants.')).toBe(true);
    expect(countsThing('seats', 'Seats: 240')).toBe(true);
    expect(countsThing('staff', 'No more than two staff of one team may be away at once.')).toBe(true);
    expect(countsThing('kwh', 'Your gas use this month is 90% higher than last month.')).toBe(false);
    // A noun before a figure with a verb between says something else of it: `employees receive 25 days`.
    expect(countsThing('staff', 'Full-time employees receive 25 days of paid leave.')).toBe(false);
  });

  it("the built-in model: how many kWh is answered by the row stating kWh, not the sentence on the same gas with a percentage", () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'energy-bill-march.md',
          text: 'Your gas use this month is 35% higher than last month, as the heating ran longer.\nFuel | Units used | Cost\nGas | 3,118 kWh | £241.06',
        },
      ],
    };
    expect(ask('How many kWh of gas did the Orchard Street clinic use this month?', material)).toMatch(/^Gas \| 3,118 kWh/);
  });

  it('the built-in model: combien de sièges is answered by the figure of the seats, not the price of another line', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'commande-mairie.md',
          text: 'Les sièges commandés par la mairie de Vauclair sont facturés 18,00 € par mois. La commande porte sur 14 sièges.',
        },
      ],
    };
    expect(ask('Combien de sièges la mairie de Vauclair a-t-elle commandés ?', material)).toMatch(/^La commande porte sur 14 sièges/);
  });
});

describe("the question's own figures, days and times are not its answer", () => {
  it("own figure: combien de pots de 250 g is not answered by the sentence whose only figure is that 250 g", () => {
    const q = 'Combien de pots de 250 g la coopérative a-t-elle commandés ?';
    expect(answers(passage("Un adhérent demande un pot de 250 g ; le bureau étudiera le coût des nouveaux pots."), gateOf(q))).toBe(false);
    expect(answers(passage('La coopérative a commandé 2 000 pots de 250 g.'), gateOf(q))).toBe(true);
  });

  it('a day, a time of day or a year is no amount: a how-many question is not answered by a date, the hour a meeting closed or the year of a meeting', () => {
    const q = 'How many crates did the Tarrant depot order?';
    expect(answers(passage('The Tarrant depot will discuss the new crates at its meeting of 12 June 2025.'), gateOf(q))).toBe(false);
    expect(answers(passage('The Tarrant depot meeting on new crates closed at 17:35.'), gateOf(q))).toBe(false);
    expect(answers(passage('The Tarrant depot will review its crates at the general meeting of 2026.'), gateOf(q))).toBe(false);
    expect(answers(passage('The Tarrant depot ordered 120 crates on 12 June 2025.'), gateOf(q))).toBe(true);
    expect(answers(passage('The Tarrant depot ordered up to 2000 crates.'), gateOf(q))).toBe(true);
    expect(withoutDays('up to 2 may be absent')).toBe('up to 2 may be absent');
    expect(withoutDays('Due 18 May 2025, closed at 17 h 35')).not.toMatch(/\d/);
  });

  it('VAT included asks money: the total due is the money row, not the due date row and its 30 days', () => {
    expect(askedOf('What is the total due, VAT included, on invoice INV-2025-0387?').value).toBe('money');
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'invoice-inv-2025-0387.md', text: 'Item | Value\nDue date | 18 May 2025 (30 days)\nNet amount | £1,331.40\nTotal due | £1,597.68' }],
    };
    expect(ask('What is the total due, VAT included, on invoice INV-2025-0387?', material)).toMatch(/^Total due \| £1,597.68/);
  });
});

describe("a clause's number is no value", () => {
  it('clause number: 4.2 opening a clause is no price, so the clause on re-washing at no charge does not answer a price per item', () => {
    const q = 'What price per item does Brookvale Linen charge for guest laundry?';
    expect(answers(passage('4.2 Guest laundry returned stained shall be re-washed by Brookvale Linen at no charge.', 'linen-contract.md'), gateOf(q))).toBe(false);
    expect(answers(passage('4.3 Guest laundry is charged by Brookvale Linen at £1.80 per item.', 'linen-contract.md'), gateOf(q))).toBe(true);
  });
});

describe("a document's head under an empty header row", () => {
  it('a first row stating a code is a field of the document, not a header (Invoice number | INV-2025-0387)', () => {
    expect(headFields('Layerworks Ltd\n| \nInvoice number | INV-2025-0387\nInvoice date | 18 April 2025')).toMatch(/^Invoice number: INV-2025-0387\nInvoice date: 18 April 2025$/);
    expect(headFields('Item | Details\nCustomer | Brindle Lane Bakery')).toBe('Customer: Brindle Lane Bakery');
  });
});
