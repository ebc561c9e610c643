import { describe, expect, it } from 'vitest';
import { answeringSentences, askedOf, rowNamesOther, sentencesWithContext } from '../../src/lib/language/asked.js';
import { namesSister } from '../../src/lib/language/sister-names.js';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';

/**
 * Seventeenth round of issue 26, light's near misses and absent entities (lnear; docs/light.md, "Another thing's
 * sentence"): a sentence naming a sister of the question's name, or a table row lacking the question's thing where another
 * row of its table says it, states another thing's fact: the gate does not count it, and the built-in model does not
 * answer with it. Sentences written for these tests.
 */
const ask = (question: string, material: TurnMaterial) => answerLocally({ messages: [{ role: 'user', content: question }], material }).content;
const NOTHING = /^I am the service's built-in local model, .* I found nothing there about/;

const PRICES =
  '| Code | Procedure | Price |\n|---|---|---|\n| CAS-11 | Rabbit spaying (female) | £120.00 |\n| CAS-12 | Rabbit castration (male) | £85.00 |\n| CAS-21 | Ferret spaying (female) | £140.00 |';

describe("light's near misses: another thing's sentence (lnear)", () => {
  it('sister name (English): a sentence naming *Harlow Wing* does not answer for *Harlow Lodge*', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'alarm-contract.md', text: 'The Harlow Wing system comprises 96 optical smoke detectors and 12 manual call points.' }],
    };
    expect(ask('How many smoke detectors are installed in Harlow Lodge?', material)).toMatch(NOTHING);
    const asked = askedOf('How many smoke detectors are installed in Harlow Lodge?');
    expect(answeringSentences(asked, { text: material.passages![0]!.text, sourceName: 'alarm-contract.md' })).toEqual([]);
  });

  it('sister name (French): *Camping Les Pins* is not *Camping Les Chênes*', () => {
    expect(namesSister([{ words: ['camping', 'les', 'chenes'] }], 'Le Camping Les Pins compte 84 emplacements.')).toBe(true);
  });

  it('sister name: a table cell holding the name\'s opening alone (*Ridgeway Deluxe* for the *Ridgeway Deluxe Max*)', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'tents.md', text: '| Tent | Size | Seated guests |\n|---|---|---|\n| Ridgeway Deluxe | 10 m × 15 m | 120 |\n| Ridgeway Deluxe Pro | 10 m × 20 m | 160 |' }],
    };
    expect(ask('How many seated guests can the Ridgeway Deluxe Max tent hold?', material)).toMatch(NOTHING);
  });

  it('sister name after the question\'s common noun (French): *la formule Horizon* is not *la formule Azur*', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'contrat-entretien.md', text: "Le prix annuel de la formule Horizon est fixé à 1 480 € TTC, payable en deux échéances." }],
    };
    expect(ask('Quel est le prix annuel de la formule Azur ?', material)).toMatch(NOTHING);
    expect(ask('Quel est le prix annuel de la formule Horizon ?', material)).toContain('1 480 €');
  });

  it('guard: the question\'s own name going on (*Tillbury Joinery Ltd*), said beside its sister, or split by punctuation answers', () => {
    expect(namesSister([{ words: ['tillbury', 'joinery'] }], 'Ashgrove Bank offers Tillbury Joinery Ltd a term loan of £180,000.')).toBe(false);
    expect(namesSister([{ words: ['harlow', 'lodge'] }], 'The fees are £690 for Harlow Wing and £245 for Harlow Lodge.')).toBe(false);
    expect(namesSister([{ words: ['brindle', 'lane', 'bakery'] }], 'Supply address: 27 Brindle Lane, Preston PR1 5TD.')).toBe(false);
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'alarm-contract.md', text: 'The Harlow Lodge system comprises 48 optical smoke detectors and 6 manual call points.' }],
    };
    expect(ask('How many smoke detectors are installed in Harlow Lodge?', material)).toContain('48 optical smoke detectors');
  });

  it("another row's thing (the gate): of the spaying rows, only the ferret's answers for a female ferret, not the rabbit's", () => {
    const asked = askedOf('How much does the clinic charge for spaying a female ferret?');
    const rows = answeringSentences(asked, { text: PRICES, section: 'Prices', sourceName: 'clinic-prices.md' });
    expect(rows).toEqual(['| CAS-21 | Ferret spaying (female) | £140.00 |']);
  });

  it("another row's thing (the built-in model): the rabbit's row is not the answer for a female ferret", () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'clinic-prices.md', text: PRICES.replace('\n| CAS-21 | Ferret spaying (female) | £140.00 |', '\n| CAS-31 | Ferret castration (male) | £110.00 |') }],
    };
    expect(ask('How much does the clinic charge for spaying a female ferret?', material)).toMatch(NOTHING);
  });

  it("guard: a row of another kind of line (*Total due* beside *VAT at 20 %*) answers the total *VAT included*", () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'invoice-inv-2025-0412.md', text: '| | |\n|---|---|\n| Net amount | £1,331.40 |\n| VAT at 20% | £266.28 |\n| Total due | £1,597.68 |' }],
    };
    expect(ask('What is the total due, VAT included, on invoice INV-2025-0412?', material)).toContain('£1,597.68');
  });
});

describe("light's near misses: rows told apart by the question's words (lnear)", () => {
  it("guard: a row saying a word of the question's thing the other row lacks (*week-ends*) is not the other row's", () => {
    const asked = askedOf("Quel est le taux horaire d'un technicien le week-end ?");
    const text = '| Prestation | Prix |\n|---|---|\n| Taux horaire technicien, jours ouvrés de 7 h à 19 h | 95 € HT |\n| Taux horaire hors heures ouvrées, week-ends et jours fériés | 142,50 € HT |';
    const [weekday, weekend] = sentencesWithContext({ text, section: 'Tarifs', sourceName: 'contrat-maintenance.md' });
    expect(rowNamesOther(asked, weekend!.sentence, weekend!.context, [weekday!.sentence])).toBe(false);
  });
});

describe("light's near misses: another period (lnear)", () => {
  it('years: a sentence naming other years only (the 2024 accounts, the 2026 budget) does not answer for 2025', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'pv-assemblee-generale.md',
          text: "Les comptes de l'exercice 2024 font apparaître des dépenses de 98 300 € pour un budget voté de 101 000 €. Le budget prévisionnel de l'exercice 2026 est fixé à 104 500 €.",
        },
      ],
    };
    expect(ask("Quel était le budget prévisionnel voté pour l'exercice 2025 ?", material)).toMatch(NOTHING);
  });

  it('guard: a span covering the year (*2024 to 2026*, *2025/26*) or a sentence naming no year still answers', () => {
    const span: TurnMaterial = { passages: [{ ref: 1, sourceName: 'tarifs.md', text: 'From 2024 to 2026 the annual membership fee is fixed at £240.' }] };
    expect(ask('What is the annual membership fee in 2025?', span)).toContain('£240');
    const season: TurnMaterial = { passages: [{ ref: 1, sourceName: 'tarifs.md', text: 'For the 2025/26 season the annual membership fee is £260.' }] };
    expect(ask('What is the annual membership fee in 2026?', season)).toContain('£260');
  });
});

describe("light's near misses: another period, compared (lnear)", () => {
  it("guard: a year the value is compared with (*contre 12 400 hectolitres en 2024*) is not the sentence's period", () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'compte-rendu-cave-2025.md', text: 'La cave a reçu 11 870 hectolitres de vin, contre 12 400 hectolitres en 2024, soit une baisse de 4 %.' }],
    };
    expect(ask('How many hectolitres of wine did the cooperative take in from the 2025 harvest?', material)).toContain('11 870 hectolitres');
  });
});
