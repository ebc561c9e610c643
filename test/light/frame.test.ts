import { describe, expect, it } from 'vitest';
import { askedOf } from '../../src/lib/language/asked.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';

/**
 * Light's gate by the question's frame (issue 26, twelfth round, lpred; docs/light.md rule 20): where the head of what is
 * asked is not said, a value of the asked kind beside the question's object noun answers. Each case runs the gate without
 * the frame (as before this round: refused) and with it. Sentences written for these tests.
 */
const passage = (text: string, sourceName: string, section = '') => ({ text, section, sourceName, sourceId: 'src_1' });
const strict = (p: ReturnType<typeof passage>, q: string) => answers(p, gateOf(q));
const byFrame = (p: ReturnType<typeof passage>, q: string) => answers(p, gateOf(q), false, true);

describe("light's gate by frame (twelfth round)", () => {
  it('verb head: who to write to is answered by the person beside the object (questions about the price list), without the verb', () => {
    const q = 'Who should I write to at Corvane with a question about the price list?';
    const p = passage('Questions about the price list should be sent to Maria Lopez, Pricing Analyst.', 'corvane-price-list.md');
    expect(askedOf(q).frame).toMatchObject({ verb: true });
    expect(strict(p, q)).toBe(false);
    expect(byFrame(p, q)).toBe(true);
  });

  it('verb head: how often a technician must look after a truck is answered by a recurrence beside the truck (service every 6 months)', () => {
    const q = 'How often must a technician look after a Strata forklift?';
    const p = passage('A qualified technician must service the forklift every 6 months or every 500 operating hours.', 'strata-forklift-manual.md');
    expect(strict(p, q)).toBe(false);
    expect(byFrame(p, q)).toBe(true);
    // A duration that is no recurrence (how long a check takes) does not answer how often.
    expect(byFrame(passage('A qualified technician needs 2 hours to check the forklift.', 'strata-forklift-manual.md'), q)).toBe(false);
  });

  it('verb head: how long an act takes is not answered by how long its object lasts (no act, no recurrence or limit asked)', () => {
    const q = 'How long must Nettle retain a customer invoice?';
    expect(askedOf(q).frame).toMatchObject({ verb: true });
    expect(byFrame(passage('Nettle sends each customer invoice within 30 days of delivery.', 'nettle-terms.md'), q)).toBe(false);
  });

  it('verb head: a date is the date of the act asked; the object\'s own date (the invoice date) does not answer when it was paid', () => {
    const q = 'On what date did Keller pay invoice INV-2030-0101?';
    expect(byFrame(passage('Invoice number | INV-2030-0101\nInvoice date | 3 March 2030', 'keller-invoice-inv-2030-0101.md'), q)).toBe(false);
  });

  it('verb head: the act the question sets aside (not just acknowledge) said beside the value answers another question', () => {
    const q = 'Within what time must Brightway resolve (not just acknowledge) a Priority 1 incident?';
    expect(askedOf(q).frame?.excluded).toContain('acknowledge');
    expect(byFrame(passage('Brightway acknowledges Priority 1 incidents within 1 hour.', 'brightway-sla.md'), q)).toBe(false);
  });

  it('verb head: a how-many-minutes question (no recurrence, no limit) is not read by the frame: a warranty in years does not answer', () => {
    const q = 'How many minutes does the Zephyr Z-200 run on a full charge?';
    expect(byFrame(passage('The Z-200 is sold with a charge cable guaranteed for 2 years.', 'zephyr-z-200.md'), q)).toBe(false);
  });

  it('verb head: how quickly asks a time limit (within 1 hour), not how long a thing lasts', () => {
    const q = 'How quickly must Harbour start work on a total loss of service?';
    expect(askedOf(q).frame).toMatchObject({ verb: true, duration: 'limit' });
    expect(strict(passage('Intervention on a total loss of service: within 1 hour, day and night.', 'harbour-sla.md'), q)).toBe(false);
    expect(byFrame(passage('Intervention on a total loss of service: within 1 hour, day and night.', 'harbour-sla.md'), q)).toBe(true);
    expect(byFrame(passage('A total loss of service lasted 3 hours on average in 2025.', 'harbour-sla.md'), q)).toBe(false);
  });

  it('payment: a rebate said as a service credit answers when the sentence states the question\'s own figure and a paid share', () => {
    const q = 'What rebate does the Hartley clinic get if the hygiene score drops under 80%?';
    expect(askedOf(q).frame).toMatchObject({ money: true, verb: false });
    const p = passage('If the monthly hygiene score falls below 80%, the clinic receives a service credit of 7% of the monthly fee.', 'hartley-clinic-cleaning.md');
    expect(strict(p, q)).toBe(false);
    expect(byFrame(p, q)).toBe(true);
  });

  it('payment: a threshold alone (below 80 %) is no paid share, and another figure (75 %) is another case', () => {
    const q = 'What rebate does the Hartley clinic get if the hygiene score drops under 80%?';
    expect(byFrame(passage('If the monthly hygiene score falls below 80%, a new inspection is booked.', 'hartley-clinic-cleaning.md'), q)).toBe(false);
    expect(byFrame(passage('If the monthly hygiene score falls below 75%, the clinic receives a service credit of 7% of the monthly fee.', 'hartley-clinic-cleaning.md'), q)).toBe(false);
  });

  it('absent entity: the frame never stands for a name the passage lacks', () => {
    const q = 'What rebate does the Quillon clinic get if the hygiene score drops under 80%?';
    expect(byFrame(passage('If the monthly hygiene score falls below 80%, the clinic receives a service credit of 7% of the monthly fee.', 'hartley-clinic-cleaning.md'), q)).toBe(false);
  });
});
