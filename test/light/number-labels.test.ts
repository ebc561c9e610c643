import { describe, expect, it } from 'vitest';
import { askedOf, periodsOf, sentenceAnswers, sentencesOf, withoutLabels } from '../../src/lib/language/asked.js';
import { countsThing } from '../../src/lib/language/counted.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';

/**
 * Fourteenth round of issue 26 (lfact3; docs/quality.md, "Fourteenth round: figures that number a thing"; docs/light.md
 * rule 22): a figure after the noun it numbers is a label, not an amount; an identifier's digits are no figure; a list
 * item keeps its number; a what-question whose verb is a paying verb asks an amount; `a day` after a comparison is no
 * rate's period. Sentences written for these tests.
 */
const passage = (text: string, sourceName = 'notes.md', section = '') => ({ text, section, sourceName, sourceId: 'src_1' });

describe('a figure numbering a thing is no amount', () => {
  it('numbering label: printer bay 2, rate card version 3, clause 11 state no quantity', () => {
    expect(withoutLabels('All parts were printed on printer bay 2.')).not.toMatch(/\d/);
    expect(withoutLabels('Rate card version 3 applies.')).not.toMatch(/\d/);
    expect(withoutLabels('See clause 11 of the conditions.')).not.toMatch(/\d/);
    const q = 'How much did the printing cost?';
    expect(answers(passage('All parts for the printing were made on printer bay 2.', 'job.md'), gateOf(q))).toBe(false);
    expect(answers(passage('The printing on printer bay 2 cost £340.', 'job.md'), gateOf(q))).toBe(true);
  });

  it('label list after a plural noun: items 2, 4, 5 and 6 count no catalogues', () => {
    const row = 'VAT at 20% on items 2, 4, 5 and 6 (printed catalogues and leaflets are zero-rated)';
    expect(countsThing('catalogues', row)).toBe(false);
    expect(countsThing('catalogues', 'We printed 12,000 catalogues.')).toBe(true);
  });

  it('measure noun: capacity 60 and Seats 240 keep their figures', () => {
    expect(withoutLabels('The Loft has capacity 60 standing.')).toMatch(/60/);
    expect(withoutLabels('Seats 240')).toMatch(/240/);
    expect(withoutLabels('A bay 2 m wide.')).toMatch(/2 m/);
  });

  it('identifier: a VAT, telephone or company number is no figure; a French thousand is one', () => {
    expect(withoutLabels('VAT reg. no. GB 318 7741 52')).not.toMatch(/\d/);
    expect(withoutLabels('Call 0330 912 4470.')).not.toMatch(/\d/);
    expect(withoutLabels('La coopérative compte 1 960 ruches.')).toMatch(/1 960/);
  });
});

describe("a list item's number stays in its item", () => {
  it('list item number: a numbered table cell is one sentence, not a sentence `2.`', () => {
    expect(sentencesOf('| 2. Bare-metal respray in original Opalescent Silver Blue | 120 | £10,510 |')).toHaveLength(1);
    expect(sentencesOf('2. No confetti. A cleaning fee of $150 applies.')).toEqual(['No confetti.', 'A cleaning fee of $150 applies.']);
  });
});

describe('a what-question whose verb pays asks an amount', () => {
  it('paying verb: what will X cost, what does X charge', () => {
    expect(askedOf('What will the paint job on the E-Type cost according to the estimate?').type).toBe('amount');
    expect(askedOf('What does VéloVolt charge when I bring the e-bike back late?').value).toBe('money');
    expect(askedOf('What rate per foot was charged for the mesh?').type).toBe('amount');
    expect(askedOf('What diameter is the flue liner?').value).toBe('length');
  });

  it('no paying verb as the question’s: what happens if I do not pay, what to bring to pay', () => {
    expect(askedOf('What happens if I do not pay on time?').type).toBeNull();
    expect(askedOf('What do I need to bring to pay?').type).toBeNull();
  });
});

describe('a day after a comparison is a duration, not a rate', () => {
  it('duration, not period: less than a day before, within a week', () => {
    expect(periodsOf('What will they charge if I cancel less than a day before?')).toEqual([]);
    expect(periodsOf('How soon, within a week?')).toEqual([]);
    const q = 'What will Hartwell & Finch charge me if I call off an appointment less than a day before?';
    const none = { previous: '', header: '', section: '', sourceName: '' };
    expect(sentenceAnswers(askedOf(q), "Appointments cancelled with less than 24 hours' notice incur a £40 fee.", none)).toBe(true);
  });

  it('a rate keeps its period: a day, in a year', () => {
    expect(periodsOf('How much is the bike a day?')).toHaveLength(1);
    expect(periodsOf('Does it get a rebate if it buys a lot in a year?')).toHaveLength(1);
  });
});

describe('a figure after a verb is no label', () => {
  it('verb before the figure: the gas consumption was 41,200 kWh keeps its figure', () => {
    expect(withoutLabels('Harlow boilers: the gas consumption was 41,200 kWh.')).toMatch(/41,200/);
    expect(withoutLabels('The site has 12 bays.')).toMatch(/12/);
  });
});
