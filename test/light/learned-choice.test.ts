import { describe, expect, it } from 'vitest';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import { FEATURES, learnedWeights } from '../../src/modules/models/local-learned.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';

/**
 * Fifteenth round of issue 26 (llearn; docs/light.md, "The learned sentence choice"): the built-in model orders the
 * sentences it could answer with by weights learned on the development sets. Sentences written for these tests.
 */
const ask = (question: string, material: TurnMaterial) => answerLocally({ messages: [{ role: 'user', content: question }], material }).content;

describe('the learned sentence choice', () => {
  it('weights: committed, one per feature, at most 25 features', () => {
    const w = learnedWeights();
    expect(w).not.toBeNull();
    expect(w!.features).toEqual([...FEATURES]);
    expect(FEATURES.length).toBeLessThanOrEqual(25);
    expect(w!.weights).toHaveLength(FEATURES.length);
  });

  it('fact in the second sentence of the top passage: the trial period, not a duration of another passage sharing the words', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'larkfield-hearing-aids.md',
          text: 'Larkfield fits and programmes every new hearing aid at one of its centres. Every new hearing aid bought from a Larkfield centre includes a 30-calendar-day trial period, starting on the date the devices are fitted, not the date of payment.',
        },
        {
          ref: 2,
          sourceName: 'larkfield-warranty.md',
          text: '3.4 If the same fault needs repair three times within twelve months, Larkfield replaces the device with a new one. Warranty repairs usually take 5 to 8 business days.',
        },
      ],
    };
    expect(ask('How many days do I have to try out my new Larkfield hearing aids?', material)).toMatch(/^Every new hearing aid bought from a Larkfield centre includes a 30-calendar-day trial period.*\[1\]/);
  });

  it('table row chosen by its header: the price row of the repairs table, not a price of another passage', () => {
    const material: TurnMaterial = {
      passages: [
        { ref: 1, sourceName: 'piano-prices.md', text: 'Repair | Price\n--- | ---\nRecovering keytops in plastic (52 white keys) | £310\nFree a sticking key | £25 per key' },
        { ref: 2, sourceName: 'piano-care.md', text: 'The humidity control unit for upright pianos is installed at £420. A piano inspection before purchase costs £70.' },
      ],
    };
    expect(ask('How much does it cost to re-cover the white keys of a piano with new plastic tops?', material)).toBe('Recovering keytops in plastic (52 white keys) | £310 [1]');
  });

  it('table row chosen by its header, across languages: the vibration row of a French measurement table, not a sentence sharing the year', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'carriere-brassac-2024.md',
          text: 'Les riverains sont prévenus par SMS la veille de chaque tir. Au total, 38 tirs ont été réalisés en 2024.\nMesure | Maximum 2024 | Limite\n--- | --- | ---\nVitesse particulaire (vibrations) | 5,8 mm/s | 10 mm/s\nSurpression aérienne | 118 dB | 125 dB',
        },
      ],
    };
    expect(ask('What was the highest ground vibration level measured during blasting at the Brassac quarry in 2024?', material)).toBe('Vitesse particulaire (vibrations) | 5,8 mm/s | 10 mm/s [1]');
  });

  it('material other than passages (a persona): the rules answer, the learned choice does not apply', () => {
    const material: TurnMaterial = {
      persona: { name: 'Ada', role: 'the piano shop assistant', personality: '', mission: '', decisionStyle: '', systemPrompt: '' },
      passages: [{ ref: 1, sourceName: 'piano-care.md', text: 'A piano inspection before purchase costs £70.' }],
    };
    expect(ask('How much is a piano inspection?', material)).toBe('A piano inspection before purchase costs £70. [1]');
  });
});
